/**
 * The token ranges Python value evaluation works on (Expr) and how it cuts
 * them: top-level operators, splits at a token, a call's arguments, and those
 * arguments bound to a helper's parameters.
 */
import type { PyDef } from "./module.js";
import { isOp, type PyToken, type PyTokens } from "./tokens.js";

/** A token sequence and a range in it: the file's own tokens, or those of an f-string field. */
export interface Expr {
  seq: PyTokens;
  lo: number;
  hi: number;
  /** The arguments a helper was called with, by parameter name, while its return value is evaluated. */
  env?: ReadonlyMap<string, Expr>;
  /** The helper's scope: assignments there see the same arguments. */
  envScope?: number;
}

/** Which of the operators evaluation splits on occur at the top level (one pass, so big files stay fast). */
export function topLevelOperators(e: Expr): Set<string> {
  const found = new Set<string>();
  for (let i = e.lo; i < e.hi; i++) {
    const partner = e.seq.partner[i] ?? -1;
    if (partner > i) {
      i = partner;
      continue;
    }
    const token = e.seq.tokens[i]!;
    if (
      (token.kind === "name" && (token.value === "if" || token.value === "or")) ||
      isOp(token, "+") ||
      isOp(token, "%")
    )
      found.add(token.value);
  }
  return found;
}

/** Splits at top-level tokens passing `test`. */
export function splitOn(e: Expr, test: (token: PyToken) => boolean): Expr[] {
  const parts: Expr[] = [];
  let start = e.lo;
  for (let i = e.lo; i < e.hi; i++) {
    const partner = e.seq.partner[i] ?? -1;
    if (partner > i) {
      i = partner;
      continue;
    }
    if (test(e.seq.tokens[i]!)) {
      parts.push({ ...e, lo: start, hi: i });
      start = i + 1;
    }
  }
  parts.push({ ...e, lo: start, hi: e.hi });
  return parts;
}

/** The positional and keyword arguments of the call whose `(` is at `open` (`*` and `**` spreads left out). */
export function argumentsAt(e: Expr, open: number): { positional: Expr[]; keyword: Map<string, Expr> } {
  const close = e.seq.partner[open] ?? -1;
  const positional: Expr[] = [];
  const keyword = new Map<string, Expr>();
  if (close < 0) return { positional, keyword };
  for (const part of splitOn({ ...e, lo: open + 1, hi: close }, (tok) => isOp(tok, ","))) {
    if (part.hi <= part.lo) continue;
    const first = e.seq.tokens[part.lo]!;
    if (first.kind === "name" && isOp(e.seq.tokens[part.lo + 1], "="))
      keyword.set(first.value, { ...e, lo: part.lo + 2, hi: part.hi });
    else if (!isOp(first, "*") && !isOp(first, "**")) positional.push(part);
  }
  return { positional, keyword };
}

/** A helper's parameters (`self` aside for a method) by name, bound to a call's arguments. */
export function bindArguments(
  def: PyDef,
  method: boolean,
  args: { positional: Expr[]; keyword: Map<string, Expr> },
): Map<string, Expr> {
  const parameters = method ? def.parameters.slice(1) : def.parameters;
  const env = new Map<string, Expr>();
  parameters.forEach((parameter, i) => {
    const arg = args.keyword.get(parameter.name) ?? args.positional[i];
    if (arg) env.set(parameter.name, arg);
  });
  return env;
}
