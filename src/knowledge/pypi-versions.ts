/**
 * PyPI version semantics for the `comfydeploy` package: which side of the
 * V1/V2 line a requirement specifier lands on. PEP 440 versions, their order
 * and specifier clauses (`==`, `!=`, `<`, `<=`, `>`, `>=`, `~=`, `===`,
 * `==X.*`) come from @renovatebot/pep440; Poetry's extra forms (`^X`, `~X`,
 * a bare version, `*`, `||` alternatives) are rewritten into PEP 440 clauses
 * first. What is ours is the question asked: below, above or across 0.6.0.
 */
import { compare, explain, valid } from "@renovatebot/pep440";
import { parse as parseSpecifier } from "@renovatebot/pep440/lib/specifier.js";
import { PYTHON_SDK } from "./migration.js";

export type PypiVerdict = "v1" | "v2" | "review";

export interface PypiJudgement {
  verdict: PypiVerdict;
  reason: string;
}

/** The version in PEP 440's normal spelling rules (pip's leniency included), or undefined when it is not one. */
export function validPep440(text: string): string | undefined {
  return valid(text.trim()) ?? undefined;
}

/** PEP 440 ordering of two valid versions: negative, zero or positive. */
export function comparePep440(a: string, b: string): number {
  return compare(a, b);
}

interface Bound {
  version: string;
  inclusive: boolean;
}

/** The versions a set of clauses allows, as one interval (`!=` only removes points, so it is ignored). */
interface Interval {
  lo?: Bound;
  hi?: Bound;
}

const THRESHOLD = PYTHON_SDK.firstV2Version;
const LINE = `${PYTHON_SDK.firstV2Version}`;

/** Judges one exact version, as found in a lockfile. */
export function judgePypiVersion(version: string): PypiJudgement {
  const parsed = validPep440(version);
  if (!parsed) return { verdict: "review", reason: `version ${version} could not be read` };
  return compare(parsed, THRESHOLD) < 0
    ? { verdict: "v1", reason: `${version} is below ${LINE}, the first release for V2` }
    : { verdict: "v2", reason: `${version} is ${LINE} or later` };
}

/**
 * Judges a requirement specifier: v1 when every allowed version is below
 * 0.6.0, v2 when every allowed version is 0.6.0 or later, review when it
 * allows both, allows nothing, is unpinned or cannot be read.
 */
export function judgePypiSpec(spec: string): PypiJudgement {
  const alternatives = spec
    .split(/\|\|?/)
    .map((s) => s.trim())
    .filter((s, _i, all) => s !== "" || all.length === 1);
  const intervals: Interval[] = [];
  for (const alternative of alternatives) {
    const interval = intervalOf(alternative);
    if (interval === "unreadable") return { verdict: "review", reason: `the specifier "${spec}" could not be read` };
    if (interval === "empty") continue;
    intervals.push(interval);
  }
  if (intervals.length === 0) return { verdict: "review", reason: `the specifier "${spec}" allows no version` };
  if (intervals.some((i) => !i.lo && !i.hi)) {
    return { verdict: "review", reason: `unpinned: any release may be installed, V1 (below ${LINE}) or V2` };
  }
  const verdicts = new Set(intervals.map(sideOf));
  if (verdicts.size === 1 && verdicts.has("v1"))
    return { verdict: "v1", reason: `"${spec}" allows only releases below ${LINE}` };
  if (verdicts.size === 1 && verdicts.has("v2"))
    return { verdict: "v2", reason: `"${spec}" allows only ${LINE} or later` };
  return { verdict: "review", reason: `"${spec}" allows releases below ${LINE} (V1) and from ${LINE} on (V2)` };
}

function sideOf(interval: Interval): PypiVerdict {
  const { lo, hi } = interval;
  if (lo && compare(lo.version, THRESHOLD) >= 0) return "v2";
  if (hi) {
    const c = compare(hi.version, THRESHOLD);
    if (c < 0 || (c === 0 && !hi.inclusive)) return "v1";
  }
  return "review";
}

