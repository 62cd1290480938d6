/**
 * Python source as the v2-endpoints fixer needs it: which string literal a
 * finding is in (comments and docstrings are left alone), the statement a
 * marker goes above, the call a URL is passed to, the V1-only fields of its
 * JSON body, and the one `params={"run_id": rid}` shape simple enough to
 * rewrite (`requests.get(f"{BASE}/run", params={"run_id": rid})` ->
 * `requests.get(f"{BASE}/run/{rid}")`).
 */
import { LineIndex } from "../../src/core/location.js";
import { isOp, isString, type PyStringToken, type PyToken, type PyTokens, stringValue, tokenizePython } from "../../src/lang/python/tokens.js";
import { findRunPath, RUN_ID_KEY, type TextEdit, v1OnlyFields } from "./urls.js";
import type { Segment } from "./segments.js";

interface Call {
  open: number;
  close: number;
}

interface Argument {
  lo: number;
  hi: number;
  /** The keyword's name token index, for `name=value` arguments. */
  keyword?: number;
}

/** Tokens a run id expression may consist of to be moved into an f-string field. */
const PLAIN_OPS = new Set([".", "(", ")", "[", "]"]);

export class PythonSource {
  private readonly seq: PyTokens;
  private readonly tokens: readonly PyToken[];
  private readonly lines: LineIndex;

  constructor(private readonly text: string) {
    this.seq = tokenizePython(text);
    this.tokens = this.seq.tokens;
    this.lines = new LineIndex(text);
  }

  /** True when a token (not a comment) starts at the offset: the URL is code, built somewhere else. */
  isCodeAt(offset: number): boolean {
    return this.tokens[this.indexFrom(offset)]?.start === offset;
  }

  /**
   * The part of a code string literal from `from` to the end of its body,
   * looking at the string tokens a finding's range [from, to) covers. With
   * `needsRunPath`, the first one whose text holds the V1 run path.
   */
  segmentIn(from: number, to: number, needsRunPath: boolean): (Segment & { index: number }) | undefined {
    for (let index = this.indexFrom(from); index < this.tokens.length; index++) {
      const token = this.tokens[index]!;
      if (token.start >= Math.max(to, from + 1)) break;
      if (!isString(token) || this.isDocstring(index)) continue;
      const start = Math.max(from, token.bodyStart);
      if (start > token.bodyEnd) continue;
      const segment = { start, end: token.bodyEnd, quote: token.quote, index };
      if (!needsRunPath || findRunPath(this.text.slice(segment.start, segment.end))) return segment;
    }
    return undefined;
  }

  /** 1-based line of the statement (logical line) holding an offset: a marker above it stays outside strings. */
  statementLine(offset: number): number {
    let index = this.indexFrom(offset);
    while (index > 0 && this.tokens[index - 1]!.kind !== "newline") index--;
    const first = this.tokens[index];
    return this.lines.position(first && first.start <= offset ? first.start : offset).line;
  }

  /** What follows a string token in its expression: the next token's value. */
  nextOp(index: number): string | undefined {
    const next = this.tokens[index + 1];
    return next?.kind === "op" ? next.value : undefined;
  }

  /** V1-only create fields in the JSON body of the call a string is passed to. */
  bodyFields(index: number): string[] {
    const call = this.enclosingCall(index);
    if (!call) return [];
    const keys = this.dictKeys(call.open, call.close);
    for (const arg of this.arguments(call)) {
      const name = arg.keyword !== undefined ? this.tokens[arg.keyword]!.value : undefined;
      const value = arg.keyword !== undefined ? arg.keyword + 2 : arg.lo;
      if ((name === "json" || name === "data") && arg.hi - value === 1 && this.tokens[value]!.kind === "name") {
        const dict = this.assignedDict(this.tokens[value]!.value, call.open);
        if (dict) keys.push(...this.dictKeys(dict.open, dict.close));
      }
    }
    return v1OnlyFields(keys);
  }

  /**
   * `get(<url ending in /run>, params={"run_id": rid})` -> `get(f"<url>/{rid}")`:
   * only for a URL that is one string literal (an f-string, or a plain string
   * without braces) and a params dict holding run_id alone, with a plain name
   * or attribute as its value.
   */
  paramsRunIdEdits(index: number, segment: Segment): TextEdit[] | undefined {
    const token = this.tokens[index] as PyStringToken;
    if (token.prefix.includes("b")) return undefined;
    const call = this.enclosingCall(index);
    if (!call) return undefined;
    const args = this.arguments(call);
    const urlArg = args.find((a) => a.lo <= index && index < a.hi);
    if (!urlArg || urlArg.hi - (urlArg.keyword !== undefined ? urlArg.keyword + 2 : urlArg.lo) !== 1) return undefined;
    const params = args.find((a) => a.keyword !== undefined && this.tokens[a.keyword]!.value === "params");
    if (!params) return undefined;
    const value = this.singleRunIdValue(params);
    if (!value) return undefined;
    const formatted = token.prefix.includes("f");
    const body = this.text.slice(token.bodyStart, token.bodyEnd);
    if (!formatted && /[{}]/.test(body)) return undefined;
    const url = this.text.slice(segment.start, segment.end);
    const run = findRunPath(url);
    if (!run || run.queryStart !== undefined || url.length !== run.end + (run.trailingSlash ? 1 : 0)) return undefined;
    const comma = this.tokens[params.keyword! - 1];
    if (!comma || !isOp(comma, ",")) return undefined;
    const edits: TextEdit[] = [
      { start: segment.end, end: segment.end, text: `${run.trailingSlash ? "" : "/"}{${value}}` },
      { start: comma.start, end: this.tokens[params.hi - 1]!.end, text: "" },
    ];
    if (!formatted) edits.push({ start: token.start, end: token.start, text: "f" });
    return edits;
  }

