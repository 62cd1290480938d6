/**
 * pnpm-lock.yaml, lockfile versions 5.x to 9. Projects sit under `importers`
 * (or at the top level in a single-project file before v9); resolved
 * packages are keyed `/comfydeploy/0.0.19` (v5), `/comfydeploy@0.0.19` (v6)
 * or `comfydeploy@0.0.19` (v9, mirrored in `snapshots`, peers in parentheses).
 * One finding per locked V1 version: the `packages` entry, else the
 * `snapshots` entry, else the importer that records it.
 */
import { posix } from "node:path";
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import { mentionsSdk, sdkSpecOf, splitDescriptor } from "../../../knowledge/npm-versions.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { type Declaration, type LockContext, type LockedSdk, manifestOf, reportLockedSdk } from "./lockfile.js";
import { entriesOf, entryOf, parseYamlDocument, scalarText } from "./yaml.js";

export const pnpmLockScanner: FileScanner = {
  id: "npm-pnpm-lock",
  matches: (file) => posix.basename(file) === "pnpm-lock.yaml",
  scan: scanPnpmLock,
};

const IMPORTER_FIELDS = ["dependencies", "devDependencies", "optionalDependencies"];
const PACKAGE_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"];

export function scanPnpmLock(input: FileScanInput): Finding[] {
  if (!mentionsSdk(input.text)) return [];
  const sink = new FindingSink(input.file, input.text);
  const doc = parseYamlDocument(input.text, sink);
  if (!doc) return sink.findings;
  const root = doc.contents;
  const context: LockContext = { sink, manager: "pnpm", declarations: [], requirers: [] };

  const importers = entryOf(root, "importers");
  const projects = importers
    ? entriesOf(importers).map((e) => ({ path: e.key, node: e.value }))
    : [{ path: ".", node: root as unknown }];
  const importerPins: LockedSdk[] = [];
  // Importers record the exact version they resolved to.
  const declaredBy = new Map<string, Declaration[]>();
  for (const { path, node } of projects) {
    const specifiers = entryOf(node, "specifiers"); // v5 keeps specifiers apart
    for (const field of IMPORTER_FIELDS) {
      for (const dep of entriesOf(entryOf(node, field))) {
        const nested = entryOf(dep.value, "version") !== undefined || entryOf(dep.value, "specifier") !== undefined;
        const specifier = scalarText(nested ? entryOf(dep.value, "specifier") : entryOf(specifiers, dep.key));
        const rawVersion = scalarText(nested ? entryOf(dep.value, "version") : dep.value) ?? "";
        if (/^(link|file|workspace):/.test(rawVersion)) continue;
        const resolved = resolvedReference(dep.key, rawVersion);
        const isSdk =
          (specifier !== undefined && sdkSpecOf(dep.key, specifier) !== undefined) ||
          resolved.name === JS_SDK.packageName;
        if (!isSdk) continue;
        const declaration = {
          manifest: manifestOf(input.file, path === "." ? "" : path),
          spec: specifier ?? resolved.version,
        };
        context.declarations.push(declaration);
        declaredBy.set(resolved.version, [...(declaredBy.get(resolved.version) ?? []), declaration]);
        importerPins.push({
          span: dep.span,
          version: resolved.version,
          field: `importers.${field}`,
          key: `${path} > ${dep.key}`,
        });
      }
    }
  }

  const locked: LockedSdk[] = [];
  for (const section of ["packages", "snapshots"]) {
    for (const entry of entriesOf(entryOf(root, section))) {
      const fromKey = parsePackageKey(entry.key);
      const name = scalarText(entryOf(entry.value, "name")) ?? fromKey.name;
      const version = scalarText(entryOf(entry.value, "version")) ?? fromKey.version;
      for (const field of PACKAGE_FIELDS) {
        for (const dep of entriesOf(entryOf(entry.value, field))) {
          const reference = resolvedReference(dep.key, scalarText(dep.value) ?? "");
          if (reference.name === JS_SDK.packageName) context.requirers.push({ name, version, spec: reference.version });
        }
      }
      if (name === JS_SDK.packageName) locked.push({ span: entry.span, version, field: section, key: entry.key });
    }
  }

  const reported = new Set<string>();
  for (const entry of [...locked, ...importerPins]) {
    if (reported.has(entry.version)) continue;
    reported.add(entry.version);
    reportLockedSdk(context, { ...entry, declaredBy: declaredBy.get(entry.version) ?? [] });
  }
  return sink.findings;
}

/**
 * A dependency's locked reference: `0.0.19`, `0.0.19(zod@3.22.4)`, v5's
 * `0.0.19_zod@3.22.4`, or an alias target `/comfydeploy@0.0.19` / `comfydeploy@0.0.19`.
 */
function resolvedReference(name: string, reference: string): { name: string; version: string } {
  const bare = reference.replace(/\(.*$/, "");
  if (/^\/?(@[^/@]+\/)?[^/@]+@/.test(bare)) return parsePackageKey(bare);
  return { name, version: bare.split("_")[0] ?? bare };
}

/** `/comfydeploy/0.0.19`, `/comfydeploy@0.0.19(zod@3.22.4)`, `comfydeploy@0.0.19`, `@s/p@1.0.0`. */
export function parsePackageKey(key: string): { name: string; version: string } {
  const bare = key.replace(/^\//, "").replace(/\(.*$/, "");
  const v5 = /^((?:@[^/]+\/)?[^/@]+)\/(\d[^/]*)$/.exec(bare);
  if (v5) return { name: v5[1]!, version: v5[2]!.split("_")[0]! };
  const { name, range } = splitDescriptor(bare);
  return { name, version: range };
}
