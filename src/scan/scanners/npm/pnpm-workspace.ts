/**
 * pnpm-workspace.yaml: the SDK range in `catalog` / `catalogs.<name>` (which
 * package.json files use as `catalog:`) and in `overrides` (pnpm 10 moved
 * them here from package.json).
 */
import { posix } from "node:path";
import type { Finding } from "../../../core/finding.js";
import { judgeNpmSpec, mentionsSdk, sdkSpecOf } from "../../../knowledge/npm-versions.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { pnpmOverrideTarget, refersElsewhere } from "./manifest.js";
import { isReportable, type ManifestEntry, manifestFix, manifestMessage, reportDependency } from "./report.js";
import { entriesOf, entryOf, parseYamlDocument, scalarText, type YamlEntry } from "./yaml.js";

export const pnpmWorkspaceScanner: FileScanner = {
  id: "npm-pnpm-workspace",
  matches: (file) => posix.basename(file) === "pnpm-workspace.yaml",
  scan: scanPnpmWorkspace,
};

export function scanPnpmWorkspace(input: FileScanInput): Finding[] {
  if (!mentionsSdk(input.text)) return [];
  const sink = new FindingSink(input.file, input.text);
  const doc = parseYamlDocument(input.text, sink);
  if (!doc) return sink.findings;
  const root = doc.contents;

  const report = (
    entry: YamlEntry,
    name: string,
    field: string,
    role: ManifestEntry["role"],
    parent?: string,
  ): void => {
    const spec = scalarText(entry.value);
    if (spec === undefined) return;
    const sdkSpec = sdkSpecOf(name, spec);
    if (sdkSpec === undefined || refersElsewhere(sdkSpec)) return;
    const judgement = judgeNpmSpec(sdkSpec);
    if (!isReportable(judgement)) return;
    const manifestEntry: ManifestEntry = {
      key: entry.key,
      spec,
      field,
      role,
      judgement,
      manager: "pnpm",
      unused: false,
      ...(parent ? { parent } : {}),
    };
    reportDependency(sink, entry.span, judgement, manifestMessage(manifestEntry), manifestFix(manifestEntry), {
      spec,
      field,
      role: manifestEntry.role,
      manager: "pnpm",
      yamlPath: [...field.split("."), entry.key],
    });
  };

  for (const entry of entriesOf(entryOf(root, "catalog"))) report(entry, entry.key, "catalog", "catalog");
  for (const group of entriesOf(entryOf(root, "catalogs"))) {
    for (const entry of entriesOf(group.value)) report(entry, entry.key, `catalogs.${group.key}`, "catalog");
  }
  for (const entry of entriesOf(entryOf(root, "overrides"))) {
    const target = pnpmOverrideTarget(entry.key);
    report(entry, target.name, "overrides", target.parent ? "scoped-override" : "override", target.parent);
  }
  return sink.findings;
}
