/**
 * Static string values of Python expressions, for URLs: literals (f-strings
 * included), `+` and `%` concatenation, `.format`, `"/".join`, `urljoin`,
 * `os.getenv` fallbacks and constants followed through assignments. Parts
 * that cannot be known become HOLE characters.
 */
import { HOLE } from "../../core/urls.js";
import { chainValue } from "./config-values.js";
import { envReadOf } from "./env-reads.js";
import { argumentsAt, bindArguments, type Expr, splitOn, topLevelOperators } from "./expr-ranges.js";
import { entryValue, helperOf, memberValue, type PyLink, resultAttributeValue } from "./members.js";
import type { PyDef, PyModule } from "./module.js";
import { passedValue } from "./passed-arguments.js";
import type { PySources } from "./repo-sources.js";
import type { PyRange } from "./syntax.js";
import { URL_UNPARSERS, urlJoin, urlUnparse } from "./url-calls.js";
import { fStringParts, isName, isOp, isString, type PyToken, stringValue, tokenizePython } from "./tokens.js";

const MAX_DEPTH = 10;
const URL_JOINERS = new Set(["urljoin", "parse.urljoin", "urllib.parse.urljoin"]);
const STRING_WRAPPERS = new Set(["str", "os.fspath"]);
/** Query-string builders: `urlencode({"run_id": id})` is `run_id=…`. */
const QUERY_ENCODERS = new Set(["urlencode", "parse.urlencode", "urllib.parse.urlencode"]);
const KNOWN_CALLS = new Set([
  ...URL_JOINERS,
  ...URL_UNPARSERS.keys(),
  ...STRING_WRAPPERS,
  ...QUERY_ENCODERS,
  "getattr",
]);
/** String methods whose result stays readable (anything else makes the value unknown). */
const STRING_METHODS = new Set(["format", "rstrip", "lstrip", "strip", "join"]);

export class PyValues {
  /** Assignment values (by start token index in the file) that evaluations passed through. */
  private trail: Set<number> | undefined;

  /**
   * `link` follows a name this module imports into the module it comes from;
   * without it, values stay within the file. `sources` reads the
   * repository's env files and config documents.
   */
  constructor(
    readonly module: PyModule,
    readonly link?: PyLink,
    readonly sources?: PySources,
  ) {}

  /** The value of a range of this module's tokens, `depth` levels into an evaluation (for values followed from another module). */
  valueAt(range: PyRange, depth: number): string {
    return this.evaluate({ seq: this.module.seq, ...range }, depth);
  }

  /** The value of tokens[range] in the file; `consumed` collects the assignment values it follows. */
  stringOf(range: PyRange, consumed?: Set<number>): string {
    this.trail = consumed;
    try {
      return this.evaluate({ seq: this.module.seq, ...range }, 0);
    } finally {
      this.trail = undefined;
    }
  }

  /** The value when it is fully known. */
  staticString(range: PyRange): string | undefined {
    const value = this.stringOf(range);
    return value.includes(HOLE) ? undefined : value;
  }

  /** Keys of a dict display, a `dict(k=...)` call or a name bound to one. */
  dictKeys(range: PyRange, depth = 0): string[] {
    if (depth > MAX_DEPTH) return [];
    const m = this.module;
    const t = m.tokens;
    const { lo, hi } = range;
    if (isOp(t[lo], "{") && m.partner(lo) === hi - 1) {
      return m
        .splitTopLevel(lo + 1, hi - 1)
        .map((item) => {
          const colon = m.findTopLevel(item.lo, item.hi, (tok) => isOp(tok, ":"));
          return colon > item.lo ? this.staticString({ lo: item.lo, hi: colon }) : undefined;
        })
        .filter((k): k is string => k !== undefined);
    }
    if (isName(t[lo], "dict") && isOp(t[lo + 1], "(") && m.partner(lo + 1) === hi - 1) {
      return [...m.callArguments(lo + 1).keyword.keys()];
    }
    const key = this.keyOf(t, lo, hi);
    const assignment = key ? m.resolve(key, t[lo]!.start) : undefined;
    return assignment ? this.dictKeys(assignment.value, depth + 1) : [];
  }

  /** The value a dict display holds under a string key (`{"BASE_URL": …}["BASE_URL"]`). */
  dictEntry(range: PyRange, key: string, depth: number): string {
    const m = this.module;
    const { lo, hi } = range;
    if (depth > MAX_DEPTH || !isOp(m.tokens[lo], "{") || m.partner(lo) !== hi - 1) return HOLE;
    for (const item of m.splitTopLevel(lo + 1, hi - 1)) {
      const colon = m.findTopLevel(item.lo, item.hi, (tok) => isOp(tok, ":"));
      if (colon > item.lo && this.staticString({ lo: item.lo, hi: colon }) === key)
        return this.valueAt({ lo: colon + 1, hi: item.hi }, depth + 1);
    }
    return HOLE;
  }

