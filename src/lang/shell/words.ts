/**
 * A small POSIX shell reader: enough to find commands in scripts, RUN lines
 * and CI steps. It splits `&&`, `||`, `;`, `|`, `&` chains and newlines into
 * simple commands, joins `\` continuations, drops comments and redirections,
 * and keeps every word's offsets so findings land on the exact text.
 * Not a full shell: expansions are kept as written.
 */

export interface ShellWord {
  /** The word with quotes and escapes removed; `$VAR` and `$(...)` kept as written. */
  value: string;
  /** Offsets in the text given to `readShell`, covering the word as written. */
  start: number;
  end: number;
}

export interface ShellCommand {
  words: ShellWord[];
}

const OPERATOR_CHARS = new Set(["&", "|", ";", "(", ")", "\n"]);

export function readShell(text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let words: ShellWord[] = [];
  let value = "";
  let start = -1;
  /** The next word is a redirection target, not an argument. */
  let redirectTarget = false;

  const endWord = (end: number): void => {
    if (start >= 0) {
      if (redirectTarget) redirectTarget = false;
      else words.push({ value, start, end });
    }
    value = "";
    start = -1;
  };
  const endCommand = (): void => {
    if (words.length > 0) commands.push({ words });
    words = [];
  };
  const begin = (i: number): void => {
    if (start < 0) start = i;
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[i + 1];
      if (next === "\n") {
        i += 2;
        continue;
      }
      if (next === "\r" && text[i + 2] === "\n") {
        i += 3;
        continue;
      }
      begin(i);
      value += next ?? "";
      i += 2;
      continue;
    }
    if (c === "'") {
      begin(i);
      const close = text.indexOf("'", i + 1);
      const stop = close < 0 ? text.length : close;
      value += text.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      begin(i);
      i = readDoubleQuoted(text, i + 1, (s) => (value += s));
      continue;
    }
    if (c === "$" && (text[i + 1] === "(" || text[i + 1] === "{")) {
      // `$(...)`, `${...}` and CI expressions `${{ ... }}` stay inside the word, spaces and all.
      begin(i);
      const close = matchingClose(text, i + 1);
      value += text.slice(i, close);
      i = close;
      continue;
    }
    if (c === "`") {
      begin(i);
      const close = text.indexOf("`", i + 1);
      const stop = close < 0 ? text.length : close + 1;
      value += text.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === "#" && start < 0) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === ">" || c === "<") {
      // `2>&1`, `>/dev/null`, `<<EOF`: the operator and its target are not arguments.
      if (start >= 0 && /^\d+$/.test(value)) {
        value = "";
        start = -1;
      } else endWord(i);
      let j = i + 1;
      while (j < text.length && /[<>&|]/.test(text[j]!)) j++;
      if (text[j] === "-" && text.slice(i, j) === "<<") j++;
      if (text[j - 1] === "&" && /[\d-]/.test(text[j] ?? "")) {
        // `2>&1`, `>&-`: a file descriptor follows at once, not a target word.
        while (j < text.length && /[\d-]/.test(text[j]!)) j++;
        redirectTarget = false;
      } else redirectTarget = true;
      i = j;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      endWord(i);
      i++;
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      endWord(i);
      endCommand();
      i++;
      continue;
    }
    begin(i);
    value += c;
    i++;
  }
  endWord(text.length);
  endCommand();
  return commands;
}

/** Reads a double-quoted string from just after the opening quote; returns the index after the closing one. */
function readDoubleQuoted(text: string, from: number, append: (s: string) => void): number {
  let i = from;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return i + 1;
    if (c === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === "\n") {
        i += 2;
        continue;
      }
      append(/[$`"\\]/.test(next) ? next : `\\${next}`);
      i += 2;
      continue;
    }
    if (c === "$" && (text[i + 1] === "(" || text[i + 1] === "{")) {
      const close = matchingClose(text, i + 1);
      append(text.slice(i, close));
      i = close;
      continue;
    }
    append(c);
    i++;
  }
  return i;
}

/** Index just after the bracket matching the one at `open`, skipping nested brackets and quotes. */
export function matchingClose(text: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "{": "}" };
  const stack: string[] = [];
  let i = open;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "(" || c === "{") stack.push(pairs[c]!);
    else if (c === ")" || c === "}") {
      if (stack[stack.length - 1] === c) stack.pop();
      if (stack.length === 0) return i + 1;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return text.length;
      i = close;
    }
    i++;
  }
  return text.length;
}
