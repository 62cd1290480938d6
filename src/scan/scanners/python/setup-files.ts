/**
 * setuptools metadata: setup.cfg (`install_requires =` and extras, INI with
 * indented continuation lines) and setup.py (string literals inside
 * `install_requires=[...]` and friends, following a list held in a name).
 */
import type { DeclarationResult, PythonDeclaration } from "./declarations.js";
import { PyModule } from "../../../lang/python/module.js";
import type { PyRange } from "../../../lang/python/syntax.js";
import { isPythonSdkName, parseRequirement, splitRequirementList } from "./requirement.js";
import { fromRequirement } from "./requirements-file.js";
import { isName, isOp, isString, stringValue } from "../../../lang/python/tokens.js";

const REQUIREMENT_KEYS = new Set(["install_requires", "setup_requires", "tests_require", "extras_require"]);

export function readSetupCfg(text: string): DeclarationResult {
  const declarations: PythonDeclaration[] = [];
  let section = "";
  let key: string | undefined;
  let offset = 0;
  for (const raw of text.split("\n")) {
    const start = offset;
    offset += raw.length + 1;
    const line = raw.replace(/\r$/, "");
    if (/^\s*[#;]/.test(line) || line.trim() === "") continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      section = header[1]!.trim().toLowerCase();
      key = undefined;
      continue;
    }
    let valueText: string;
    let valueOffset: number;
    const entry = /^([A-Za-z0-9_.-]+)\s*[=:]\s?/.exec(line);
    if (entry && !/^\s/.test(line)) {
      const name = entry[1]!.toLowerCase();
      const wanted = (section === "options" && REQUIREMENT_KEYS.has(name)) || section === "options.extras_require";
      key = wanted ? (section === "options" ? `options.${name}` : `options.extras_require.${name}`) : undefined;
      valueText = line.slice(entry[0].length);
      valueOffset = start + entry[0].length;
    } else if (/^\s/.test(line) && key) {
      valueText = line;
      valueOffset = start;
    } else {
      key = undefined;
      continue;
    }
    if (!key) continue;
    // An inline comment needs whitespace before `#`, so URL fragments (#egg=) survive.
    const content = valueText.replace(/\s#.*$/, "");
    for (const part of splitRequirementList(content)) {
      const requirement = parseRequirement(part.text);
      if (!requirement || !isPythonSdkName(requirement.name)) continue;
      declarations.push(fromRequirement(requirement, "setup-cfg", valueOffset + part.offset, key));
    }
  }
  return { declarations };
}

export function readSetupPy(text: string): DeclarationResult {
  const module = new PyModule(text);
  const t = module.tokens;
  const declarations: PythonDeclaration[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < t.length; i++) {
    const token = t[i]!;
    // install_requires=[...] as a keyword argument or assignment, or "install_requires": [...] in a dict.
    const named = token.kind === "name" && REQUIREMENT_KEYS.has(token.value) && isOp(t[i + 1], "=");
    const quoted = isString(token) && REQUIREMENT_KEYS.has(stringValue(text, token)) && isOp(t[i + 1], ":");
    if (!named && !quoted) continue;
    const value = valueRange(module, i + 2);
    for (const index of requirementStrings(module, value, 0, new Set())) {
      if (seen.has(index)) continue;
      seen.add(index);
      const literal = t[index]!;
      if (!isString(literal) || literal.prefix.includes("f")) continue;
      const requirement = parseRequirement(stringValue(text, literal));
      if (!requirement || !isPythonSdkName(requirement.name)) continue;
      const key = isString(token) ? stringValue(text, token) : token.value;
      declarations.push(fromRequirement(requirement, "setup-py", literal.bodyStart, key));
    }
  }
  return { declarations };
}

/** The expression starting at `lo`, up to a top-level comma or the enclosing bracket. */
function valueRange(module: PyModule, lo: number): PyRange {
  const t = module.tokens;
  let hi = lo;
  while (hi < t.length) {
    const token = t[hi]!;
    if (token.kind === "newline" || isOp(token, ",") || (token.kind === "op" && ")]}".includes(token.value))) break;
    const partner = module.partner(hi);
    hi = partner > hi ? partner + 1 : hi + 1;
  }
  return { lo, hi };
}

/** String literal token indices in a range, following names to the lists they are assigned. */
function requirementStrings(module: PyModule, range: PyRange, depth: number, visited: Set<string>): number[] {
  const t = module.tokens;
  const out: number[] = [];
  for (let i = range.lo; i < range.hi; i++) {
    const token = t[i]!;
    if (isString(token)) out.push(i);
    else if (
      token.kind === "name" &&
      depth < 4 &&
      !isOp(t[i - 1], ".") &&
      !isOp(t[i + 1], "(") &&
      !visited.has(token.value)
    ) {
      if (isName(t[i + 1]) || isOp(t[i + 1], "=")) continue;
      const assignment = module.resolve(token.value, token.start);
      if (!assignment) continue;
      visited.add(token.value);
      out.push(...requirementStrings(module, assignment.value, depth + 1, visited));
    }
  }
  return out;
}
