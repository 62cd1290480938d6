/**
 * What the AST codemods cannot take. Babel, ast-types and recast recurse
 * once per nesting level and overflow the stack a few hundred levels down,
 * and a minified bundle costs seconds and hundreds of MB to parse and print
 * for a rewrite nobody should make there (the source it was built from is
 * where the fix belongs). Such files are refused up front with a reason,
 * from a linear pass over the text; a stack overflow the guard did not
 * foresee (a long operator chain) is refused the same way.
 */

/** A line longer than this is minified or generated code. */
export const MAX_LINE_LENGTH = 10_000;
/** Brackets nested deeper than this overflow the parsers (real code stays far below). */
export const MAX_BRACKET_DEPTH = 256;
/**
 * `+`, `&&`, `||` and `??` in one statement beyond this make a chain the parsers
 * recurse into once per operator; whether it overflows depends on how warm the
 * process is, so such a file is refused every time (real code stays far below).
 */
export const MAX_OPERATOR_CHAIN = 1_000;

/** A file the AST codemods refuse; the runner reports it as unreadable-file and leaves it as it is. */
export class UnparsableFile extends Error {
  override readonly name = "UnparsableFile";
}

/** Why the codemods should not parse this text, or undefined when they can. */
export function astLimitProblem(text: string): string | undefined {
  let lineStart = 0;
  let depth = 0;
  let deepest = 0;
  let chain = 0; // operators since the last `;`, `{` or `}`
  let longest = 0;
  let quote = 0; // the open quote character, or 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      if (i - lineStart > MAX_LINE_LENGTH) return minified(i - lineStart);
      lineStart = i + 1;
      if (quote !== 0x60) quote = 0; // '…' and "…" end at the line's end
      continue;
    }
    if (quote !== 0) {
      if (c === 0x5c)
        i++; // backslash escapes the next character
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x22 || c === 0x27 || c === 0x60) quote = c;
    else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf("\n", i);
      i = (end < 0 ? text.length : end) - 1; // a line comment: its brackets do not count
    } else if (c === 0x28 || c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x29 || c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
    if (c === 0x3b || c === 0x7b || c === 0x7d) chain = 0;
    else if (chainOperatorAt(text, i)) longest = Math.max(longest, ++chain);
  }
  if (longest > MAX_OPERATOR_CHAIN)
    return `an expression of ${longest.toLocaleString("en-US")} operators, longer than the parser can follow`;
  if (text.length - lineStart > MAX_LINE_LENGTH) return minified(text.length - lineStart);
  return deepest > MAX_BRACKET_DEPTH ? `nested ${deepest} brackets deep, deeper than the parser can follow` : undefined;
}

function minified(length: number): string {
  return `a line of ${length.toLocaleString("en-US")} characters: minified or generated code; fix the source it is built from`;
}

/** A binary `+` (not `++` or `+=`), or the first character of `&&`, `||` or `??` (not followed by `=`). */
function chainOperatorAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  if (c === 0x2b) return next !== 0x2b && next !== 0x3d && text.charCodeAt(i - 1) !== 0x2b;
  if (c !== 0x26 && c !== 0x7c && c !== 0x3f) return false;
  return next === c && text.charCodeAt(i + 2) !== 0x3d && text.charCodeAt(i - 1) !== c;
}
