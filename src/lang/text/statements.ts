/**
 * The statement around an offset, across lines: shell `\` continuations,
 * calls whose arguments span lines and builder chains (`.post(...)` on the
 * next line). The HTTP method of a URL is read from this text.
 */
import type { TextFile } from "./text-file.js";

export interface Statement {
  start: number;
  end: number;
  text: string;
}

/** How far a statement may reach, in lines and in characters (minified files have huge lines). */
const MAX_LINES = 15;
const MAX_CHARS = 2000;

const ENDS_OPEN = /(\\|\(|\[|,|\.|\+|=|&&|\|\||\||->|=>|:=)\s*$/;
/** In docs only shell continuations join lines: a comma, a full stop or a table bar ends prose, and `+` starts a list item. */
const ENDS_OPEN_IN_DOCS = /\\\s*$/;
const NEVER = /$^/;
const STARTS_AS_CONTINUATION = /^\s*(\.|\?\.|->|\)|\]|\+|&&|\|\||::)/;

export function statementAround(file: TextFile, offset: number): Statement {
  const line = file.lineOf(offset);
  const docs = file.syntax === "markup";
  const endsOpen = docs ? ENDS_OPEN_IN_DOCS : ENDS_OPEN;
  const startsAsContinuation = docs ? NEVER : STARTS_AS_CONTINUATION;
  let first = line;
  // Inside a call opened on an earlier line: go back to the line that opened it.
  let depth = 0;
  for (let l = line - 1; l >= Math.max(1, line - MAX_LINES); l--) {
    depth += bracketBalance(file.lineText(l));
    if (depth > 0) {
      first = l;
      depth = 0;
    }
  }
  while (
    first > 1 &&
    line - first < MAX_LINES &&
    (endsOpen.test(codeOf(file.lineText(first - 1))) || startsAsContinuation.test(file.lineText(first)))
  ) {
    first--;
  }
  let last = line;
  let balance = 0;
  for (let l = first; l <= line; l++) balance += bracketBalance(file.lineText(l));
  while (
    last < file.lineCount &&
    last - line < MAX_LINES &&
    (balance > 0 || endsOpen.test(codeOf(file.lineText(last))) || startsAsContinuation.test(file.lineText(last + 1)))
  ) {
    last++;
    balance += bracketBalance(file.lineText(last));
  }
  const start = Math.max(file.lineStart(first), offset - MAX_CHARS);
  const end = Math.min(file.lineEnd(last), offset + MAX_CHARS);
  return { start, end, text: file.text.slice(start, end) };
}

/** Text of a line without its string literals, so brackets in strings do not count. */
function codeOf(line: string): string {
  // A minified line is a statement of its own; scanning it again per mention would be quadratic.
  if (line.length > 2 * MAX_CHARS) return "";
  return line.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`/g, '""');
}

/** Opened minus closed parentheses and square brackets on a line, outside strings. */
function bracketBalance(line: string): number {
  let balance = 0;
  for (const c of codeOf(line)) {
    if (c === "(" || c === "[") balance++;
    else if (c === ")" || c === "]") balance--;
  }
  return balance;
}
