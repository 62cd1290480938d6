/**
 * sdk-dependency for Python: a V1 requirement's version spec moves to V2 in
 * requirements/constraints files, pyproject.toml (PEP 621 and Poetry) and
 * Pipfile, keeping extras, markers, comments and the user's operator (an
 * exact pin stays exact, at the V2 version the knowledge data names). What
 * cannot be edited as a spec (hashed requirements, a file or URL reference,
 * setup.cfg / setup.py) and specs that may install either generation get a
 * review marker. Lockfiles are never edited.
 */
import { factsOf } from "../../src/core/facts.js";
import type { Finding } from "../../src/core/finding.js";
import { PYTHON_SDK } from "../../src/knowledge/migration.js";
import { insertLineMarkers, type LineMarker } from "../lib/line-markers.js";
import type { FileFix, FixContext, FixEvent } from "../types.js";

const PY_RANGE = PYTHON_SDK.recommendedRange;

export function fixPythonManifest(text: string, context: FixContext, findings: readonly Finding[]): FileFix {
  const lines = text.split("\n");
  const events: FixEvent[] = [];
  const markers: LineMarker[] = [];
  const mark = (finding: Finding, advice: string): void =>
    void markers.push({ line: finding.line, ruleId: finding.ruleId, advice });
  for (const finding of findings) {
    const facts = factsOf(finding, "pypi-dependency");
    if (!facts || facts.lockfile) continue;
    const manifest = facts.manifest;
    const index = finding.line - 1;
    const line = lines[index];
    if (line === undefined) continue;
    const spec = facts.spec;
    if (facts.verdict === "review") {
      // Which release this installs cannot be told from the file: a person checks, fix does not guess.
      mark(
        finding,
        `${PYTHON_SDK.packageName} ${spec || "(no version)"} may install the V1 SDK (below ${PYTHON_SDK.firstV2Version}): ${facts.reason}; require ${PYTHON_SDK.packageName}${PY_RANGE}`,
      );
      continue;
    }
    let edited: { line: string; before: string } | undefined;
    if (manifest === "requirements" || manifest === "constraints") {
      if (hashed(lines, index)) {
        markers.push({
          line: finding.line,
          ruleId: finding.ruleId,
          advice: `change ${PYTHON_SDK.packageName}${spec} to ${v2Spec(spec)} and regenerate the --hash values, which would no longer match`,
        });
        continue;
      }
      edited = replaceRequirementSpec(line, finding.column - 1, "");
    } else if (manifest === "pyproject" || manifest === "poetry" || manifest === "pipfile") {
      edited = replaceTomlSpec(line, finding.column - 1);
    }
    // setup.cfg / setup.py, and requirements that name a file or URL rather than a version: a person changes them.
    if (edited) record(lines, index, edited, finding, spec, events);
    else mark(finding, `require ${PYTHON_SDK.packageName}${PY_RANGE} (V2) instead of ${spec || "a V1 release"}`);
  }
  const marked = insertLineMarkers(lines.join("\n"), context.file, markers);
  return { text: marked.text, events: [...events, ...marked.events].sort((a, b) => a.line - b.line) };
}

function record(
  lines: string[],
  index: number,
  edited: { line: string; before: string },
  finding: Finding,
  spec: string,
  events: FixEvent[],
): void {
  if (edited.line === lines[index]) return;
  lines[index] = edited.line;
  events.push({
    kind: "rewrite",
    ruleId: finding.ruleId,
    line: finding.line,
    message: `${PYTHON_SDK.packageName} ${edited.before || spec} → ${v2Spec(edited.before || spec)} (the V2 SDK); regenerate any lockfile with your tool (pip-compile, poetry lock, uv lock, pipenv lock).`,
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
function replaceRequirementSpec(
  line: string,
  column: number,
  end: string,
): { line: string; before: string } | undefined {
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
  const replaced = line.slice(0, at) + lead + v2Spec(before) + trail + tail.slice(specText.length);
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
  return { line: line.slice(0, at) + v2Spec(value) + line.slice(at + value.length), before: value };
}

/**
 * Operators that keep their meaning on the V2 version: pins (`==`, `===`,
 * Poetry's bare version), lower bounds (`>=`) and compatible releases (`~=`,
 * Poetry's `^` and `~`). Anything else (ranges, `<`, `!=`, wildcards) gets
 * the recommended range.
 */
const KEPT_OPERATOR = /^(===|==|>=|~=|\^|~(?!=)|)\s*v?\d+(?:\.\d+)*$/;

/** The V2 spec for a V1 one: the same operator on the V2 version where it carries over. */
export function v2Spec(spec: string): string {
  const kept = KEPT_OPERATOR.exec(spec.trim());
  return kept ? `${kept[1]}${PYTHON_SDK.v2Version}` : PY_RANGE;
}
