/**
 * The syntax of one Python file, as scanners and transforms read it: tokens
 * and bracket pairs, logical lines, positions (offset to token, statement
 * lines), calls (callee chains, arguments, the call around a token) and
 * expressions bounded by delimiters. PyModule adds scopes and bindings.
 */
import { LineIndex } from "../../core/location.js";
import { isName, isOp, isString, type PyToken, type PyTokens, tokenizePython } from "./tokens.js";

/** A half-open range of token indices. */
export interface PyRange {
  lo: number;
  hi: number;
}

export interface PyCallee {
  /** Dotted names before the `(`, e.g. ["self", "session", "post"]. */
  segments: string[];
  /** Token index where the callee starts. */
  start: number;
  /** When the chain hangs off a call (`httpx.Client(...).post`), the index of that call's `(`. */
  receiverCall?: number;
}

export interface PyArguments {
  positional: PyRange[];
  keyword: Map<string, PyRange>;
}

/** One argument of a call as written: `keyword` is the name token's index for `name=value`. */
export interface PyArgument extends PyRange {
  keyword?: number;
}

/** A call's parentheses, as token indices. */
export interface PyCall {
  open: number;
  close: number;
}

const DELIMITER_OPS = new Set([
  ",",
  "=",
  ":",
  ";",
  "->",
  ":=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "|=",
  "&=",
  "//=",
  "**=",
  "@=",
  ">>=",
  "<<=",
  "^=",
  "==",
  "!=",
  "<",
  ">",
  "<=",
  ">=",
]);
const DELIMITER_WORDS = new Set([
  "return",
  "if",
  "elif",
  "else",
  "while",
  "or",
  "and",
  "not",
  "in",
  "is",
  "for",
  "lambda",
  "yield",
  "await",
  "assert",
  "del",
  "with",
  "as",
  "from",
  "import",
  "raise",
  "async",
  "def",
  "class",
]);

/** Keywords that can stand right before a `(` without calling anything. */
const KEYWORDS: ReadonlySet<string> = new Set([...DELIMITER_WORDS, "except"]);

export class PySyntax {
  readonly text: string;
  readonly seq: PyTokens;
  readonly tokens: readonly PyToken[];
  /** Logical lines as token ranges (newline tokens excluded). */
  readonly lines: PyRange[] = [];
  private lineIndex: LineIndex | undefined;

  constructor(text: string) {
    this.text = text;
    this.seq = tokenizePython(text);
    this.tokens = this.seq.tokens;
    let lo = 0;
    this.tokens.forEach((token, i) => {
      if (token.kind !== "newline") return;
      if (i > lo) this.lines.push({ lo, hi: i });
      lo = i + 1;
    });
  }

  partner(index: number): number {
    return this.seq.partner[index] ?? -1;
  }

  // ------------------------------------------------------------ positions

  /** Index of the token that starts exactly at `offset`, or -1: where a finding's span points. */
  tokenStartingAt(offset: number): number {
    const index = this.firstToken((token) => token.start >= offset);
    return this.tokens[index]?.start === offset ? index : -1;
  }

  /** Index of the first token that ends after `offset`: the token holding it, or the next one. */
  tokenFrom(offset: number): number {
    return this.firstToken((token) => token.end > offset);
  }

