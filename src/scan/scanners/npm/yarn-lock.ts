/**
 * yarn.lock, classic (v1) and berry (v2+), both read with yarn's own parser.
 * An entry's header lists the descriptors it satisfies (`comfydeploy@^0.0.19`,
 * berry `comfydeploy@npm:^0.0.19`, aliases `cd@npm:comfydeploy@^0.0.19`);
 * berry also records workspaces as `name@workspace:path` entries.
 */
import { createRequire } from "node:module";
import { posix } from "node:path";
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import { mentionsSdk, sdkSpecOf, splitDescriptor } from "../../../knowledge/npm-versions.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import {
  type Declaration,
  type LockContext,
  manifestOf,
  type Requirer,
  reportLockedSdk,
  siblingManifestDeclarations,
} from "./lockfile.js";

/** yarn's parser, loaded on the first yarn.lock: most scans never meet one. */
function yarnParser(): (text: string) => unknown {
  return (createRequire(import.meta.url)("@yarnpkg/parsers") as typeof import("@yarnpkg/parsers")).parseSyml;
}

export const yarnLockScanner: FileScanner = {
  id: "npm-yarn-lock",
  matches: (file) => posix.basename(file) === "yarn.lock",
  scan: scanYarnLock,
};

type YarnEntry = Record<string, unknown>;

/** Sections of an entry that name what it depends on. */
const REQUIRING_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"];

export function scanYarnLock(input: FileScanInput): Finding[] {
  if (!mentionsSdk(input.text)) return [];
  const sink = new FindingSink(input.file, input.text);
  let parsed: Record<string, unknown>;
  try {
    parsed = yarnParser()(input.text) as Record<string, unknown>;
  } catch (error) {
    sink.unreadable(errorMessage(error), errorLine(error));
    return sink.findings;
  }
  const headers = headerSpans(input.text);
  const context: LockContext = { sink, manager: "yarn", declarations: [], requirers: [] };

  // Classic files give every descriptor of a header its own key, sharing one object.
  const entries = new Map<YarnEntry, string[]>();
  for (const [key, value] of Object.entries(parsed)) {
    if (key === "__metadata" || !isEntry(value)) continue;
    const descriptors = key.split(/\s*,\s*/);
    entries.set(value, [...(entries.get(value) ?? []), ...descriptors]);
  }

  // Each dependency names the entry it resolves to by a descriptor of that entry's header.
  const declared = new Map<string, Declaration[]>();
  const required = new Map<string, Requirer[]>();
  for (const [entry, descriptors] of entries) {
    const workspace = descriptors.map((d) => splitDescriptor(d).range).find((r) => r.startsWith("workspace:"));
    const version = typeof entry.version === "string" ? entry.version : "";
    for (const field of REQUIRING_FIELDS) {
      for (const [name, spec] of Object.entries(asRecord(entry[field]))) {
        if (typeof spec !== "string" || sdkSpecOf(name, spec) === undefined) continue;
        const descriptor = `${name}@${spec}`;
        if (workspace !== undefined) {
          const declaration = { manifest: manifestOf(input.file, workspace.slice("workspace:".length)), spec };
          context.declarations.push(declaration);
          declared.set(descriptor, [...(declared.get(descriptor) ?? []), declaration]);
        } else {
          const requirer = { name: splitDescriptor(descriptors[0] ?? "").name, version, spec };
          context.requirers.push(requirer);
          required.set(descriptor, [...(required.get(descriptor) ?? []), requirer]);
        }
      }
    }
  }
  // Classic files do not record workspaces: fall back to the manifest beside the lockfile.
  const recordsWorkspaces = context.declarations.length > 0;
  if (!recordsWorkspaces) context.declarations.push(...siblingManifestDeclarations(input.file, input.repo));

  for (const [entry, descriptors] of entries) {
    if (!isSdkEntry(entry, descriptors)) continue;
    const span = descriptors.map((d) => headers.get(d)).find((s) => s !== undefined);
    if (!span) continue;
    const version = typeof entry.version === "string" ? entry.version : "";
    reportLockedSdk(context, {
      span,
      version,
      field: "entry",
      key: descriptors.join(", "),
      ...(recordsWorkspaces ? { declaredBy: descriptors.flatMap((d) => declared.get(d) ?? []) } : {}),
      requiredBy: descriptors.flatMap((d) => required.get(d) ?? []),
    });
  }
  return sink.findings;
}

/** The entry resolves the SDK: by berry's `resolution`, else by a descriptor's name or alias target. */
function isSdkEntry(entry: YarnEntry, descriptors: readonly string[]): boolean {
  if (typeof entry.resolution === "string") {
    const { name, range } = splitDescriptor(entry.resolution);
    return name === JS_SDK.packageName && !isLocal(range);
  }
  return descriptors.some((d) => {
    const { name, range } = splitDescriptor(d);
    return !isLocal(range) && sdkSpecOf(name, range) !== undefined;
  });
}

/** Workspaces, links and portals are this repository's own code, not the registry SDK. */
function isLocal(range: string): boolean {
  return /^(workspace|link|portal|file):/.test(range);
}

/** Offsets of each entry header, keyed by every descriptor it lists. */
function headerSpans(text: string): Map<string, { start: number; end: number }> {
  const spans = new Map<string, { start: number; end: number }>();
  let offset = 0;
  for (const line of text.split("\n")) {
    const content = line.replace(/\r$/, "");
    if (/^[^\s#].*:\s*$/.test(content)) {
      const header = content.replace(/:\s*$/, "").replace(/"/g, "");
      for (const descriptor of header.split(/\s*,\s*/)) {
        if (!spans.has(descriptor)) spans.set(descriptor, { start: offset, end: offset + content.trimEnd().length });
      }
    }
    offset += line.length + 1;
  }
  return spans;
}

function isEntry(value: unknown): value is YarnEntry {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asRecord(value: unknown): Record<string, unknown> {
  return isEntry(value) ? value : {};
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** js-yaml errors carry a 0-based `mark.line`; the classic grammar a 1-based `location.start.line`. */
function errorLine(error: unknown): number {
  const e = error as { mark?: { line?: number }; location?: { start?: { line?: number } } };
  if (typeof e.mark?.line === "number") return e.mark.line + 1;
  if (typeof e.location?.start?.line === "number") return e.location.start.line;
  return 1;
}