  private evaluate(e: Expr, depth: number): string {
    if (depth > MAX_DEPTH || e.hi <= e.lo) return HOLE;
    const t = e.seq.tokens;
    let { lo } = e;
    while (isName(t[lo], "await") && lo < e.hi) lo++;
    if (lo !== e.lo) e = { ...e, lo };
    if (e.hi - e.lo === 1) return this.term(e, depth);
    const operators = topLevelOperators(e);
    if (operators.size === 0) return this.term(e, depth);
    // `a if cond else b`: the first branch, or the second when the first is unknown.
    const cond = operators.has("if") ? splitOn(e, (tok) => isName(tok, "if")) : [];
    if (cond.length > 1) {
      const first = this.evaluate(cond[0]!, depth);
      const other = splitOn({ ...e, lo: cond[1]!.lo }, (tok) => isName(tok, "else"))[1];
      return isUnknown(first) && other ? this.evaluate(other, depth) : first;
    }
    // `os.getenv("X") or "https://..."`: the first alternative that is known.
    const alternatives = operators.has("or") ? splitOn(e, (tok) => isName(tok, "or")) : [];
    if (alternatives.length > 1) {
      for (const alternative of alternatives) {
        const value = this.evaluate(alternative, depth);
        if (!isUnknown(value)) return value;
      }
      return HOLE;
    }
    const terms = operators.has("+") ? splitOn(e, (tok) => isOp(tok, "+")) : [];
    if (terms.length > 1) return terms.map((term) => this.evaluate(term, depth)).join("");
    const formatted = operators.has("%") ? splitOn(e, (tok) => isOp(tok, "%")) : [];
    if (formatted.length === 2) return this.percentFormat(formatted[0]!, formatted[1]!, depth);
    return this.term(e, depth);
  }

  /** A primary (literal, name, call, parenthesised expression) followed by string-method trailers. */
  private term(e: Expr, depth: number): string {
    const t = e.seq.tokens;
    const partner = (i: number): number => e.seq.partner[i] ?? -1;
    let i = e.lo;
    let value: string;
    // `CONFIG["comfy"]["base_url"]` from a loaded document, `os.environ["X"]`.
    const chained = t[i]?.kind === "name" ? chainValue(this, { ...e, lo: i }, depth) : undefined;
    if (isString(t[i])) {
      value = "";
      while (i < e.hi && isString(t[i])) value += this.literal(e, i++, depth);
    } else if (isOp(t[i], "(")) {
      const close = partner(i);
      if (close < 0 || close >= e.hi) return HOLE;
      const inner = { ...e, lo: i + 1, hi: close };
      if (splitOn(inner, (tok) => isOp(tok, ",")).length > 1) return HOLE;
      value = this.evaluate(inner, depth + 1);
      i = close + 1;
    } else if (chained) {
      value = chained.value;
      i = chained.end;
    } else if (t[i]?.kind === "name") {
      let j = i + 1;
      while (isOp(t[j], ".") && t[j + 1]?.kind === "name" && j + 1 < e.hi) j += 2;
      const dotted = t
        .slice(i, j)
        .filter((tok) => tok.kind === "name")
        .map((tok) => tok.value)
        .join(".");
      const isCall = isOp(t[j], "(") && partner(j) > 0 && partner(j) < e.hi;
      const method = t[j - 1]!.value;
      if (isCall && j - i >= 3 && STRING_METHODS.has(method) && !KNOWN_CALLS.has(dotted)) {
        // `BASE.rstrip("/")`: the name's value, then the method as a trailer.
        value = this.name(e, i, j - 2, depth);
        i = j - 2;
      } else if (isCall && isOp(t[partner(j) + 1], ".") && !isOp(t[partner(j) + 3], "(") && partner(j) + 3 <= e.hi) {
        // `get_settings().comfy_base`: an attribute of what the call returns.
        const attributes: string[] = [];
        for (
          i = partner(j) + 1;
          isOp(t[i], ".") && t[i + 1]?.kind === "name" && !isOp(t[i + 2], "(") && i + 1 < e.hi;
          i += 2
        )
          attributes.push(t[i + 1]!.value);
        value = resultAttributeValue(this, dotted.split("."), attributes, depth + 1);
      } else if (isCall) {
        value = this.call(e, dotted, j, depth);
        i = partner(j) + 1;
      } else if (isOp(t[j], "[") && partner(j) === j + 2 && isString(t[j + 1]) && j + 2 < e.hi) {
        // `settings.COMFY["BASE_URL"]`: a dict's entry under a literal key.
        const names = dottedNames(t.slice(i, j));
        const key = this.literal(e, j + 1, depth + 1);
        value = names ? entryValue(this, names, key, t[i]!.start, depth + 1) : HOLE;
        i = j + 3;
      } else {
        value = this.name(e, i, j, depth);
        i = j;
      }
    } else {
      return HOLE;
    }
    // Trailers: string methods that keep the URL readable.
    while (i < e.hi) {
      if (!isOp(t[i], ".") || t[i + 1]?.kind !== "name" || !isOp(t[i + 2], "(")) return HOLE;
      const method = t[i + 1]!.value;
      const open = i + 2;
      const close = partner(open);
      if (close < 0 || close >= e.hi) return HOLE;
      value = this.stringMethod(e, value, method, open, depth);
      i = close + 1;
    }
    return value;
  }