  /** Binary search over the tokens, for a test that is false and then true. */
  private firstToken(test: (token: PyToken) => boolean): number {
    let lo = 0;
    let hi = this.tokens.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (test(this.tokens[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The statement (logical line) holding token `index`, newline excluded. */
  statementAt(index: number): PyRange {
    let lo = index;
    while (lo > 0 && this.tokens[lo - 1]!.kind !== "newline") lo--;
    let hi = index;
    while (hi < this.tokens.length && this.tokens[hi]!.kind !== "newline") hi++;
    return { lo, hi };
  }

  /** 1-based line of an offset. */
  lineAt(offset: number): number {
    this.lineIndex ??= new LineIndex(this.text);
    return this.lineIndex.lineOf(offset);
  }

  /** 1-based line where the statement holding `offset` starts: a marker above it stays outside strings and brackets. */
  statementLineAt(offset: number): number {
    const first = this.tokens[this.statementAt(this.tokenFrom(offset)).lo];
    return this.lineAt(first && first.start <= offset ? first.start : offset);
  }

  // -------------------------------------------------------------- calls

  /** Index of the first top-level token in [lo, hi) satisfying `test`, or -1. */
  findTopLevel(lo: number, hi: number, test: (token: PyToken) => boolean): number {
    for (let i = lo; i < hi; i++) {
      if (test(this.tokens[i]!)) return i;
      const partner = this.partner(i);
      if (partner > i) i = partner;
    }
    return -1;
  }

  splitTopLevel(lo: number, hi: number, separator = ","): PyRange[] {
    const parts: PyRange[] = [];
    let start = lo;
    for (let i = lo; i < hi; i++) {
      const partner = this.partner(i);
      if (partner > i) {
        i = partner;
        continue;
      }
      if (isOp(this.tokens[i], separator)) {
        parts.push({ lo: start, hi: i });
        start = i + 1;
      }
    }
    if (hi > start) parts.push({ lo: start, hi });
    return parts.filter((p) => p.hi > p.lo);
  }

  /** The arguments of the call whose `(` is at `open`, in order as written (`*args` and `**kwargs` included). */
  argumentList(open: number): PyArgument[] {
    const close = this.partner(open);
    if (close < 0) return [];
    return this.splitTopLevel(open + 1, close).map((part) =>
      this.tokens[part.lo]!.kind === "name" && isOp(this.tokens[part.lo + 1], "=")
        ? { ...part, keyword: part.lo }
        : part,
    );
  }

  /** Arguments of the call whose `(` is at `open`, by position and by keyword (value ranges). */
  callArguments(open: number): PyArguments {
    const args: PyArguments = { positional: [], keyword: new Map() };
    for (const part of this.argumentList(open)) {
      const first = this.tokens[part.lo]!;
      if (part.keyword !== undefined) args.keyword.set(first.value, { lo: part.lo + 2, hi: part.hi });
      else if (!isOp(first, "*") && !isOp(first, "**")) args.positional.push(part);
    }
    return args;
  }

  /** The innermost call whose parentheses hold token `index`. */
  enclosingCall(index: number): PyCall | undefined {
    const t = this.tokens;
    for (let i = index - 1; i >= 0; i--) {
      const partner = this.partner(i);
      if (isOp(t[i], "(") && partner > index) {
        const before = t[i - 1];
        if (before && (before.kind === "name" || isOp(before, ")") || isOp(before, "]")))
          return { open: i, close: partner };
      }
      // Skip over closed bracket pairs before the token.
      if ((isOp(t[i], ")") || isOp(t[i], "]") || isOp(t[i], "}")) && partner >= 0 && partner < i) i = partner;
    }
    return undefined;
  }

  /** True when the `(` at `open` groups an expression (`(await f())`, `return (a)`) rather than calling something. */
  isGrouping(open: number): boolean {
    const before = this.tokens[open - 1];
    if (isOp(before, ")") || isOp(before, "]")) return false;
    return before?.kind !== "name" || KEYWORDS.has(before.value);
  }

  /** The first token of the call chain ending in the call at `open`: `get_client` in `get_client().run.get(`. */
  chainStart(open: number): number | undefined {
    let callee = this.calleeOf(open);
    while (callee?.receiverCall !== undefined) callee = this.calleeOf(callee.receiverCall);
    return callee?.start;
  }

  /** The `(` of a call that is the whole range, after an optional `await`: `[await] a.b(...)` or `f().b(...)`. */
  callSpanning(range: PyRange): number | undefined {
    let lo = range.lo;
    if (isName(this.tokens[lo], "await")) lo++;
    const close = range.hi - 1;
    if (!isOp(this.tokens[close], ")")) return undefined;
    const open = this.partner(close);
    return open >= lo && this.chainStart(open) === lo ? open : undefined;
  }

  /** The string keys of a dict display that is exactly the range, or undefined when any item is not `"key": value`. */
  literalDictKeys(range: PyRange): string[] | undefined {
    const t = this.tokens;
    if (!isOp(t[range.lo], "{") || this.partner(range.lo) !== range.hi - 1) return undefined;
    const keys: string[] = [];
    for (const item of this.splitTopLevel(range.lo + 1, range.hi - 1)) {
      const key = t[item.lo];
      if (!isString(key) || key.prefix.includes("f") || !isOp(t[item.lo + 1], ":")) return undefined;
      keys.push(this.text.slice(key.bodyStart, key.bodyEnd));
    }
    return keys;
  }

  /** The dotted callee before the `(` at `open`, if it is a plain call (not a definition). */
  calleeOf(open: number): PyCallee | undefined {
    const t = this.tokens;
    let j = open - 1;
    if (t[j]?.kind !== "name") return undefined;
    const segments = [t[j]!.value];
    let start = j;
    let receiverCall: number | undefined;
    while (isOp(t[j - 1], ".")) {
      const before = t[j - 2];
      if (before?.kind === "name") {
        segments.unshift(before.value);
        j -= 2;
        start = j;
      } else if (isOp(before, ")") && this.partner(j - 2) >= 0) {
        receiverCall = this.partner(j - 2);
        start = receiverCall;
        break;
      } else {
        break;
      }
    }
    if (isName(t[start - 1], "def") || isName(t[start - 1], "class")) return undefined;
    return receiverCall === undefined ? { segments, start } : { segments, start, receiverCall };
  }

  /** A logical line made only of string literals: a docstring or a bare string statement. */
  isStringStatement(line: PyRange): boolean {
    for (let i = line.lo; i < line.hi; i++) if (!isString(this.tokens[i])) return false;
    return true;
  }

  /**
   * The expression around token `index`, bounded by delimiters at its own
   * bracket depth (`,`, `=`, `:`, an opening bracket, keywords such as `return`).
   */
  expressionAround(index: number): PyRange {
    const t = this.tokens;
    let lo = index;
    for (;;) {
      const prev = lo - 1;
      const token = t[prev];
      if (!token || token.kind === "newline" || isBoundary(token)) break;
      if (token.kind === "op" && ")]}".includes(token.value)) {
        const open = this.partner(prev);
        if (open < 0) break;
        lo = open;
        continue;
      }
      if (token.kind === "op" && "([{".includes(token.value)) break;
      lo = prev;
    }
    let hi = index + 1;
    for (;;) {
      const token = t[hi];
      if (!token || token.kind === "newline" || isBoundary(token)) break;
      if (token.kind === "op" && "([{".includes(token.value)) {
        const close = this.partner(hi);
        if (close < 0) break;
        hi = close + 1;
        continue;
      }
      if (token.kind === "op" && ")]}".includes(token.value)) break;
      hi++;
    }
    return { lo, hi };
  }
}

function isBoundary(token: PyToken): boolean {
  if (token.kind === "op") return DELIMITER_OPS.has(token.value);
  return token.kind === "name" && DELIMITER_WORDS.has(token.value);
}
