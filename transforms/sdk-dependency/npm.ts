/**
 * sdk-dependency for npm: package.json and pnpm-workspace.yaml catalogs.
 *
 * The bump, by one rule applied the same on every run: an entry that gives
 * its package the V1 SDK (a V1 range, or `latest`/`*`, which resolve to V1
 * today) is pinned exactly to the V2 release once no code of the package is
 * left on the V1 SDK (fix ran over the code first and says what it left),
 * and zod, V2's peer dependency, is added. Entries fix cannot decide are
 * left with a note saying why: overrides for one package only (it may need
 * V1), aliases (code imports them under their own name), specs that name no
 * registry version. An entry nothing in its package imports is removed with
 * --remove-unused, else left to the user. Lockfiles are never edited: the
 * events name the install command that regenerates them.
 */
import { posix } from "node:path";
import { applyEdits, type FormattingOptions, modify } from "jsonc-parser";
import { factsOf, type NpmDependencyFacts } from "../../src/core/facts.js";
import type { Finding } from "../../src/core/finding.js";
import { JS_SDK } from "../../src/knowledge/migration.js";
import { resolvesThroughLatest } from "../../src/knowledge/npm-versions.js";
import type { NpmManager } from "../../src/core/facts.js";
import { DEPENDENCY_FIELDS, INSTALL_COMMANDS } from "../../src/lang/js/npm-package.js";
import type { FileFix, FixContext, FixEvent, SiteNote } from "../types.js";

const [ZOD_NAME, ZOD_RANGE] = Object.entries(JS_SDK.v2PeerDependencies)[0]!;
const V2_PIN = JS_SDK.v2Pin;
const SDK = JS_SDK.packageName;

type Decision = { kind: "pin" } | { kind: "remove" } | { kind: "note"; reason: string } | { kind: "leave" };

/** What becomes of one entry; `leftOnV1` lists the package's files still on the V1 SDK. */
function decide(facts: NpmDependencyFacts, context: FixContext, leftOnV1: readonly string[] | undefined): Decision {
  const entry = `"${facts.alias ?? SDK}": "${facts.spec}" in ${facts.field}`;
  if (facts.unused) return context.removeUnused ? { kind: "remove" } : { kind: "leave" };
  if (facts.role === "scoped-override") {
    return {
      kind: "note",
      reason: `${entry} forces the SDK for that package only, which may itself need the V1 API: upgrade it or drop the override`,
    };
  }
  if (facts.alias) {
    return {
      kind: "note",
      reason: `${entry} is installed under another name, and code importing "${facts.alias}" is not followed: migrate it, then pin npm:${SDK}@${V2_PIN}`,
    };
  }
  if (facts.verdict === "review" && !resolvesThroughLatest(facts.spec)) {
    return {
      kind: "note",
      reason: `${entry} names no registry version, so its SDK generation cannot be told: make it ${V2_PIN} once you know it is V2`,
    };
  }
  if (leftOnV1) {
    return {
      kind: "note",
      reason: `${entry} stays: ${leftOnV1.join(", ")} still ${leftOnV1.length === 1 ? "uses" : "use"} the V1 SDK (see the review markers there); fix pins ${V2_PIN} once no code of the package is left on V1`,
    };
  }
  return { kind: "pin" };
}

function note(finding: Finding, reason: string): SiteNote {
  return { line: finding.line, reason };
}

function pinMessage(facts: NpmDependencyFacts, next: string, manager: NpmManager): string {
  return (
    `"${facts.alias ?? SDK}": "${facts.spec}" → "${next}" in ${facts.field}: pinned exactly because the registry's ` +
    `latest tag still points at V1 (${JS_SDK.latestTagIsV1}); run \`${INSTALL_COMMANDS[manager]}\` to regenerate the lockfile.`
  );
}