  private literal(e: Expr, index: number, depth: number): string {
    const seq = e.seq;
    const token = seq.tokens[index]!;
    if (!isString(token)) return HOLE;
    if (!token.prefix.includes("f") && !token.prefix.includes("t")) return stringValue(seq.text, token);
    return fStringParts(seq.text, token)
      .map((part) => {
        if (part.kind === "text") return part.text;
        const sub = tokenizePython(seq.text, part.start, part.end);
        const hi = sub.tokens[sub.tokens.length - 1]?.kind === "newline" ? sub.tokens.length - 1 : sub.tokens.length;
        return this.evaluate({ ...e, seq: sub, lo: 0, hi }, depth + 1);
      })
      .join("");
  }

  private name(e: Expr, lo: number, hi: number, depth: number): string {
    const t = e.seq.tokens;
    const bound = hi - lo === 1 ? e.env?.get(t[lo]!.value) : undefined;
    if (bound) return this.evaluate(bound, depth + 1);
    const key = this.keyOf(t, lo, hi);
    const assignment = key ? this.module.resolve(key, t[lo]!.start) : undefined;
    if (!assignment) {
      // An imported name, a settings object's field, a dataclass default, another module's constant.
      if (depth > MAX_DEPTH) return HOLE;
      const segments = t
        .slice(lo, hi)
        .filter((tok) => tok.kind === "name")
        .map((tok) => tok.value);
      const member = memberValue(this, segments, t[lo]!.start, depth + 1);
      const passed =
        isUnknown(member) && hi - lo === 1 ? passedValue(this, segments[0]!, t[lo]!.start, depth) : undefined;
      return passed ?? member;
    }
    this.trail?.add(assignment.value.lo);
    const inHelper = e.env && assignment.scope === e.envScope ? { env: e.env, envScope: e.envScope } : {};
    return this.evaluate({ seq: this.module.seq, ...assignment.value, ...inHelper }, depth + 1);
  }

  /** "NAME" or "self.NAME" for a plain name or an attribute of self/cls. */
  private keyOf(t: readonly PyToken[], lo: number, hi: number): string | undefined {
    if (hi - lo === 1 && t[lo]?.kind === "name") return t[lo]!.value;
    if (hi - lo === 3 && (isName(t[lo], "self") || isName(t[lo], "cls")) && t[lo + 2]?.kind === "name")
      return `self.${t[lo + 2]!.value}`;
    return undefined;
  }

  private call(e: Expr, callee: string, open: number, depth: number): string {
    const args = argumentsAt(e, open);
    const read = envReadOf(this.module, e, callee, open);
    if (read) {
      // The code's fallback, else what the repository's env files set.
      const fallback = read.fallback ? this.evaluate(read.fallback, depth + 1) : HOLE;
      const name = read.name && !isUnknown(fallback) ? undefined : read.name && this.evaluate(read.name, depth + 1);
      return name && !name.includes(HOLE) ? (this.sources?.env?.(name) ?? fallback) : fallback;
    }
    if (STRING_WRAPPERS.has(callee) && args.positional[0]) return this.evaluate(args.positional[0], depth + 1);
    if (URL_JOINERS.has(callee) && args.positional[0] && args.positional[1]) {
      return urlJoin(this.evaluate(args.positional[0], depth + 1), this.evaluate(args.positional[1], depth + 1));
    }
    const tuple = args.positional[0];
    if (URL_UNPARSERS.has(callee) && tuple && isOp(e.seq.tokens[tuple.lo], "(")) {
      const parts = argumentsAt(tuple, tuple.lo).positional.map((part) => this.evaluate(part, depth + 1));
      return urlUnparse(callee, parts);
    }
    // `getattr(settings, "COMFY_BASE", "https://…")`: the attribute where it is known, else the default.
    const [owner, attribute, fallback] = args.positional;
    if (callee === "getattr" && owner && attribute && isString(e.seq.tokens[attribute.lo]) && depth <= MAX_DEPTH) {
      const segments = dottedNames(e.seq.tokens.slice(owner.lo, owner.hi));
      const name = this.evaluate(attribute, depth + 1);
      const known =
        segments && !name.includes(HOLE)
          ? memberValue(this, [...segments, name], e.seq.tokens[owner.lo]!.start, depth + 1)
          : HOLE;
      return !isUnknown(known) || !fallback ? known : this.evaluate(fallback, depth + 1);
    }
    if (QUERY_ENCODERS.has(callee) && args.positional[0]) {
      const keys = this.dictKeys(args.positional[0], depth + 1);
      return keys.length > 0 ? keys.map((key) => `${key}=${HOLE}`).join("&") : HOLE;
    }
    // A helper of this module that builds the URL from its arguments (`self._url("/run")`).
    if (depth > MAX_DEPTH) return HOLE;
    const helper = helperOf(this.module, callee.split("."), e.seq.tokens[open]!.start);
    if (!helper) return HOLE;
    const env = bindArguments(helper.def, helper.method, args);
    for (const value of this.module.returnValues(helper.def.scope)) {
      const result = this.evaluate({ seq: this.module.seq, ...value, env, envScope: helper.def.scope }, depth + 1);
      if (!isUnknown(result)) return result;
    }
    return HOLE;
  }

