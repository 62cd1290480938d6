/**
 * Where a V1 Python SDK run call's request comes from and where its result
 * goes, as far as one file proves it. The Python part of v2-sdk rewrites a
 * call only when both are known: the request's keys (to map it onto V2's
 * queue request) and every read of the result (to rename `.object`).
 */
import { PYTHON_SDK_SHAPES } from "../../src/knowledge/python-sdk-shapes.js";
import type { PyModule } from "../../src/lang/python/module.js";
import type { PyRange } from "../../src/lang/python/syntax.js";
import { isName, isOp, type PyToken } from "../../src/lang/python/tokens.js";
import { fStringFields } from "../../src/lang/python/fstring-fields.js";

const V1_RESULT = PYTHON_SDK_SHAPES.calls[0]!.v1Result;
/** Result attributes both SDK generations have: reading them proves nothing wrong. */
const SHARED_FIELDS: ReadonlySet<string> = new Set(PYTHON_SDK_SHAPES.sharedResultFields);
/** How far a request is followed through names and helper functions. */
const MAX_DEPTH = 3;

/** Where a run call's result goes, and the `.object` tokens to rename when that is provable (f-string fields included). */
export type ResultUse = { provable: true; accessors: PyToken[] } | { provable: false; reason: string };

export class PythonCallFlow {
  private readonly t: readonly PyToken[];

  constructor(private readonly module: PyModule) {
    this.t = module.tokens;
  }

