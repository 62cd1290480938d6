/**
 * The emulated shell's arguments and paths: option parsing as git and comfy
 * read them, the working directory a `cd` leads to, a clone's default
 * directory, and where in the file a word (or part of one) is written.
 */
import { posix } from "node:path";
import type { ShellWord } from "./words.js";

export interface Span {
  start: number;
  end: number;
}

/** Deeper than this, an emulated working directory is not a real checkout: `cd x && cd x && …` stops growing it (and stays linear). */
const MAX_DIR_LENGTH = 4096;

/** Resolves a directory against the working directory; unknown parts stay as written. */
export function resolveDir(cwd: string, path: string): string {
  if (path === "" || path === ".") return cwd;
  const absolute = path.startsWith("/") || path.startsWith("~");
  if (!absolute && cwd.length + path.length > MAX_DIR_LENGTH) return cwd;
  // A plain name below a normalised directory needs no normalising (that would cost the path's length on every `cd`).
  if (!absolute && cwd !== "." && /^[^/.][^/]*$/.test(path) && !cwd.endsWith("/")) return `${cwd}/${path}`;
  const joined = absolute ? path : posix.join(cwd, path);
  const normal = posix.normalize(joined);
  return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}

export function defaultCloneDir(url: string): string {
  const path = url.replace(/[#?].*$/, "").replace(/\/+$/, "");
  return (path.split(/[/:]/).pop() ?? "").replace(/\.git$/i, "");
}

export function spanner(raw: string, base: number): (part?: string) => Span {
  return (part) => {
    const index = part ? raw.indexOf(part) : -1;
    return index >= 0
      ? { start: base + index, end: base + index + part!.length }
      : { start: base, end: base + raw.length };
  };
}

export interface ParsedArgs {
  options: Array<{ name: string; value?: ShellWord }>;
  positional: ShellWord[];
  afterDashDash: ShellWord[];
}

export function parseArgs(words: ShellWord[], text: string, withArg: ReadonlySet<string>): ParsedArgs {
  const parsed: ParsedArgs = { options: [], positional: [], afterDashDash: [] };
  let dashDash = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const value = word.value;
    if (dashDash) parsed.afterDashDash.push(word);
    else if (value === "--") dashDash = true;
    else if (value.startsWith("--")) {
      const eq = value.indexOf("=");
      if (eq > 0) parsed.options.push({ name: value.slice(0, eq), value: subWord(word, text, value.slice(eq + 1)) });
      else if (withArg.has(value) && words[i + 1]) parsed.options.push({ name: value, value: words[++i]! });
      else parsed.options.push({ name: value });
    } else if (value.startsWith("-") && value.length > 1) {
      for (let k = 1; k < value.length; k++) {
        const name = `-${value[k]}`;
        if (!withArg.has(name)) {
          parsed.options.push({ name });
          continue;
        }
        const attached = value.slice(k + 1);
        if (attached) parsed.options.push({ name, value: subWord(word, text, attached) });
        else if (words[i + 1]) parsed.options.push({ name, value: words[++i]! });
        break;
      }
    } else parsed.positional.push(word);
  }
  return parsed;
}

export function lastOption(parsed: ParsedArgs, names: readonly string[]): ShellWord | undefined {
  return parsed.options.filter((o) => names.includes(o.name) && o.value).pop()?.value;
}

/** The part of a word that holds `value` (an option's value after `=`, a refspec's source). */
export function subWord(word: ShellWord, text: string, value: string): ShellWord {
  const raw = text.slice(word.start, word.end);
  const index = raw.lastIndexOf(value);
  return {
    value,
    start: index >= 0 ? word.start + index : word.start,
    end: index >= 0 ? word.start + index + value.length : word.end,
  };
}