  private singleRunIdValue(params: Argument): string | undefined {
    const lo = params.keyword! + 2;
    const open = this.tokens[lo];
    if (!isOp(open, "{") || this.seq.partner[lo] !== params.hi - 1) return undefined;
    const entries = this.splitTopLevel(lo + 1, params.hi - 1).filter((e) => e.hi > e.lo);
    if (entries.length !== 1) return undefined;
    const entry = entries[0]!;
    const key = this.tokens[entry.lo];
    if (!isString(key) || key.prefix.includes("f") || stringValue(this.text, key) !== RUN_ID_KEY || !isOp(this.tokens[entry.lo + 1], ":")) return undefined;
    const valueLo = entry.lo + 2;
    if (valueLo >= entry.hi) return undefined;
    for (let i = valueLo; i < entry.hi; i++) {
      const t = this.tokens[i]!;
      if (t.kind === "string" || (t.kind === "op" && !PLAIN_OPS.has(t.value))) return undefined;
    }
    return this.text.slice(this.tokens[valueLo]!.start, this.tokens[entry.hi - 1]!.end);
  }

  /** The innermost call whose parentheses hold a token. */
  private enclosingCall(index: number): Call | undefined {
    for (let i = index - 1; i >= 0; i--) {
      const token = this.tokens[i]!;
      const partner = this.seq.partner[i] ?? -1;
      if (isOp(token, "(") && partner > index) {
        const before = this.tokens[i - 1];
        const isCall = before && (before.kind === "name" || isOp(before, ")") || isOp(before, "]"));
        if (isCall) return { open: i, close: partner };
      }
      // Skip over closed bracket pairs before the token.
      if ((isOp(token, ")") || isOp(token, "]") || isOp(token, "}")) && partner >= 0 && partner < i) i = partner;
    }
    return undefined;
  }

  private arguments(call: Call): Argument[] {
    return this.splitTopLevel(call.open + 1, call.close)
      .filter((part) => part.hi > part.lo)
      .map((part) => {
        const first = this.tokens[part.lo]!;
        const isKeyword = first.kind === "name" && isOp(this.tokens[part.lo + 1], "=");
        return isKeyword ? { lo: part.lo, hi: part.hi, keyword: part.lo } : part;
      });
  }

  private splitTopLevel(lo: number, hi: number): Array<{ lo: number; hi: number }> {
    const parts: Array<{ lo: number; hi: number }> = [];
    let start = lo;
    for (let i = lo; i < hi; i++) {
      const partner = this.seq.partner[i] ?? -1;
      if (partner > i) {
        i = partner;
        continue;
      }
      if (isOp(this.tokens[i], ",")) {
        parts.push({ lo: start, hi: i });
        start = i + 1;
      }
    }
    parts.push({ lo: start, hi });
    return parts;
  }

  /** String keys of dict displays (`{"k": v}`) and keyword names of `dict(k=v)` calls in a token range. */
  private dictKeys(lo: number, hi: number): string[] {
    const keys: string[] = [];
    for (let i = lo; i < hi; i++) {
      const token = this.tokens[i]!;
      if (isString(token) && !token.prefix.includes("f") && isOp(this.tokens[i + 1], ":")) keys.push(stringValue(this.text, token));
      if (token.kind === "name" && token.value === "dict" && isOp(this.tokens[i + 1], "(")) {
        const close = this.seq.partner[i + 1] ?? -1;
        for (const arg of this.arguments({ open: i + 1, close })) if (arg.keyword !== undefined) keys.push(this.tokens[arg.keyword]!.value);
      }
    }
    return keys;
  }

  /** The dict display last assigned to a name before a call: `payload = {...}`. */
  private assignedDict(name: string, before: number): Call | undefined {
    for (let i = before - 1; i > 0; i--) {
      const token = this.tokens[i]!;
      if (token.kind === "name" && token.value === name && isOp(this.tokens[i + 1], "=") && isOp(this.tokens[i + 2], "{")) {
        const close = this.seq.partner[i + 2] ?? -1;
        return close > 0 ? { open: i + 2, close } : undefined;
      }
    }
    return undefined;
  }

  /** A string that is a statement of its own (a docstring) is documentation, not a URL in use. */
  private isDocstring(index: number): boolean {
    let lo = index;
    while (lo > 0 && this.tokens[lo - 1]!.kind !== "newline") lo--;
    let hi = index;
    while (hi < this.tokens.length && this.tokens[hi]!.kind !== "newline") hi++;
    for (let i = lo; i < hi; i++) if (!isString(this.tokens[i])) return false;
    return true;
  }

  private indexFrom(offset: number): number {
    let lo = 0;
    let hi = this.tokens.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tokens[mid]!.end <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
