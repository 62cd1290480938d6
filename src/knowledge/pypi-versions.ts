/**
 * PyPI version semantics for the `comfydeploy` package: which side of the
 * V1/V2 line a requirement specifier lands on. Understands PEP 440
 * specifiers (`==`, `!=`, `<`, `<=`, `>`, `>=`, `~=`, `===`, `==X.*`) and
 * Poetry's extra forms (`^X`, `~X`, a bare version, `*`, `||` alternatives).
 */
import { PYTHON_SDK } from "./migration.js";

export type PypiVerdict = "v1" | "v2" | "review";

export interface PypiJudgement {
  verdict: PypiVerdict;
  reason: string;
}

export interface Pep440Version {
  epoch: number;
  release: number[];
  pre?: { label: "a" | "b" | "rc"; number: number };
  post?: number;
  dev?: number;
  local?: string;
}

// The version pattern of PEP 440 appendix B, accepting the non-normalised spellings pip accepts.
const VERSION_PATTERN =
  /^\s*v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(alpha|beta|preview|pre|a|b|c|rc)[-_.]?(\d+)?)?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d+)?)?(?:[-_.]?(dev)[-_.]?(\d+)?)?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$/i;

export function parsePep440(text: string): Pep440Version | undefined {
  const m = VERSION_PATTERN.exec(text);
  if (!m) return undefined;
  const version: Pep440Version = { epoch: m[1] ? Number(m[1]) : 0, release: m[2]!.split(".").map(Number) };
  if (m[3]) {
    const label = m[3].toLowerCase();
    const normal = label === "alpha" ? "a" : label === "beta" ? "b" : label === "a" || label === "b" ? label : "rc";
    version.pre = { label: normal, number: m[4] ? Number(m[4]) : 0 };
  }
  if (m[5] !== undefined) version.post = Number(m[5]);
  else if (m[6]) version.post = m[7] ? Number(m[7]) : 0;
  if (m[8]) version.dev = m[9] ? Number(m[9]) : 0;
  if (m[10]) version.local = m[10].toLowerCase();
  return version;
}

const PRE_RANK = { a: 0, b: 1, rc: 2 } as const;

/** PEP 440 ordering (local labels ignored): dev < pre < final < post. */
export function comparePep440(a: Pep440Version, b: Pep440Version): number {
  if (a.epoch !== b.epoch) return a.epoch - b.epoch;
  const length = Math.max(a.release.length, b.release.length);
  for (let i = 0; i < length; i++) {
    const d = (a.release[i] ?? 0) - (b.release[i] ?? 0);
    if (d !== 0) return d;
  }
  const phase = (v: Pep440Version): [number, number] => {
    // A dev release of the final version sorts before its pre-releases.
    if (v.pre) return [PRE_RANK[v.pre.label], v.pre.number];
    if (v.post === undefined && v.dev !== undefined) return [-1, 0];
    return [3, 0];
  };
  const [pa, pna] = phase(a);
  const [pb, pnb] = phase(b);
  if (pa !== pb) return pa - pb;
  if (pna !== pnb) return pna - pnb;
  const post = (a.post ?? -1) - (b.post ?? -1);
  if (post !== 0) return post;
  return (a.dev ?? Number.POSITIVE_INFINITY) - (b.dev ?? Number.POSITIVE_INFINITY) || 0;
}

interface Bound {
  version: Pep440Version;
  inclusive: boolean;
}

/** The versions a set of clauses allows, as one interval (`!=` only removes points, so it is ignored). */
interface Interval {
  lo?: Bound;
  hi?: Bound;
}

const THRESHOLD = parsePep440(PYTHON_SDK.firstV2Version)!;
const LINE = `${PYTHON_SDK.firstV2Version}`;

/** Judges one exact version, as found in a lockfile. */
export function judgePypiVersion(version: string): PypiJudgement {
  const parsed = parsePep440(version);
  if (!parsed) return { verdict: "review", reason: `version ${version} could not be read` };
  return comparePep440(parsed, THRESHOLD) < 0
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
    return { verdict: "review", reason: "unpinned: any release may be installed, V1 (below 0.6.0) or V2" };
  }
  const verdicts = new Set(intervals.map(sideOf));
  if (verdicts.size === 1 && verdicts.has("v1")) return { verdict: "v1", reason: `"${spec}" allows only releases below ${LINE}` };
  if (verdicts.size === 1 && verdicts.has("v2")) return { verdict: "v2", reason: `"${spec}" allows only ${LINE} or later` };
  return { verdict: "review", reason: `"${spec}" allows releases below ${LINE} (V1) and from ${LINE} on (V2)` };
}

