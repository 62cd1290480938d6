/**
 * A vendored copy of the node: its own pyproject.toml (`[project] name =
 * "comfyui-deploy"`) gives the version that was copied.
 */
import { parse } from "smol-toml";
import { NODE_COMPONENT } from "../../../knowledge/migration.js";
import { decideRegistryVersion } from "../../../knowledge/node-ref.js";
import type { NodePinSite } from "./node-pin-finding.js";

/** Throws on TOML syntax errors (the caller reports them). */
export function pyprojectPins(text: string): NodePinSite[] {
  const project = (parse(text) as { project?: { name?: unknown; version?: unknown } }).project;
  if (typeof project?.name !== "string" || project.name.toLowerCase() !== NODE_COMPONENT.registryName) return [];
  if (typeof project.version !== "string") return [];
  const version = project.version;
  const line = new RegExp(`^\\s*version\\s*=\\s*["']${escapeRegExp(version)}["']`, "m").exec(text);
  const start = line ? line.index + line[0].lastIndexOf(version) : (/^\s*name\s*=/m.exec(text)?.index ?? 0);
  return [
    { decision: decideRegistryVersion(version), format: "pyproject", start, end: start + Math.max(1, version.length) },
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
