/**
 * sdk-dependency: the SDK's dependency declarations move to V2.
 *
 * package.json: a V1 `comfydeploy` entry becomes exactly the V2 pin (an
 * `npm:` alias keeps its alias form) and zod, V2's peer dependency, is added
 * to `dependencies` when no dependency field has it. Only done when every V1
 * SDK call in the package was rewritten (or there are none); edits go through
 * jsonc-parser with the file's own indentation. Lockfiles are never edited:
 * the event names the install command that regenerates them.
 *
 * Python: a V1 requirement's version spec becomes the recommended range in
 * requirements/constraints files, pyproject.toml (PEP 621 and Poetry) and
 * Pipfile, keeping extras, markers and comments. Hashed requirements and
 * setup.cfg / setup.py get a review marker instead.
 */
import { posix } from "node:path";
import { applyEdits, type FormattingOptions, modify } from "jsonc-parser";
import { factsOf } from "../../src/core/facts.js";
import type { Finding } from "../../src/core/finding.js";
import { JS_SDK, PYTHON_SDK } from "../../src/knowledge/migration.js";
import { DEPENDENCY_FIELDS } from "../../src/scan/scanners/npm/manifest.js";
import { INSTALL_COMMANDS, type NpmManager } from "../../src/scan/scanners/npm/report.js";
import { pythonManifestKindOf, mayBeIncludedRequirements } from "../../src/scan/scanners/python/manifests.js";
import { insertLineMarkers, type LineMarker } from "../lib/line-markers.js";
import type { FileFix, FixContext, FixEvent, TransformPart } from "../types.js";

const [ZOD_NAME, ZOD_RANGE] = Object.entries(JS_SDK.v2PeerDependencies)[0]!;
const V2_PIN = JS_SDK.v2Pin;
const PY_RANGE = PYTHON_SDK.recommendedRange;
const PY_LOCKFILES = new Set(["pipfile-lock", "poetry-lock", "uv-lock"]);

/** The part of the transform for these files. */
export const part: TransformPart = {
  appliesTo: (file) => {
    if (posix.basename(file) === "package.json") return true;
    const kind = pythonManifestKindOf(file);
    if (kind) return !PY_LOCKFILES.has(kind);
    return mayBeIncludedRequirements(file);
  },
  apply: (text, context) => {
    const findings = context.findings.filter(
      (f) =>
        f.ruleId === "v1-sdk-dependency" &&
        (f.facts?.kind === "npm-dependency" || f.facts?.kind === "pypi-dependency") &&
        f.facts.verdict === "v1" &&
        (f.fix === "auto" || factsOf(f, "npm-dependency")?.unused === true),
    );
    if (findings.length === 0) return { text, events: [] };
    if (posix.basename(context.file) === "package.json") return fixPackageJson(text, context, findings);
    return fixPythonManifest(text, context, findings);
  },
};

// ------------------------------------------------------------------ npm

/**
 * The package bump, by one rule applied the same on every run: a V1 entry is
 * pinned to the V2 release once no code of its package is left on the V1
 * SDK (fix ran over the code first and says what it left). An entry nothing
 * in the package imports is not pinned: it is removed with --remove-unused,
 * else left for the user, whose scan says how to remove it.
 */
