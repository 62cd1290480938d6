/**
 * A lenient Python tokenizer: names, numbers, operators, strings (every
 * prefix and quote style, f-strings with nested expressions) and logical
 * line ends, with comments kept apart. It never fails: malformed input
 * still yields tokens, so a scan goes on.
 */

export interface PyPlainToken {
  kind: "name" | "number" | "op" | "newline";
  start: number;
  end: number;
  value: string;
}

export interface PyStringToken {
  kind: "string";
  start: number;
  end: number;
  /** Source text of the whole literal, prefix and quotes included. */
  value: string;
  /** Lower-case prefix letters, e.g. "", "f", "rb". */
  prefix: string;
  quote: string;
  /** Offsets of the text between the quotes. */
  bodyStart: number;
  bodyEnd: number;
}

export type PyToken = PyPlainToken | PyStringToken;

export interface PyComment {
  start: number;
  end: number;
  text: string;
}

export interface PyTokens {
  text: string;
  tokens: PyToken[];
  comments: PyComment[];
  /** For each bracket token index, the index of its partner (or -1 when unbalanced). */
  partner: Int32Array;
}

const STRING_PREFIXES = new Set(["r", "u", "b", "br", "rb", "f", "fr", "rf", "t", "tr", "rt"]);
const THREE_CHAR_OPERATORS = new Set(["**=", "//=", ">>=", "<<=", "..."]);
const TWO_CHAR_OPERATORS = new Set([
  "->",
  ":=",
  "==",
  "!=",
  "<=",
  ">=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "@=",
  "**",
  "//",
  "<<",
  ">>",
]);
const OPENERS = "([{";
const CLOSERS = ")]}";

/** Tokenizes text[from, to); offsets stay those of the whole text. */
export function tokenizePython(text: string, from = 0, to = text.length): PyTokens {
  const tokens: PyToken[] = [];
  const comments: PyComment[] = [];
  let depth = 0;
  let pos = from;
  const pushNewline = (at: number): void => {
    const last = tokens[tokens.length - 1];
    if (last && last.kind !== "newline") tokens.push({ kind: "newline", start: at, end: at, value: "" });
  };
  while (pos < to) {
    const c = text[pos]!;
    if (c === " " || c === "\t" || c === "\f" || c === "\r") {
      pos++;
    } else if (c === "\n") {
      if (depth === 0) pushNewline(pos);
      pos++;
    } else if (c === "\\" && (text[pos + 1] === "\n" || (text[pos + 1] === "\r" && text[pos + 2] === "\n"))) {
      pos += text[pos + 1] === "\n" ? 2 : 3;
    } else if (c === "#") {
      let end = text.indexOf("\n", pos);
      if (end < 0 || end > to) end = to;
      comments.push({ start: pos, end, text: text.slice(pos, end).replace(/\r$/, "") });
      pos = end;
    } else if (c === '"' || c === "'") {
      pos = pushString(text, pos, pos, "", to, tokens);
    } else if (isNameStart(text.charCodeAt(pos))) {
      let end = pos + 1;
      while (end < to && isNamePart(text.charCodeAt(end))) end++;
      const word = text.slice(pos, end);
      if ((text[end] === '"' || text[end] === "'") && STRING_PREFIXES.has(word.toLowerCase())) {
        pos = pushString(text, pos, end, word.toLowerCase(), to, tokens);
      } else {
        tokens.push({ kind: "name", start: pos, end, value: word });
        pos = end;
      }
    } else if (isDigit(text.charCodeAt(pos)) || (c === "." && isDigit(text.charCodeAt(pos + 1)))) {
      let end = pos + 1;
      while (
        end < to &&
        (isNamePart(text.charCodeAt(end)) ||
          text[end] === "." ||
          ((text[end] === "+" || text[end] === "-") && (text[end - 1] === "e" || text[end - 1] === "E")))
      )
        end++;
      tokens.push({ kind: "number", start: pos, end, value: text.slice(pos, end) });
      pos = end;
    } else {
      const op = THREE_CHAR_OPERATORS.has(text.substr(pos, 3))
        ? text.substr(pos, 3)
        : TWO_CHAR_OPERATORS.has(text.substr(pos, 2))
          ? text.substr(pos, 2)
          : c;
      if (OPENERS.includes(op)) depth++;
      else if (CLOSERS.includes(op)) depth = Math.max(0, depth - 1);
      tokens.push({ kind: "op", start: pos, end: pos + op.length, value: op });
      pos += op.length;
    }
  }
  pushNewline(to);
  return { text, tokens, comments, partner: pairBrackets(tokens) };
}

function pushString(
  text: string,
  start: number,
  quoteAt: number,
  prefix: string,
  to: number,
  tokens: PyToken[],
): number {
  const q = text[quoteAt]!;
  const quote = text.startsWith(q.repeat(3), quoteAt) ? q.repeat(3) : q;
  const bodyStart = quoteAt + quote.length;
  const formatted = prefix.includes("f") || prefix.includes("t");
  const { bodyEnd, end } = scanStringBody(text, bodyStart, quote, formatted, to);
  tokens.push({ kind: "string", start, end, value: text.slice(start, end), prefix, quote, bodyStart, bodyEnd });
  return end;
}

