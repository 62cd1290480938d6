/**
 * The Python side of v2-endpoints, read through the shared Python model
 * (PyModule): which string literal a finding is in (comments and
 * docstrings are left alone), the statement a marker goes above, the
 * V1-only fields of the JSON body of the call a URL is passed to, and the
 * one `params={"run_id": rid}` shape simple enough to rewrite
 * (`requests.get(f"{BASE}/run", params={"run_id": rid})` ->
 * `requests.get(f"{BASE}/run/{rid}")`).
 */
import { PyModule } from "../../src/lang/python/module.js";
import type { PyArgument, PyCall } from "../../src/lang/python/syntax.js";
import { isOp, isString, type PyStringToken, stringValue } from "../../src/lang/python/tokens.js";
import { type TextEdit, v1OnlyFields } from "./urls.js";
import { RUN_ID_KEY, findRunSegment } from "../../src/core/run-path.js";
import type { Segment } from "./segments.js";

/** Tokens a run id expression may consist of to be moved into an f-string field. */
const PLAIN_OPS = new Set([".", "(", ")", "[", "]"]);

/** Keyword arguments that carry a request's JSON body. */
const BODY_KEYWORDS = new Set(["json", "data"]);

export class PythonUrlSites {
  private readonly module: PyModule;

  constructor(private readonly text: string) {
    this.module = new PyModule(text);
  }

  /** True when a token (not a comment) starts at the offset: the URL is code, built somewhere else. */
  isCodeAt(offset: number): boolean {
    return this.module.tokens[this.module.tokenFrom(offset)]?.start === offset;
  }

  /**
   * The part of a code string literal from `from` to the end of its body,
   * looking at the string tokens a finding's range [from, to) covers. With
   * `needsRunPath`, the first one whose text holds the V1 run path.
   */
  segmentIn(from: number, to: number, needsRunPath: boolean): (Segment & { index: number }) | undefined {
    const tokens = this.module.tokens;
    for (let index = this.module.tokenFrom(from); index < tokens.length; index++) {
      const token = tokens[index]!;
      if (token.start >= Math.max(to, from + 1)) break;
      // A string that is a statement of its own (a docstring) is documentation, not a URL in use.
      if (!isString(token) || this.module.isStringStatement(this.module.statementAt(index))) continue;
      const start = Math.max(from, token.bodyStart);
      if (start > token.bodyEnd) continue;
      const segment = {
        start,
        end: token.bodyEnd,
        quote: token.quote,
        index,
        interpolates: token.prefix.includes("f"),
      };
      if (!needsRunPath || findRunSegment(this.text.slice(segment.start, segment.end))) return segment;
    }
    return undefined;
  }

  /** 1-based line of the statement (logical line) holding an offset: a marker above it stays outside strings. */
  statementLine(offset: number): number {
    return this.module.statementLineAt(offset);
  }

  /** What follows a string token in its expression: the next token's value. */
  nextOp(index: number): string | undefined {
    const next = this.module.tokens[index + 1];
    return next?.kind === "op" ? next.value : undefined;
  }

  /** V1-only create fields in the JSON body of the call a string is passed to. */
  bodyFields(index: number): string[] {
    const call = this.module.enclosingCall(index);
    if (!call) return [];
    const keys = this.keysIn(call.open, call.close);
    for (const arg of this.module.argumentList(call.open)) {
      if (arg.keyword === undefined || !BODY_KEYWORDS.has(this.module.tokens[arg.keyword]!.value)) continue;
      const value = this.module.tokens[arg.keyword + 2]!;
      if (arg.hi - (arg.keyword + 2) !== 1 || value.kind !== "name") continue;
      const dict = this.assignedDict(value.value, call.open);
      if (dict) keys.push(...this.keysIn(dict.open, dict.close));
    }
    return v1OnlyFields(keys);
  }