export function fixPackageJson(text: string, context: FixContext, findings: readonly Finding[]): FileFix {
  const leftOnV1 = context.unmigratedSdkUse.get(posix.dirname(context.file));
  const formattingOptions = formattingOf(text);
  const events: FixEvent[] = [];
  const notes: SiteNote[] = [];
  let current = text;
  let pinnedDependency = false;
  let manager: NpmManager = "npm";
  for (const finding of [...findings].sort((a, b) => b.line - a.line)) {
    const facts = factsOf(finding, "npm-dependency");
    const path = facts?.jsonPath;
    if (!facts || !path || path.length === 0) continue;
    manager = facts.manager;
    const decision = decide(facts, context, leftOnV1);
    if (decision.kind === "note") notes.push(note(finding, decision.reason));
    if (decision.kind === "remove") {
      current = applyEdits(current, modify(current, [...path], undefined, { formattingOptions }));
      events.push({
        kind: "rewrite",
        ruleId: finding.ruleId,
        line: finding.line,
        message: `removed "${SDK}": "${facts.spec}" from ${facts.field}: no code of this package imports it; run \`${INSTALL_COMMANDS[manager]}\` to update the lockfile.`,
      });
    }
    if (decision.kind !== "pin" || facts.spec === V2_PIN) continue;
    current = applyEdits(current, modify(current, [...path], V2_PIN, { formattingOptions }));
    if ((DEPENDENCY_FIELDS as readonly string[]).includes(path[0]!)) pinnedDependency = true;
    events.push({
      kind: "rewrite",
      ruleId: finding.ruleId,
      line: finding.line,
      message: pinMessage(facts, V2_PIN, manager),
    });
  }
  if (pinnedDependency && !hasDependency(current, ZOD_NAME)) {
    const line = events[events.length - 1]!.line;
    current = applyEdits(
      current,
      modify(current, ["dependencies", ZOD_NAME], ZOD_RANGE, {
        formattingOptions,
        getInsertionIndex: sortedInsertion(ZOD_NAME),
      }),
    );
    events.push({
      kind: "rewrite",
      ruleId: "v1-sdk-dependency",
      line,
      message: `added "${ZOD_NAME}": "${ZOD_RANGE}" to dependencies: ${SDK} ${V2_PIN} declares it as a peer dependency; run \`${INSTALL_COMMANDS[manager]}\` to regenerate the lockfile.`,
    });
  }
  return { text: current, events: events.sort((a, b) => a.line - b.line), notes };
}

/**
 * pnpm-workspace.yaml: a catalog entry is pinned like a dependency (it is
 * what the workspaces that take it get), as text on its line so the file's
 * comments and quoting stay.
 */
export function fixPnpmWorkspace(text: string, context: FixContext, findings: readonly Finding[]): FileFix {
  const lines = text.split("\n");
  const events: FixEvent[] = [];
  const notes: SiteNote[] = [];
  // Any workspace may take a catalog entry: it moves once no package is left on V1.
  const leftOnV1 = [...context.unmigratedSdkUse.values()].flat();
  for (const finding of findings) {
    const facts = factsOf(finding, "npm-dependency");
    if (!facts) continue;
    const decision = decide(facts, context, leftOnV1.length > 0 ? leftOnV1 : undefined);
    if (decision.kind === "note") notes.push(note(finding, decision.reason));
    if (decision.kind !== "pin") continue;
    const index = finding.line - 1;
    const line = lines[index] ?? "";
    const at = line.indexOf(facts.spec, finding.column - 1);
    if (at < 0 || facts.spec === "") {
      notes.push(note(finding, `the catalog entry could not be edited as text: make it ${V2_PIN}`));
      continue;
    }
    lines[index] = `${line.slice(0, at)}${V2_PIN}${line.slice(at + facts.spec.length)}`;
    events.push({
      kind: "rewrite",
      ruleId: finding.ruleId,
      line: finding.line,
      message: `${pinMessage(facts, V2_PIN, "pnpm")} Add "${ZOD_NAME}": "${ZOD_RANGE}" to the workspaces that take this entry (V2's peer dependency).`,
    });
  }
  return { text: lines.join("\n"), events, notes };
}

/** Tabs or N spaces, from the first indented line. */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol: "\n" };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol: "\n" };
}

function hasDependency(text: string, name: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (!json || typeof json !== "object") return false;
  return DEPENDENCY_FIELDS.some((field) => {
    const section = (json as Record<string, unknown>)[field];
    return !!section && typeof section === "object" && Object.hasOwn(section, name);
  });
}

/** Keeps sorted keys sorted; otherwise appends. */
function sortedInsertion(name: string): (properties: string[]) => number {
  return (properties) => {
    const sorted = properties.every((p, i) => i === 0 || properties[i - 1]! <= p);
    if (!sorted) return properties.length;
    const index = properties.findIndex((p) => p > name);
    return index < 0 ? properties.length : index;
  };
}