  /**
   * The key sets a `request=` argument can hold, or undefined when they are
   * not provable: a dict display; a name bound once, in the same function,
   * to a provable request and read nowhere else (nothing can add a key); or
   * a call to a module-level, undecorated function of this file whose every
   * `return` is a dict display (a fresh dict each time).
   */
  requestKeys(range: PyRange, depth = 0): string[][] | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const literal = this.module.literalDictKeys(range);
    if (literal) return [literal];
    const t = this.t;
    const first = t[range.lo];
    if (first?.kind !== "name") return undefined;
    if (range.hi - range.lo === 1) return this.boundRequest(range.lo, depth);
    const open = range.lo + 1;
    if (!isOp(t[open], "(") || this.module.partner(open) !== range.hi - 1) return undefined;
    const fn = this.module.moduleFunction(first.value);
    if (!fn || fn.decorated || this.module.assignments.get(first.value)?.some((a) => a.scope === 0)) return undefined;
    const returns = this.module.returnValues(fn.scope);
    const sets = returns.map((value) => this.module.literalDictKeys(value));
    return returns.length > 0 && sets.every((keys) => keys !== undefined) ? (sets as string[][]) : undefined;
  }

  /** `request=payload` with `payload = <provable request>` the only other mention of the name. */
  private boundRequest(index: number, depth: number): string[][] | undefined {
    const t = this.t;
    const name = t[index]!.value;
    const scope = this.scopeOf(index);
    const assignments = (this.module.assignments.get(name) ?? []).filter((a) => a.scope === scope);
    if (assignments.length !== 1 || assignments[0]!.at >= t[index]!.start) return undefined;
    const assignment = assignments[0]!;
    for (let i = 0; i < t.length; i++) {
      if (i === index || !isName(t[i], name) || isOp(t[i - 1], ".") || t[i]!.start === assignment.at) continue;
      if (this.module.scopesAt(t[i]!.start).includes(scope)) return undefined;
    }
    return this.requestKeys(assignment.value, depth + 1);
  }

  /**
   * Where the result of the call opening at `open` goes. Provable: the call
   * is a statement of its own; or `.object` follows it directly; or it is
   * bound once (`res = [await] call`) to a name that the same function reads
   * only as `res.object` or through fields both generations share
   * (`res.http_meta`). Reads through the V2 accessor (`v2Result`) are
   * already migrated (a run under a V1 pin that is still being upgraded).
   */
  resultUse(open: number, v2Result: string): ResultUse {
    const t = this.t;
    const close = this.module.partner(open);
    if (close < 0) return { provable: false, reason: "the call is not closed" };
    if (isOp(t[close + 1], ".")) return this.chainedRead(close, v2Result);
    // `(await call(...)).object`: parentheses that hold just the call.
    const group = isOp(t[close + 1], ")") ? this.module.partner(close + 1) : -1;
    if (
      group >= 0 &&
      this.module.isGrouping(group) &&
      this.module.callSpanning({ lo: group + 1, hi: close + 1 }) === open &&
      isOp(t[close + 2], ".")
    ) {
      return this.chainedRead(close + 1, v2Result);
    }
    const line = this.module.statementAt(open);
    const start = this.module.chainStart(open);
    if (start === undefined) return { provable: false, reason: "the call has an unusual shape" };
    let first = line.lo;
    if (isName(t[first], "await")) first++;
    if (start === first && close === line.hi - 1) return { provable: true, accessors: [] };
    // `name = [await] call` and nothing else on the line.
    const target = t[line.lo];
    const bindsName = target?.kind === "name" && isOp(t[line.lo + 1], "=") && close === line.hi - 1;
    const valueStart = isName(t[line.lo + 2], "await") ? line.lo + 3 : line.lo + 2;
    if (!bindsName || start !== valueStart)
      return { provable: false, reason: "the result is not bound to a plain name" };
    return this.readsOf(target.value, line, close, v2Result);
  }

  /** The result read right after the call, whose `)` (or that of the parentheses around it) is at `close`. */
  private chainedRead(close: number, v2Result: string): ResultUse {
    const field = this.t[close + 2];
    if (isName(field, V1_RESULT)) return { provable: true, accessors: [field!] };
    if (isName(field, v2Result)) return { provable: true, accessors: [] };
    return { provable: false, reason: `the result is read through .${field?.value ?? "?"}` };
  }

  /** Every read of `name` after its binding line in the same function must be `name.object`, a shared field, or already the V2 accessor. */
  private readsOf(name: string, binding: PyRange, close: number, v2Result: string): ResultUse {
    const t = this.t;
    const scope = this.scopeOf(binding.lo);
    const assignments = (this.module.assignments.get(name) ?? []).filter((a) => a.scope === scope);
    if (assignments.length !== 1)
      return { provable: false, reason: `${name} is assigned more than once in this function` };
    const accessors: PyToken[] = [];
    const bindingStart = t[binding.lo]!.start;
    const bindingEnd = t[close]!.end;
    // The file's own tokens, then the code inside its f-strings (`f"{res.object.status}"`).
    for (const tokens of [t, ...fStringFields(this.module.text, t)]) {
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!;
        if (token.start >= bindingStart && token.end <= bindingEnd) continue;
        if (!isName(token, name) || isOp(tokens[i - 1], ".")) continue;
        const scopes = this.module.scopesAt(token.start);
        if (!scopes.includes(scope)) continue;
        if (scopes[scopes.length - 1] !== scope)
          return { provable: false, reason: `${name} is used in a nested function` };
        if (token.start < bindingStart) return { provable: false, reason: `${name} is used before the call` };
        const field = isOp(tokens[i + 1], ".") ? tokens[i + 2] : undefined;
        if (isName(field, V1_RESULT)) {
          accessors.push(field!);
          continue;
        }
        if (field?.kind === "name" && (field.value === v2Result || SHARED_FIELDS.has(field.value))) continue;
        return {
          provable: false,
          reason: `${name} is also used as a whole or through another attribute (passed on, returned, .status_code, …)`,
        };
      }
    }
    return { provable: true, accessors };
  }

  /** The innermost function scope holding token `index` (0: the module). */
  private scopeOf(index: number): number {
    const scopes = this.module.scopesAt(this.t[index]!.start);
    return scopes[scopes.length - 1]!;
  }
}