  /**
   * `get(<url ending in /run>, params={"run_id": rid})` -> `get(f"<url>/{rid}")`:
   * only for a URL that is one string literal (an f-string, or a plain string
   * without braces) and a params dict holding run_id alone, with a plain name
   * or attribute as its value, which `wrap` escapes as a path segment.
   */
  paramsRunIdEdits(index: number, segment: Segment, wrap: (id: string) => string = (id) => id): TextEdit[] | undefined {
    const tokens = this.module.tokens;
    const token = tokens[index] as PyStringToken;
    if (token.prefix.includes("b")) return undefined;
    const call = this.module.enclosingCall(index);
    if (!call) return undefined;
    const args = this.module.argumentList(call.open);
    const urlArg = args.find((a) => a.lo <= index && index < a.hi);
    if (!urlArg || urlArg.hi - (urlArg.keyword !== undefined ? urlArg.keyword + 2 : urlArg.lo) !== 1) return undefined;
    const params = args.find((a) => a.keyword !== undefined && tokens[a.keyword]!.value === "params");
    if (!params) return undefined;
    const value = this.singleRunIdValue(params);
    if (!value) return undefined;
    const formatted = token.prefix.includes("f");
    const body = this.text.slice(token.bodyStart, token.bodyEnd);
    if (!formatted && /[{}]/.test(body)) return undefined;
    const url = this.text.slice(segment.start, segment.end);
    const run = findRunSegment(url);
    if (!run || run.queryStart !== undefined || url.length !== run.end + (run.trailingSlash ? 1 : 0)) return undefined;
    const comma = tokens[params.keyword! - 1];
    if (!comma || !isOp(comma, ",")) return undefined;
    const edits: TextEdit[] = [
      { start: segment.end, end: segment.end, text: `${run.trailingSlash ? "" : "/"}{${wrap(value)}}` },
      { start: comma.start, end: tokens[params.hi - 1]!.end, text: "" },
    ];
    if (!formatted) edits.push({ start: token.start, end: token.start, text: "f" });
    return edits;
  }

  private singleRunIdValue(params: PyArgument): string | undefined {
    const tokens = this.module.tokens;
    const lo = params.keyword! + 2;
    if (!isOp(tokens[lo], "{") || this.module.partner(lo) !== params.hi - 1) return undefined;
    const entries = this.module.splitTopLevel(lo + 1, params.hi - 1);
    if (entries.length !== 1) return undefined;
    const entry = entries[0]!;
    const key = tokens[entry.lo];
    if (
      !isString(key) ||
      key.prefix.includes("f") ||
      stringValue(this.text, key) !== RUN_ID_KEY ||
      !isOp(tokens[entry.lo + 1], ":")
    )
      return undefined;
    const valueLo = entry.lo + 2;
    if (valueLo >= entry.hi) return undefined;
    for (let i = valueLo; i < entry.hi; i++) {
      const t = tokens[i]!;
      if (t.kind === "string" || (t.kind === "op" && !PLAIN_OPS.has(t.value))) return undefined;
    }
    return this.text.slice(tokens[valueLo]!.start, tokens[entry.hi - 1]!.end);
  }

  /**
   * Every string key of dict displays (`{"k": v}`) and keyword name of
   * `dict(k=v)` calls in a token range, at any depth: a V1-only field
   * anywhere in the request keeps it for review.
   */
  private keysIn(lo: number, hi: number): string[] {
    const tokens = this.module.tokens;
    const keys: string[] = [];
    for (let i = lo; i < hi; i++) {
      const token = tokens[i]!;
      if (isString(token) && !token.prefix.includes("f") && isOp(tokens[i + 1], ":"))
        keys.push(stringValue(this.text, token));
      if (token.kind === "name" && token.value === "dict" && isOp(tokens[i + 1], "(")) {
        for (const arg of this.module.argumentList(i + 1))
          if (arg.keyword !== undefined) keys.push(tokens[arg.keyword]!.value);
      }
    }
    return keys;
  }

  /** The dict display last assigned to a name before a call: `payload = {...}`. */
  private assignedDict(name: string, before: number): PyCall | undefined {
    const tokens = this.module.tokens;
    for (let i = before - 1; i > 0; i--) {
      const token = tokens[i]!;
      if (token.kind === "name" && token.value === name && isOp(tokens[i + 1], "=") && isOp(tokens[i + 2], "{")) {
        const close = this.module.partner(i + 2);
        return close > 0 ? { open: i + 2, close } : undefined;
      }
    }
    return undefined;
  }
}