/** Finds the closing quote; in f-strings, replacement fields may hold nested strings and brackets. */
function scanStringBody(
  text: string,
  pos: number,
  quote: string,
  formatted: boolean,
  to: number,
): { bodyEnd: number; end: number } {
  const singleLine = quote.length === 1;
  while (pos < to) {
    const c = text[pos]!;
    if (c === "\\") {
      pos += 2;
    } else if (singleLine && c === "\n") {
      return { bodyEnd: pos, end: pos };
    } else if (text.startsWith(quote, pos)) {
      return { bodyEnd: pos, end: pos + quote.length };
    } else if (formatted && c === "{") {
      pos = text[pos + 1] === "{" ? pos + 2 : skipReplacementField(text, pos + 1, singleLine, to);
    } else {
      pos++;
    }
  }
  return { bodyEnd: Math.min(pos, to), end: Math.min(pos, to) };
}

/** Skips an f-string replacement field from just after its `{` to just after its `}`. */
export function skipReplacementField(text: string, pos: number, singleLine: boolean, to: number): number {
  let depth = 1;
  while (pos < to) {
    const c = text[pos]!;
    if (singleLine && c === "\n") return pos;
    if (c === '"' || c === "'") {
      let p = pos - 1;
      while (p >= 0 && /[a-zA-Z]/.test(text[p]!)) p--;
      const prefix = text.slice(p + 1, pos).toLowerCase();
      const q = text.startsWith(c.repeat(3), pos) ? c.repeat(3) : c;
      pos = scanStringBody(text, pos + q.length, q, prefix.includes("f"), to).end;
      continue;
    }
    if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c) && --depth === 0) return pos + 1;
    pos++;
  }
  return pos;
}

function pairBrackets(tokens: readonly PyToken[]): Int32Array {
  const partner = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  tokens.forEach((token, i) => {
    if (token.kind !== "op") return;
    if (OPENERS.includes(token.value)) stack.push(i);
    else if (CLOSERS.includes(token.value)) {
      const open = stack.pop();
      if (open === undefined) return;
      partner[open] = i;
      partner[i] = open;
    }
  });
  return partner;
}

// Character codes, not regexes: the tokenizer's hot loop runs once per character.
function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127;
}

function isNamePart(code: number): boolean {
  return isNameStart(code) || isDigit(code);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isString(token: PyToken | undefined): token is PyStringToken {
  return token?.kind === "string";
}

export function isOp(token: PyToken | undefined, value: string): boolean {
  return token?.kind === "op" && token.value === value;
}

export function isName(token: PyToken | undefined, value?: string): boolean {
  return token?.kind === "name" && (value === undefined || token.value === value);
}

/** A piece of an f-string: literal text, or a replacement field's expression (offsets in the file). */
export type FStringPart = { kind: "text"; text: string } | { kind: "expr"; start: number; end: number };

/** Splits an f-string body into literal text and replacement-field expressions. */
export function fStringParts(text: string, token: PyStringToken): FStringPart[] {
  const parts: FStringPart[] = [];
  const raw = token.prefix.includes("r");
  let literal = "";
  let pos = token.bodyStart;
  const end = token.bodyEnd;
  while (pos < end) {
    const c = text[pos]!;
    if ((c === "{" || c === "}") && text[pos + 1] === c) {
      literal += c;
      pos += 2;
    } else if (c === "{") {
      if (literal) parts.push({ kind: "text", text: raw ? literal : decodeEscapes(literal) });
      literal = "";
      const close = skipReplacementField(text, pos + 1, false, end);
      parts.push({ kind: "expr", start: pos + 1, end: expressionEnd(text, pos + 1, close - 1) });
      pos = close;
    } else if (c === "\\" && !raw) {
      literal += text.slice(pos, pos + 2);
      pos += 2;
    } else {
      literal += c;
      pos++;
    }
  }
  if (literal) parts.push({ kind: "text", text: raw ? literal : decodeEscapes(literal) });
  return parts;
}

/** The end of a replacement field's expression: before a top-level `!r`, `:spec` or self-documenting `=`. */
function expressionEnd(text: string, start: number, end: number): number {
  let depth = 0;
  for (let pos = start; pos < end; pos++) {
    const c = text[pos]!;
    if (c === '"' || c === "'") {
      const q = text.startsWith(c.repeat(3), pos) ? c.repeat(3) : c;
      pos = scanStringBody(text, pos + q.length, q, false, end).end - 1;
    } else if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c)) depth--;
    else if (depth === 0 && c === "!" && text[pos + 1] !== "=") return pos;
    else if (depth === 0 && c === ":" && text[pos + 1] !== "=") return pos;
    else if (depth === 0 && c === "=" && !"=!<>".includes(text[pos - 1]!) && text[pos + 1] !== "=") return pos;
  }
  return end;
}

/** The value of a plain (non-f) string literal. */
export function stringValue(text: string, token: PyStringToken): string {
  const body = text.slice(token.bodyStart, token.bodyEnd);
  return token.prefix.includes("r") ? body : decodeEscapes(body);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "\n": "",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

function decodeEscapes(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])/g, (all, e: string) => {
    if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    return SIMPLE_ESCAPES[e] ?? all;
  });
}