function sideOf(interval: Interval): PypiVerdict {
  const { lo, hi } = interval;
  if (lo && comparePep440(lo.version, THRESHOLD) >= 0) return "v2";
  if (hi) {
    const c = comparePep440(hi.version, THRESHOLD);
    if (c < 0 || (c === 0 && !hi.inclusive)) return "v1";
  }
  return "review";
}

const CLAUSE = /^(===|~=|==|!=|<=|>=|<|>|\^|~|=)?\s*(\S+)$/;

/** The interval an AND-list of clauses allows (comma- or space-separated). */
function intervalOf(alternative: string): Interval | "empty" | "unreadable" {
  const text = alternative.trim();
  if (text === "" || text === "*") return {};
  // Join operators to their versions (">= 0.4" → ">=0.4"), then split clauses.
  const clauses = text
    .replace(/(===|~=|==|!=|<=|>=|<|>|\^|~|=)\s+/g, "$1")
    .split(/[\s,]+/)
    .filter((c) => c !== "");
  let interval: Interval = {};
  for (const clause of clauses) {
    const m = CLAUSE.exec(clause);
    if (!m) return "unreadable";
    const op = m[1] ?? "==";
    const target = m[2]!;
    if (target === "*") {
      if (op === "==" || op === "=") continue;
      return "unreadable";
    }
    const clauseInterval = clauseToInterval(op, target);
    if (clauseInterval === "unreadable") return "unreadable";
    if (clauseInterval === "any") continue;
    interval = intersect(interval, clauseInterval);
  }
  return isEmpty(interval) ? "empty" : interval;
}

function clauseToInterval(op: string, target: string): Interval | "any" | "unreadable" {
  const wildcard = target.endsWith(".*");
  const version = parsePep440(wildcard ? target.slice(0, -2) : target);
  if (!version) return "unreadable";
  const at = (inclusive: boolean): Bound => ({ version, inclusive });
  switch (op) {
    case "==":
    case "=":
    case "===":
      return wildcard ? { lo: at(true), hi: { version: bump(version.release, version.release.length - 1), inclusive: false } } : { lo: at(true), hi: at(true) };
    case "!=":
      return "any";
    case ">=":
      return { lo: at(true) };
    case ">":
      return { lo: at(false) };
    case "<=":
      return { hi: at(true) };
    case "<":
      return { hi: at(false) };
    case "~=": {
      if (version.release.length < 2) return "unreadable";
      return { lo: at(true), hi: { version: bump(version.release, version.release.length - 2), inclusive: false } };
    }
    case "^": {
      // Poetry caret: the leftmost non-zero component stays fixed.
      const release = version.release;
      let index = release.findIndex((n) => n !== 0);
      if (index < 0) index = release.length - 1;
      return { lo: at(true), hi: { version: bump(release, index), inclusive: false } };
    }
    case "~": {
      // Poetry tilde: `~1.2.3` and `~1.2` stay below 1.3, `~1` below 2.
      const index = version.release.length >= 2 ? 1 : 0;
      return { lo: at(true), hi: { version: bump(version.release, index), inclusive: false } };
    }
    default:
      return "unreadable";
  }
}

/** The release with component `index` incremented and everything after it dropped, as a dev-less lower edge. */
function bump(release: readonly number[], index: number): Pep440Version {
  const next = release.slice(0, index + 1);
  next[index] = (next[index] ?? 0) + 1;
  // `<1.0` must exclude 1.0's pre-releases too; dev0 is the smallest version of that release.
  return { epoch: 0, release: next, dev: 0 };
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
  const c = comparePep440(x.version, y.version) * sign;
  if (c !== 0) return c > 0 ? x : y;
  return x.inclusive ? y : x;
}

function isEmpty({ lo, hi }: Interval): boolean {
  if (!lo || !hi) return false;
  const c = comparePep440(lo.version, hi.version);
  return c > 0 || (c === 0 && !(lo.inclusive && hi.inclusive));
}