/** The interval an AND-list of clauses allows (comma- or space-separated, Poetry forms included). */
function intervalOf(alternative: string): Interval | "empty" | "unreadable" {
  const text = alternative.trim();
  if (text === "" || text === "*") return {};
  // Join operators to their versions (">= 0.4" → ">=0.4"), then split clauses.
  const clauses = text
    .replace(/(===|~=|==|!=|<=|>=|<|>|\^|~|=)\s+/g, "$1")
    .split(/[\s,]+/)
    .filter((c) => c !== "");
  const pep440: string[] = [];
  for (const clause of clauses) {
    const translated = poetryToPep440(clause);
    if (translated === undefined) return "unreadable";
    pep440.push(...translated);
  }
  if (pep440.length === 0) return {};
  const constraints = parseSpecifier(pep440.join(","));
  if (!constraints) return "unreadable";
  let interval: Interval = {};
  for (const constraint of constraints) {
    const clauseInterval = constraintInterval(constraint.operator, constraint.version, constraint.prefix === ".*");
    if (clauseInterval === "unreadable") return "unreadable";
    if (clauseInterval === "any") continue;
    interval = intersect(interval, clauseInterval);
  }
  return isEmpty(interval) ? "empty" : interval;
}

/** Poetry's forms as PEP 440 clauses; PEP 440 clauses pass through; undefined when unreadable. */
function poetryToPep440(clause: string): string[] | undefined {
  const m = /^(\^|~(?!=)|=(?!=))?(.*)$/.exec(clause)!;
  const op = m[1];
  const target = m[2]!;
  if (target === "*" || target === "==*") return op === undefined || op === "=" ? [] : undefined;
  if (op === undefined) return /^(===|~=|==|!=|<=|>=|<|>)/.test(target) ? [target] : [`==${target}`];
  if (op === "=") return [`==${target}`];
  const parsed = explain(target);
  if (!parsed) return undefined;
  const release = parsed.release;
  // Poetry caret: the leftmost non-zero component stays fixed. Tilde: `~1.2.3` and `~1.2` stay below 1.3, `~1` below 2.
  let index = op === "^" ? release.findIndex((n) => n !== 0) : release.length >= 2 ? 1 : 0;
  if (index < 0) index = release.length - 1;
  return [`>=${target}`, `<${bump(parsed.epoch, release, index)}`];
}

function constraintInterval(
  op: string,
  version: string | undefined,
  wildcard: boolean,
): Interval | "any" | "unreadable" {
  if (op === "!=") return "any";
  if (version === undefined) return "unreadable"; // `===` with a non-PEP 440 string
  const at = (inclusive: boolean): Bound => ({ version, inclusive });
  const release = explain(version)!.release;
  const epoch = explain(version)!.epoch;
  switch (op) {
    case "==":
    case "===":
      return wildcard
        ? { lo: at(true), hi: { version: bump(epoch, release, release.length - 1), inclusive: false } }
        : { lo: at(true), hi: at(true) };
    case ">=":
      return { lo: at(true) };
    case ">":
      return { lo: at(false) };
    case "<=":
      return { hi: at(true) };
    case "<":
      return { hi: at(false) };
    case "~=":
      return { lo: at(true), hi: { version: bump(epoch, release, release.length - 2), inclusive: false } };
    default:
      return "unreadable";
  }
}

/**
 * The release with component `index` incremented and everything after it
 * dropped, as its dev0: `<1.0` must exclude 1.0's pre-releases too, and dev0
 * is the smallest version of a release.
 */
function bump(epoch: number, release: readonly number[], index: number): string {
  const next = release.slice(0, index + 1);
  next[index] = (next[index] ?? 0) + 1;
  return `${epoch ? `${epoch}!` : ""}${next.join(".")}.dev0`;
}

function intersect(a: Interval, b: Interval): Interval {
  const out: Interval = {};
  const lo = pick(a.lo, b.lo, 1);
  const hi = pick(a.hi, b.hi, -1);
  if (lo) out.lo = lo;
  if (hi) out.hi = hi;
  return out;
}

/** The tighter of two bounds: the larger lower bound (sign 1) or the smaller upper bound (sign -1). */
function pick(x: Bound | undefined, y: Bound | undefined, sign: 1 | -1): Bound | undefined {
  if (!x) return y;
  if (!y) return x;
  const c = compare(x.version, y.version) * sign;
  if (c !== 0) return c > 0 ? x : y;
  return x.inclusive ? y : x;
}

function isEmpty({ lo, hi }: Interval): boolean {
  if (!lo || !hi) return false;
  const c = compare(lo.version, hi.version);
  return c > 0 || (c === 0 && !(lo.inclusive && hi.inclusive));
}