function fixPackageJson(text: string, context: FixContext, findings: readonly Finding[]): FileFix {
  const dir = posix.dirname(context.file);
  const formattingOptions = formattingOf(text);
  const events: FixEvent[] = [];
  const notes: string[] = [];
  const leftOnV1 = context.unmigratedSdkUse.get(dir);
  let current = text;
  let declaresDependency = false;
  let manager: NpmManager = "npm";
  for (const finding of [...findings].sort((a, b) => b.line - a.line)) {
    const facts = factsOf(finding, "npm-dependency");
    const path = facts?.jsonPath;
    if (!facts || !path || path.length === 0) continue;
    const spec = facts.spec;
    manager = facts.manager;
    if (facts.unused) {
      if (!context.removeUnused) continue;
      current = applyEdits(current, modify(current, [...path], undefined, { formattingOptions }));
      events.push({ kind: "rewrite", ruleId: finding.ruleId, line: finding.line, message: `removed "${facts.alias ?? JS_SDK.packageName}": "${spec}" from ${facts.field}: no code of this package imports it; run \`${INSTALL_COMMANDS[manager]}\` to update the lockfile.` });
      continue;
    }
    if (leftOnV1) {
      notes.push(`"${JS_SDK.packageName}": "${spec}" stays: ${leftOnV1.join(", ")} still ${leftOnV1.length === 1 ? "uses" : "use"} the V1 SDK (see the review markers there); fix pins ${V2_PIN} once no code of the package is left on V1`);
      continue;
    }
    const next = spec.startsWith("npm:") ? `npm:${JS_SDK.packageName}@${V2_PIN}` : V2_PIN;
    if ((DEPENDENCY_FIELDS as readonly string[]).includes(path[0]!)) declaresDependency = true;
    if (next === spec) continue;
    current = applyEdits(current, modify(current, [...path], next, { formattingOptions }));
    events.push({
      kind: "rewrite",
      ruleId: finding.ruleId,
      line: finding.line,
      message:
        `"${facts.alias ?? JS_SDK.packageName}": "${spec}" → "${next}" in ${facts.field}: pinned exactly because the registry's ` +
        `latest tag still points at V1 (${JS_SDK.latestTagIsV1}); run \`${INSTALL_COMMANDS[manager]}\` to regenerate the lockfile.`,
    });
  }
  if (declaresDependency && events.length > 0 && !hasDependency(current, ZOD_NAME)) {
    const line = events[events.length - 1]!.line;
    current = applyEdits(
      current,
      modify(current, ["dependencies", ZOD_NAME], ZOD_RANGE, { formattingOptions, getInsertionIndex: sortedInsertion(ZOD_NAME) }),
    );
    events.push({
      kind: "rewrite",
      ruleId: "v1-sdk-dependency",
      line,
      message: `added "${ZOD_NAME}": "${ZOD_RANGE}" to dependencies: ${JS_SDK.packageName} ${V2_PIN} declares it as a peer dependency; run \`${INSTALL_COMMANDS[manager]}\` to regenerate the lockfile.`,
    });
  }
  return { text: current, events: events.sort((a, b) => a.line - b.line), notes };
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

// --------------------------------------------------------------- Python

function fixPythonManifest(text: string, context: FixContext, findings: readonly Finding[]): FileFix {
  const lines = text.split("\n");
  const events: FixEvent[] = [];
  const markers: LineMarker[] = [];
  for (const finding of findings) {
    const facts = factsOf(finding, "pypi-dependency");
    if (!facts || facts.lockfile) continue;
    const manifest = facts.manifest;
    const index = finding.line - 1;
    const line = lines[index];
    if (line === undefined) continue;
    const spec = facts.spec;
    if (manifest === "requirements" || manifest === "constraints") {
      if (hashed(lines, index)) {
        markers.push({ line: finding.line, ruleId: finding.ruleId, advice: `change ${PYTHON_SDK.packageName}${spec} to ${PY_RANGE} and regenerate the --hash values, which would no longer match` });
        continue;
      }
      const edited = replaceRequirementSpec(line, finding.column - 1, "");
      if (edited !== undefined) record(lines, index, edited, finding, spec, events);
    } else if (manifest === "pyproject" || manifest === "poetry" || manifest === "pipfile") {
      const edited = replaceTomlSpec(line, finding.column - 1);
      if (edited !== undefined) record(lines, index, edited, finding, spec, events);
    } else {
      markers.push({ line: finding.line, ruleId: finding.ruleId, advice: `require ${PYTHON_SDK.packageName}${PY_RANGE} (V2) instead of ${spec || "a V1 release"}` });
    }
  }
  const marked = insertLineMarkers(lines.join("\n"), context.file, markers);
  return { text: marked.text, events: [...events, ...marked.events].sort((a, b) => a.line - b.line) };
}

function record(lines: string[], index: number, edited: { line: string; before: string }, finding: Finding, spec: string, events: FixEvent[]): void {
  if (edited.line === lines[index]) return;
  lines[index] = edited.line;
  events.push({
    kind: "rewrite",
    ruleId: finding.ruleId,
    line: finding.line,
    message: `${PYTHON_SDK.packageName} ${edited.before || spec} → ${PY_RANGE} (the V2 SDK); regenerate any lockfile with your tool (pip-compile, poetry lock, uv lock, pipenv lock).`,
  });
}

/** The requirement, or any line it continues onto with `\`, carries `--hash`. */
function hashed(lines: readonly string[], index: number): boolean {
  for (let i = index; i < lines.length; i++) {
    const line = lines[i]!;
    if (/(^|\s)--hash[=\s]/.test(line.replace(/\s#.*$/, ""))) return true;
    if (!/\\\s*$/.test(line)) break;
  }
  return false;
}

const NAME = /^comfydeploy(?![\w.-])/i;

/** Replaces the version spec after `comfydeploy[extras]` that starts at `column`, up to `;`, a comment, an option or `end`. */
function replaceRequirementSpec(line: string, column: number, end: string): { line: string; before: string } | undefined {
  const rest = line.slice(column);
  const name = NAME.exec(rest);
  if (!name) return undefined;
  let at = column + name[0].length;
  const extras = /^\s*\[[^\]]*\]/.exec(line.slice(at));
  if (extras) at += extras[0].length;
  const tail = line.slice(at);
  const stop = new RegExp(`;|\\s#|\\s--|\\\\\\s*$${end ? `|${end}` : ""}`).exec(tail);
  const specText = stop ? tail.slice(0, stop.index) : tail;
  const before = specText.trim();
  if (!/^(==|~=|<=|>=|!=|<|>|===)/.test(before) || before.startsWith("@")) return undefined;
  const lead = /^\s*/.exec(specText)![0];
  const trail = /\s*$/.exec(specText.slice(lead.length))![0];
  const replaced = line.slice(0, at) + lead + PY_RANGE + trail + tail.slice(specText.length);
  return { line: replaced, before };
}

/**
 * pyproject.toml / Pipfile: a PEP 508 string (`"comfydeploy==0.4.1"`), a
 * Poetry or Pipfile key (`comfydeploy = "^0.4.1"`) or an inline table's
 * `version = "..."`.
 */
function replaceTomlSpec(line: string, column: number): { line: string; before: string } | undefined {
  const quote = line[column - 1];
  if (quote === '"' || quote === "'") return replaceRequirementSpec(line, column, quote);
  const rest = line.slice(column);
  const key = /^(["']?)comfydeploy\1\s*=\s*/i.exec(rest);
  if (!key) return undefined;
  const valueAt = column + key[0].length;
  const simple = /^(["'])([^"']*)\1/.exec(line.slice(valueAt));
  if (simple) return swapQuoted(line, valueAt + 1, simple[2]!);
  const version = /\bversion\s*=\s*(["'])([^"']*)\1/.exec(line.slice(valueAt));
  if (!version) return undefined;
  const at = valueAt + version.index + version[0].length - version[2]!.length - 1;
  return swapQuoted(line, at, version[2]!);
}

function swapQuoted(line: string, at: number, value: string): { line: string; before: string } | undefined {
  if (value === "*" || value === "") return undefined;
  return { line: line.slice(0, at) + PY_RANGE + line.slice(at + value.length), before: value };
}