  private stringMethod(e: Expr, value: string, method: string, open: number, depth: number): string {
    const args = argumentsAt(e, open);
    const arg = (n: number): string | undefined => {
      const range = args.positional[n];
      if (!range) return undefined;
      const v = this.evaluate(range, depth + 1);
      return v.includes(HOLE) ? undefined : v;
    };
    switch (method) {
      case "format":
        return this.format(value, args, depth);
      case "rstrip":
      case "lstrip":
      case "strip": {
        const chars = arg(0) ?? " \t\n\r";
        const set = new Set(chars);
        let start = 0;
        let end = value.length;
        if (method !== "rstrip") while (start < end && set.has(value[start]!)) start++;
        if (method !== "lstrip") while (end > start && set.has(value[end - 1]!)) end--;
        return value.slice(start, end);
      }
      case "join": {
        const list = args.positional[0];
        const t = e.seq.tokens;
        if (
          !list ||
          !(isOp(t[list.lo], "[") || isOp(t[list.lo], "(")) ||
          (e.seq.partner[list.lo] ?? -1) !== list.hi - 1
        )
          return HOLE;
        const items = splitOn({ ...e, lo: list.lo + 1, hi: list.hi - 1 }, (tok) => isOp(tok, ","));
        return items
          .filter((x) => x.hi > x.lo)
          .map((x) => this.evaluate(x, depth + 1))
          .join(value);
      }
      default:
        return HOLE;
    }
  }

  private format(template: string, args: { positional: Expr[]; keyword: Map<string, Expr> }, depth: number): string {
    let auto = 0;
    return template.replace(/\{\{|\}\}|\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}/g, (all, field: string | undefined) => {
      if (all === "{{") return "{";
      if (all === "}}") return "}";
      const name = (field ?? "").trim();
      const range =
        name === ""
          ? args.positional[auto++]
          : /^\d+$/.test(name)
            ? args.positional[Number(name)]
            : args.keyword.get(name);
      return range ? this.evaluate(range, depth + 1) : HOLE;
    });
  }

  private percentFormat(left: Expr, right: Expr, depth: number): string {
    const template = this.evaluate(left, depth);
    const directives = template.match(/%(\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrif]/g) ?? [];
    const single =
      directives.length === 1 && !isOp(right.seq.tokens[right.lo], "(") && !isOp(right.seq.tokens[right.lo], "{");
    return template.replace(/%%|%(\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrif]/g, (all) => {
      if (all === "%%") return "%";
      return single ? this.evaluate(right, depth + 1) : HOLE;
    });
  }

  /**
   * The value of a range inside a helper (`def`), as the call of it at `open`
   * in this module sees it: the helper's parameters hold the call's arguments.
   */
  stringInCall(range: PyRange, def: PyDef, method: boolean, open: number): string {
    const whole: Expr = { seq: this.module.seq, lo: 0, hi: this.module.tokens.length };
    const env = bindArguments(def, method, argumentsAt(whole, open));
    return this.evaluate({ seq: this.module.seq, ...range, env, envScope: def.scope }, 0);
  }
}

function isUnknown(value: string): boolean {
  return value.replaceAll(HOLE, "").trim() === "";
}

/** The names of a dotted name's tokens (`settings`, `app.config`); undefined for any other expression. */
function dottedNames(tokens: readonly PyToken[]): string[] | undefined {
  const names: string[] = [];
  for (const [i, tok] of tokens.entries()) {
    if (i % 2 === 0 && tok.kind === "name") names.push(tok.value);
    else if (i % 2 === 0 || !isOp(tok, ".")) return undefined;
  }
  return names.length > 0 && tokens.length % 2 === 1 ? names : undefined;
}
