/**
 * bun.lock, bun's text lockfile (JSON with trailing commas). `workspaces`
 * maps each workspace path ("" for the root) to its declared ranges;
 * `packages` maps an install key (`comfydeploy`, `web/comfydeploy`) to an
 * array whose first item is the resolved `name@version`.
 */
import { posix } from "node:path";
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import { mentionsSdk, sdkSpecOf, splitDescriptor, splitPackagePath } from "../../../knowledge/npm-versions.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { parseJsonTree, propertiesOf, propertyOf, spanOf, stringOf } from "./json.js";
import { type Declaration, type LockContext, manifestOf, type Requirer, reportLockedSdk } from "./lockfile.js";
import { DEPENDENCY_FIELDS } from "../../../lang/js/npm-package.js";

export const bunLockScanner: FileScanner = {
  id: "npm-bun-lock",
  matches: (file) => posix.basename(file) === "bun.lock",
  scan: scanBunLock,
};

export function scanBunLock(input: FileScanInput): Finding[] {
  if (!mentionsSdk(input.text)) return [];
  const sink = new FindingSink(input.file, input.text);
  const root = parseJsonTree(input.text, sink, { lenient: true });
  if (!root) return sink.findings;
  const context: LockContext = { sink, manager: "bun", declarations: [], requirers: [] };
  const packages = propertiesOf(propertyOf(root, "packages"));
  const keys = new Set(packages.map((p) => p.key));
  // Who uses each copy, found the way bun nests them: `parent/name`, else up to the top-level `name`.
  const declaredBy = new Map<string, Declaration[]>();
  const requiredBy = new Map<string, Requirer[]>();

  for (const workspace of propertiesOf(propertyOf(root, "workspaces"))) {
    const name = stringOf(propertyOf(workspace.value, "name"));
    for (const field of DEPENDENCY_FIELDS) {
      for (const dep of propertiesOf(propertyOf(workspace.value, field))) {
        const spec = stringOf(dep.value);
        if (spec === undefined || sdkSpecOf(dep.key, spec) === undefined) continue;
        const declaration = { manifest: manifestOf(input.file, workspace.key), spec };
        context.declarations.push(declaration);
        const installed = resolveKey(workspace.key === "" || !name ? [] : [name], dep.key, keys);
        if (installed) declaredBy.set(installed, [...(declaredBy.get(installed) ?? []), declaration]);
      }
    }
  }

  for (const { key, value } of packages) {
    const resolved = resolvedOf(stringOf(value.children?.[0]));
    // The metadata object (third item for registry packages) lists what the package depends on.
    const meta = value.children?.find((item) => item.type === "object");
    for (const field of DEPENDENCY_FIELDS) {
      for (const dep of propertiesOf(propertyOf(meta, field))) {
        const spec = stringOf(dep.value);
        if (!resolved || spec === undefined || sdkSpecOf(dep.key, spec) === undefined) continue;
        const requirer = { name: resolved.name, version: resolved.version, spec };
        context.requirers.push(requirer);
        const installed = resolveKey(splitPackagePath(key), dep.key, keys);
        if (installed) requiredBy.set(installed, [...(requiredBy.get(installed) ?? []), requirer]);
      }
    }
  }

  for (const property of packages) {
    if (property.value.type !== "array") continue;
    const resolved = resolvedOf(stringOf(property.value.children?.[0]));
    if (!resolved || resolved.name !== JS_SDK.packageName || /^(workspace|link|file):/.test(resolved.version)) continue;
    reportLockedSdk(context, {
      span: spanOf(property),
      version: resolved.version,
      field: "packages",
      key: property.key,
      declaredBy: declaredBy.get(property.key) ?? [],
      requiredBy: requiredBy.get(property.key) ?? [],
    });
  }
  return sink.findings;
}

/** The packages key a dependency of the package at `from` resolves to. */
function resolveKey(from: readonly string[], name: string, keys: ReadonlySet<string>): string | undefined {
  for (let depth = from.length; depth >= 0; depth--) {
    const key = [...from.slice(0, depth), name].join("/");
    if (keys.has(key)) return key;
  }
  return undefined;
}

/** `comfydeploy@0.0.19`, an alias's `cd@npm:comfydeploy@0.0.19`, or `app@workspace:packages/app`. */
function resolvedOf(first: string | undefined): { name: string; version: string } | undefined {
  if (first === undefined) return undefined;
  const { name, range } = splitDescriptor(first);
  if (range.startsWith("npm:")) {
    const target = splitDescriptor(range.slice("npm:".length));
    return { name: target.name, version: target.range };
  }
  return { name, version: range };
}
