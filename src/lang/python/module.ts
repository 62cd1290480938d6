/**
 * The one model of a Python file that scanners and transforms share: its
 * syntax (PySyntax) plus function scopes (from indentation), simple
 * assignments and `with ... as` bindings, and module-level functions.
 * Enough to follow a constant to its use, or a finding's span to its code,
 * without a full parser.
 */
import { isName, isOp } from "./tokens.js";
import { type PyRange, PySyntax } from "./syntax.js";

export interface PyAssignment {
  /** "NAME" or "self.NAME" (`cls.NAME` is stored as "self.NAME"). */
  key: string;
  value: PyRange;
  /** Offset of the assignment, to pick the one in force at a use. */
  at: number;
  scope: number;
}

/** A parameter of a `def`, with its default value when it has one. */
export interface PyParameter {
  name: string;
  default?: PyRange;
}

/** A `def` of the module: its name, the scope it opens, its parameters and where it is. */
export interface PyDef {
  name: string;
  scope: number;
  /** Offset of the `def` (or `async`) keyword and the column it is indented to. */
  start: number;
  indent: number;
  parameters: PyParameter[];
}

export class PyModule extends PySyntax {
  /** Every assignment by key, in document order. */
  readonly assignments = new Map<string, PyAssignment[]>();
  /** The same, by key and then by scope, for lookups in big files. */
  private readonly byScope = new Map<string, Map<number, PyAssignment[]>>();
  private readonly lineScopes: number[][] = [];
  private readonly lineStarts: number[] = [];
  /** The scope a `def` opens, by the index of its logical line. */
  private readonly defScopes = new Map<number, number>();
  /** Every `def`, by the scope it opens. */
  readonly defs = new Map<number, PyDef>();

  constructor(text: string) {
    super(text);
    this.computeScopes();
    for (const [index, line] of this.lines.entries()) this.collectAssignments(line, index);
  }

  /** Function scopes: a `def` opens one for the lines indented below it. */
  private computeScopes(): void {
    const stack: Array<{ indent: number; id: number }> = [];
    let next = 1;
    for (const [index, line] of this.lines.entries()) {
      const first = this.tokens[line.lo]!;
      const indent = first.start - (this.text.lastIndexOf("\n", first.start - 1) + 1);
      while (stack.length > 0 && indent <= stack[stack.length - 1]!.indent) stack.pop();
      this.lineScopes.push([0, ...stack.map((s) => s.id)]);
      this.lineStarts.push(first.start);
      const isDef = isName(first, "def") || (isName(first, "async") && isName(this.tokens[line.lo + 1], "def"));
      if (!isDef) continue;
      this.defScopes.set(index, next);
      this.defs.set(next, this.defOf(line, next, first.start, indent));
      stack.push({ indent, id: next++ });
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

  private defOf(line: PyRange, scope: number, start: number, indent: number): PyDef {
    const t = this.tokens;
    const at = isName(t[line.lo], "async") ? line.lo + 2 : line.lo + 1;
    const open = at + 1;
    const parameters: PyParameter[] = [];
    const close = isOp(t[open], "(") ? this.partner(open) : -1;
    if (close > open) {
      for (const part of this.splitTopLevel(open + 1, close)) {
        let lo = part.lo;
        while (isOp(t[lo], "*") || isOp(t[lo], "**")) lo++;
        if (!isName(t[lo])) continue;
        const equals = this.findTopLevel(lo, part.hi, (tok) => isOp(tok, "="));
        parameters.push({ name: t[lo]!.value, ...(equals > 0 ? { default: { lo: equals + 1, hi: part.hi } } : {}) });
      }
    }
    return { name: t[at]?.value ?? "", scope, start, indent, parameters };
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
    if (
      hi - lo === 3 &&
      (isName(t[lo], "self") || isName(t[lo], "cls")) &&
      isOp(t[lo + 1], ".") &&
      t[lo + 2]!.kind === "name"
    ) {
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
    const scopes = this.scopesAt(offset);
    for (let i = scopes.length - 1; i >= 0; i--) {
      const inScope = byScope?.get(scopes[i]!);
      const before = inScope && lastBefore(inScope, offset);
      if (before) return before;
      // A module constant may be defined below the function that reads it.
      if (inScope && scopes[i] === 0) return inScope[0];
      // A parameter hides the names outside: its default is its value when the caller leaves it out.
      const def = this.defs.get(scopes[i]!);
      const parameter = def?.parameters.find((p) => p.name === key);
      if (def && parameter)
        return parameter.default
          ? { key, value: parameter.default, at: def.start, scope: scopes[i - 1] ?? 0 }
          : undefined;
    }
    return undefined;
  }

  /** The scope of the module-level function `name` when it is defined once, and whether a decorator wraps it. */
  moduleFunction(name: string): { scope: number; decorated: boolean } | undefined {
    const found: Array<{ scope: number; decorated: boolean }> = [];
    for (const [index, scope] of this.defScopes) {
      const line = this.lines[index]!;
      if (this.lineScopes[index]!.length !== 1) continue;
      const nameAt = isName(this.tokens[line.lo], "async") ? line.lo + 2 : line.lo + 1;
      if (!isName(this.tokens[nameAt], name)) continue;
      const previous = this.lines[index - 1];
      found.push({ scope, decorated: previous !== undefined && isOp(this.tokens[previous.lo], "@") });
    }
    return found.length === 1 ? found[0] : undefined;
  }

  /** The value of every `return` statement directly in a function scope (a bare `return` gives an empty range). */
  returnValues(scope: number): PyRange[] {
    const values: PyRange[] = [];
    this.lines.forEach((line, index) => {
      const scopes = this.lineScopes[index]!;
      if (scopes[scopes.length - 1] === scope && isName(this.tokens[line.lo], "return"))
        values.push({ lo: line.lo + 1, hi: line.hi });
    });
    return values;
  }
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
