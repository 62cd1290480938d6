/**
 * Where the comments are in a non-JS text file. A small lexer per syntax
 * family: it skips strings (so the `//` of `"https://..."` is not a comment)
 * and finds line and block comments. It never fails: unknown or broken
 * syntax only makes it less precise.
 */
import type { TextSyntax } from "../../platform/file-types.js";

interface LexRules {
  /** Start a comment anywhere outside strings. */
  line: string[];
  /** Start a comment only at a word start: line start or after whitespace (`#` in shell and YAML). */
  wordStart: string[];
  /** Start a comment only as the first non-blank characters of a line (`;` in INI, `!` in properties). */
  lineStart: string[];
  block: Array<[string, string]>;
  /** Single-line strings with backslash escapes. */
  quotes: string[];
  /** Single-line strings without escapes (shell and YAML single quotes). */
  rawQuotes: string[];
  /** Strings that may span lines (Go raw strings, text blocks). */
  multiLine: Array<[string, string]>;
  /** A quote opens a string only if it closes on the same line (`'` is a rune, a char or a lifetime). */
  quotesMustClose?: boolean;
}

const NONE: LexRules = { line: [], wordStart: [], lineStart: [], block: [], quotes: [], rawQuotes: [], multiLine: [] };
const C_BLOCK: [string, string] = ["/*", "*/"];
const HTML_BLOCK: [string, string] = ["<!--", "-->"];

const RULES: Record<TextSyntax, LexRules> = {
  "c-like": {
    ...NONE,
    line: ["//"],
    block: [C_BLOCK, HTML_BLOCK],
    quotes: ['"', "'"],
    multiLine: [
      ['"""', '"""'],
      ["`", "`"],
      ['@"', '"'],
    ],
    quotesMustClose: true,
  },
  php: { ...NONE, line: ["//"], wordStart: ["#"], block: [C_BLOCK], quotes: ['"', "'"] },
  hash: { ...NONE, wordStart: ["#"], quotes: ['"'], rawQuotes: ["'"] },
  yaml: { ...NONE, wordStart: ["#"], quotes: ['"'], rawQuotes: ["'"] },
  toml: {
    ...NONE,
    line: ["#"],
    quotes: ['"'],
    rawQuotes: ["'"],
    multiLine: [
      ['"""', '"""'],
      ["'''", "'''"],
    ],
  },
  ini: { ...NONE, lineStart: [";", "#"], wordStart: [";", "#"], quotes: ['"'], rawQuotes: ["'"] },
  properties: { ...NONE, lineStart: ["#", "!"] },
  env: { ...NONE, wordStart: ["#"], quotes: ['"'], rawQuotes: ["'"] },
  json: { ...NONE, line: ["//"], block: [C_BLOCK], quotes: ['"'] },
  sql: { ...NONE, line: ["--"], block: [C_BLOCK], quotes: ['"'], rawQuotes: ["'"] },
  markup: { ...NONE, block: [HTML_BLOCK] },
  batch: { ...NONE, lineStart: ["REM ", "rem ", "@REM ", "@rem ", "::"] },
  unknown: { ...NONE, lineStart: ["#", "//", "/*", "*", "--", ";", "<!--", "REM ", "rem "] },
};

/** Comment ranges of one file, queried by offset. */
export class CommentMap {
  /** Sorted, non-overlapping [start, end) pairs. */
  private readonly ranges: Array<[number, number]>;

  constructor(text: string, syntax: TextSyntax) {
    this.ranges = lexComments(text, RULES[syntax]);
  }

  isComment(offset: number): boolean {
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, end] = this.ranges[mid]!;
      if (offset < start) hi = mid - 1;
      else if (offset >= end) lo = mid + 1;
      else return true;
    }
    return false;
  }
}

function lexComments(text: string, rules: LexRules): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const markers = [
    ...rules.line,
    ...rules.wordStart,
    ...rules.lineStart,
    ...rules.block.map(([open]) => open),
    ...rules.quotes,
    ...rules.rawQuotes,
    ...rules.multiLine.map(([open]) => open),
  ];
  // Only characters that can start a marker need a closer look.
  const firstChars = new Set(markers.map((m) => m[0]!));
  const length = text.length;
  let atLineStart = true;
  let i = 0;
  const endOfLine = (from: number): number => {
    const nl = text.indexOf("\n", from);
    return nl < 0 ? length : nl;
  };
  const startsAt = (marker: string, at: number): boolean => text.startsWith(marker, at);

  while (i < length) {
    const ch = text[i]!;
    if (ch === "\n") {
      atLineStart = true;
      i++;
      continue;
    }
    if (!firstChars.has(ch)) {
      if (ch !== " " && ch !== "\t" && ch !== "\r") atLineStart = false;
      i++;
      continue;
    }
    const wordStart = atLineStart || i === 0 || /\s/.test(text[i - 1]!);
    const block = rules.block.find(([open]) => startsAt(open, i));
    if (block) {
      const close = text.indexOf(block[1], i + block[0].length);
      const end = close < 0 ? length : close + block[1].length;
      ranges.push([i, end]);
      i = end;
      atLineStart = false;
      continue;
    }
    const lineComment =
      rules.line.some((m) => startsAt(m, i)) ||
      (wordStart && rules.wordStart.some((m) => startsAt(m, i) && !startsAt("#[", i))) ||
      (atLineStart && rules.lineStart.some((m) => startsAt(m, i)));
    if (lineComment) {
      const end = endOfLine(i);
      ranges.push([i, end]);
      i = end;
      continue;
    }
    const multi = rules.multiLine.find(([open]) => startsAt(open, i));
    if (multi) {
      const close = text.indexOf(multi[1], i + multi[0].length);
      i = close < 0 ? length : close + multi[1].length;
      atLineStart = false;
      continue;
    }
    const escapes = rules.quotes.includes(ch);
    if (escapes || rules.rawQuotes.includes(ch)) {
      const close = closingQuote(text, i, ch, escapes);
      atLineStart = false;
      if (close < 0) {
        // An unclosed quote: a rune or lifetime where quotes must close, else a string to the end of the line.
        i = rules.quotesMustClose ? i + 1 : endOfLine(i);
      } else {
        i = close + 1;
      }
      continue;
    }
    atLineStart = false;
    i++;
  }
  return ranges;
}

/** Index of the quote closing the string opened at `open`, on the same line; -1 if none. */
function closingQuote(text: string, open: number, quote: string, escapes: boolean): number {
  for (let j = open + 1; j < text.length; j++) {
    const c = text[j]!;
    if (c === "\n") return -1;
    if (escapes && c === "\\") {
      j++;
      continue;
    }
    if (c === quote) return j;
  }
  return -1;
}
