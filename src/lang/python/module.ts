/**
 * The structure of one Python file the scanners need: logical lines,
 * function scopes (from indentation), simple assignments and `with ... as`
 * bindings, call arguments and callee chains. Enough to follow a constant
 * to its use without a full parser.
 */
import { isName, isOp, isString, type PyToken, type PyTokens, tokenizePython } from "./tokens.js";

/** A half-open range of token indices. */
export interface PyRange {
  lo: number;
  hi: number;
}

export interface PyAssignment {
  /** "NAME" or "self.NAME" (`cls.NAME` is stored as "self.NAME"). */
  key: string;
  value: PyRange;
  /** Offset of the assignment, to pick the one in force at a use. */
  at: number;
  scope: number;
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

const DELIMITER_OPS = new Set([
  ",", "=", ":", ";", "->", ":=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "//=", "**=", "@=", ">>=", "<<=", "^=", "==", "!=", "<", ">", "<=", ">=",
]);
const DELIMITER_WORDS = new Set([
  "return", "if", "elif", "else", "while", "or", "and", "not", "in", "is", "for", "lambda", "yield", "await", "assert", "del", "with", "as",
  "from", "import", "raise", "async", "def", "class",
]);

export class PyModule {
  readonly text: string;
  readonly seq: PyTokens;
  readonly tokens: readonly PyToken[];
  /** Logical lines as token ranges (newline tokens excluded). */
  readonly lines: PyRange[] = [];
  /** Every assignment by key, in document order. */
  readonly assignments = new Map<string, PyAssignment[]>();
  /** The same, by key and then by scope, for lookups in big files. */
  private readonly byScope = new Map<string, Map<number, PyAssignment[]>>();
  private readonly lineScopes: number[][] = [];
  private readonly lineStarts: number[] = [];

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
    this.computeScopes();
    this.lines.forEach((line, index) => this.collectAssignments(line, index));
  }

  partner(index: number): number {
    return this.seq.partner[index] ?? -1;
  }

  /** Function scopes: a `def` opens one for the lines indented below it. */
  private computeScopes(): void {
    const stack: Array<{ indent: number; id: number }> = [];
    let next = 1;
    for (const line of this.lines) {
      const first = this.tokens[line.lo]!;
      const indent = first.start - (this.text.lastIndexOf("\n", first.start - 1) + 1);
      while (stack.length > 0 && indent <= stack[stack.length - 1]!.indent) stack.pop();
      this.lineScopes.push([0, ...stack.map((s) => s.id)]);
      this.lineStarts.push(first.start);
      const isDef = isName(first, "def") || (isName(first, "async") && isName(this.tokens[line.lo + 1], "def"));
      if (isDef) stack.push({ indent, id: next++ });
    }
  }

  /** The scope chain (outermost first) in force at an offset. */
  scopesAt(offset: number): number[] {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    if (hi < 0 || offset < this.lineStarts[0]!) return [0];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.lineScopes[lo] ?? [0];
  }

  private collectAssignments(line: PyRange, index: number): void {
    const scopes = this.lineScopes[index]!;
    const scope = scopes[scopes.length - 1]!;
    const tokens = this.tokens;
    const first = tokens[line.lo]!;
    // `with A as a, B as b:` binds names to expressions.
    if (isName(first, "with") || (isName(first, "async") && isName(tokens[line.lo + 1], "with"))) {
      const start = isName(first, "with") ? line.lo + 1 : line.lo + 2;
      const colon = this.findTopLevel(start, line.hi, (t) => isOp(t, ":"));
      for (const item of this.splitTopLevel(start, colon < 0 ? line.hi : colon)) {
        const as = this.findTopLevel(item.lo, item.hi, (t) => isName(t, "as"));
        const target = as >= 0 ? this.targetKey(as + 1, item.hi) : undefined;
        if (target) this.addAssignment({ key: target, value: { lo: item.lo, hi: as }, at: first.start, scope });
      }
      return;
    }
    // `a = b = value`, `a: T = value`, `self.a = value`: the value follows the last top-level `=`.
    const equals: number[] = [];
    for (let i = line.lo; i < line.hi; i++) {
      const partner = this.partner(i);
      if (partner > i) i = partner;
      else if (isOp(tokens[i], "=")) equals.push(i);
    }
    if (equals.length === 0) return;
    const value = { lo: equals[equals.length - 1]! + 1, hi: line.hi };
    let targetStart = line.lo;
    for (const eq of equals) {
      const colon = this.findTopLevel(targetStart, eq, (t) => isOp(t, ":"));
      const key = this.targetKey(targetStart, colon >= 0 ? colon : eq);
      if (key) this.addAssignment({ key, value, at: tokens[targetStart]!.start, scope });
      targetStart = eq + 1;
    }
  }

  private addAssignment(assignment: PyAssignment): void {
    const list = this.assignments.get(assignment.key) ?? [];
    list.push(assignment);
    this.assignments.set(assignment.key, list);
    const scopes = this.byScope.get(assignment.key) ?? new Map<number, PyAssignment[]>();
    const inScope = scopes.get(assignment.scope) ?? [];
    inScope.push(assignment);
    scopes.set(assignment.scope, inScope);
    this.byScope.set(assignment.key, scopes);
  }

  /** "NAME" or "self.NAME" when tokens[lo, hi) are exactly such a target. */
  private targetKey(lo: number, hi: number): string | undefined {
    const t = this.tokens;
    if (hi - lo === 1 && t[lo]!.kind === "name") return t[lo]!.value;
    if (hi - lo === 3 && (isName(t[lo], "self") || isName(t[lo], "cls")) && isOp(t[lo + 1], ".") && t[lo + 2]!.kind === "name") {
      return `self.${t[lo + 2]!.value}`;
    }
    return undefined;
  }

  /** The assignment to `key` in force at `offset`: same function first, then enclosing ones, then the module. */
  resolve(key: string, offset: number): PyAssignment | undefined {
    if (key.startsWith("self.")) {
      // `self.base` reads an instance attribute, or else a class attribute of that name.
      const candidates = this.assignments.get(key) ?? this.assignments.get(key.slice("self.".length));
      return candidates && (lastBefore(candidates, offset) ?? candidates[0]);
    }
    const byScope = this.byScope.get(key);
    if (!byScope) return undefined;
    const scopes = this.scopesAt(offset);
    for (let i = scopes.length - 1; i >= 0; i--) {
      const inScope = byScope.get(scopes[i]!);
      if (!inScope) continue;
      const before = lastBefore(inScope, offset);
      // A module constant may be defined below the function that reads it.
      if (before) return before;
      if (scopes[i] === 0) return inScope[0];
    }
    return undefined;
  }

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

  /** Arguments of the call whose `(` is at `open`. */
  callArguments(open: number): PyArguments {
    const close = this.partner(open);
    const args: PyArguments = { positional: [], keyword: new Map() };
    if (close < 0) return args;
    for (const part of this.splitTopLevel(open + 1, close)) {
      const first = this.tokens[part.lo]!;
      if (first.kind === "name" && isOp(this.tokens[part.lo + 1], "=")) args.keyword.set(first.value, { lo: part.lo + 2, hi: part.hi });
      else if (!isOp(first, "*") && !isOp(first, "**")) args.positional.push(part);
    }
    return args;
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

/** The last assignment before `offset` in a list kept in document order. */
function lastBefore(list: readonly PyAssignment[], offset: number): PyAssignment | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? list[lo - 1] : undefined;
}
