/**
 * A small shell interpreter over `readShell`: it follows the working
 * directory (`cd`, `pushd`, `popd`), variables set in the text (`NAME=value`,
 * `export`, `declare`, …, and whatever the caller sets: Dockerfile ARG/ENV,
 * CI `env:`), unwraps `sudo`/`env`/`nohup` and `sh -c "<script>"`, and
 * hands every other command to a handler with its words. A value read from a
 * variable keeps the offsets where it is written, so a finding about it lands there.
 */
import { posix } from "node:path";
import { resolveDir, type Span, spanner } from "./args.js";
import { matchingClose, readShell, type ShellWord } from "./words.js";

/** A variable's value and the file offsets where it is written. */
export interface VariableValue {
  value: string;
  start: number;
  /** The file text at [start, start + raw.length), for locating parts of the value. */
  raw: string;
}

/** A script being read: its text, where it sits in the file, and the working directory. */
export class ScriptContext {
  readonly dirStack: string[] = [];

  constructor(
    readonly text: string,
    /** Maps an offset in `text` to an offset in the file. */
    readonly toSource: (offset: number) => number,
    public cwd: string,
  ) {}
}

/** A word after expansion, and how to find a part of it in the file. */
export interface Expanded {
  value: string;
  /** Set when the word is a variable the file does not define. */
  unresolved?: string;
  span(part?: string): Span;
}

/** Receives each command the interpreter does not handle itself; `program` is the command's base name. */
export type CommandHandler = (program: string, args: ShellWord[], context: ScriptContext) => void;

const ASSIGNMENT = /^[A-Za-z_]\w*=/;
const WRAPPERS = new Set(["sudo", "env", "time", "exec", "nohup", "command", "builtin", "xargs"]);
const WRAPPER_OPTIONS_WITH_ARG = new Set(["-u", "-g", "-C", "-h", "-p", "-U", "-E"]);
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ash", "ksh"]);
const RUN_FLAG = /^--(mount|network|security|device)=/;
const DECLARATIONS = new Set(["export", "declare", "local", "readonly", "typeset"]);

/** `$NAME`, `${NAME}`, `${NAME:-default}`, `${{ env.NAME }}` as a whole word. */
const WHOLE_VARIABLE =
  /^\$(?:\{\{\s*([A-Za-z_]\w*)\.([A-Za-z_][\w-]*)\s*\}\}|\{([A-Za-z_]\w*)(?::?[-=]([^}]*))?\}|([A-Za-z_]\w*))$/;
const ANY_VARIABLE =
  /\$(?:\{\{\s*([A-Za-z_]\w*)\.([A-Za-z_][\w-]*)\s*\}\}|\{([A-Za-z_]\w*)(?::?[-=]([^}]*))?\}|([A-Za-z_]\w*))/g;

export interface InterpreterOptions {
  /** Also hand the commands inside `$(…)` to the handler (`id=$(curl -X POST …)`). */
  commandSubstitutions?: boolean;
}

export class ShellInterpreter {
  private readonly variables = new Map<string, VariableValue>();

  constructor(
    private readonly handler: CommandHandler,
    private readonly options: InterpreterOptions = {},
  ) {}

  setVariable(name: string, value: VariableValue): void {
    this.variables.set(name, value);
  }

  /** A variable set so far (in the text read, or by the caller). */
  variable(name: string): VariableValue | undefined {
    return this.variables.get(name);
  }

  /** Reads every command of a script; the context's cwd follows `cd`. */
  run(context: ScriptContext): void {
    for (const command of readShell(context.text)) this.command(command.words, context);
  }

  /** A `NAME=value` word: the value is written right after the `=`. */
  assign(word: ShellWord, context: ScriptContext): void {
    const eq = word.value.indexOf("=");
    const name = word.value.slice(0, eq);
    const rawWord = context.text.slice(word.start, word.end);
    const rawEq = rawWord.indexOf("=");
    let rawValue = rawWord.slice(rawEq + 1);
    let skip = 0;
    if (/^(["']).*\1$/s.test(rawValue) && rawValue.length >= 2) {
      rawValue = rawValue.slice(1, -1);
      skip = 1;
    }
    const value = this.substitute(word.value.slice(eq + 1)).value;
    this.variables.set(name, { value, start: context.toSource(word.start + rawEq + 1 + skip), raw: rawValue });
  }

  /** Expands variables the file defines. */
  expand(word: ShellWord, context: ScriptContext): Expanded {
    const raw = context.text.slice(word.start, word.end);
    const here = mappedSpanner(raw, word.start, context);
    const whole = WHOLE_VARIABLE.exec(word.value);
    if (whole) {
      const [, scope, scopedName, braced, fallback, bare] = whole;
      const name = scope ? (scope === "env" ? scopedName : undefined) : (braced ?? bare);
      const definition = name === undefined ? undefined : this.variables.get(name);
      if (definition) return { value: definition.value, span: spanner(definition.raw, definition.start) };
      if (fallback) return { value: unquoted(fallback), span: here };
      return { value: word.value, unresolved: word.value, span: here };
    }
    if (!word.value.includes("$")) return { value: word.value, span: here };
    const { value, unresolved } = this.substitute(word.value);
    return { value, span: here, ...(unresolved ? { unresolved: word.value } : {}) };
  }

  private command(all: ShellWord[], context: ScriptContext): void {
    if (this.options.commandSubstitutions) for (const word of all) this.substitutions(word, context);
    let i = 0;
    while (i < all.length && RUN_FLAG.test(all[i]!.value)) i++;
    const assignments: ShellWord[] = [];
    while (i < all.length && ASSIGNMENT.test(all[i]!.value)) assignments.push(all[i++]!);
    if (i === all.length) {
      for (const word of assignments) this.assign(word, context);
      return;
    }
    while (i < all.length && WRAPPERS.has(all[i]!.value)) {
      i++;
      while (i < all.length && (all[i]!.value.startsWith("-") || ASSIGNMENT.test(all[i]!.value))) {
        i += WRAPPER_OPTIONS_WITH_ARG.has(all[i]!.value) ? 2 : 1;
      }
    }
    const first = all[i];
    if (!first) return;
    const program = posix.basename(first.value);
    const args = all.slice(i + 1);
    if (DECLARATIONS.has(program)) {
      for (const word of args) if (ASSIGNMENT.test(word.value)) this.assign(word, context);
      return;
    }
    switch (program) {
      case "cd":
      case "pushd": {
        const target = args.find((w) => !w.value.startsWith("-") || w.value === "-");
        if (target?.value === "-") return;
        if (program === "pushd") context.dirStack.push(context.cwd);
        context.cwd = target ? resolveDir(context.cwd, this.expand(target, context).value) : "~";
        return;
      }
      case "popd":
        context.cwd = context.dirStack.pop() ?? context.cwd;
        return;
    }
    if (SHELLS.has(program)) this.nestedShell(args, context);
    else this.handler(program, args, context);
  }

  /** `bash -c "<script>"`: read the script in a subshell (its `cd` does not leak). */
  private nestedShell(args: ShellWord[], context: ScriptContext): void {
    const flag = args.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w.value));
    const script = flag >= 0 ? args[flag + 1] : undefined;
    if (!script) return;
    const raw = context.text.slice(script.start, script.end);
    const base = script.start + (/^["']/.test(raw) ? 1 : 0);
    this.run(new ScriptContext(script.value, (offset) => context.toSource(base + offset), context.cwd));
  }

  /** The scripts of a word's `$(…)` substitutions (not `$((…))` arithmetic), read in place. */
  private substitutions(word: ShellWord, context: ScriptContext): void {
    const raw = context.text.slice(word.start, word.end);
    for (let at = raw.indexOf("$("); at >= 0; at = raw.indexOf("$(", at + 2)) {
      if (raw[at + 2] === "(") continue;
      const close = matchingClose(raw, at + 1);
      const offset = word.start + at + 2;
      this.run(new ScriptContext(raw.slice(at + 2, close - 1), (o) => context.toSource(offset + o), context.cwd));
      at = close - 2;
    }
  }

  private substitute(text: string): { value: string; unresolved: boolean } {
    let unresolved = false;
    const value = text.replace(
      ANY_VARIABLE,
      (match, scope?: string, scopedName?: string, braced?: string, fallback?: string, bare?: string) => {
        const name = scope ? (scope === "env" ? scopedName : undefined) : (braced ?? bare);
        const definition = name === undefined ? undefined : this.variables.get(name);
        if (definition) return definition.value;
        if (fallback) return unquoted(fallback);
        unresolved = true;
        return match;
      },
    );
    return { value, unresolved };
  }
}

/** `${BASE:-"https://…"}`: the default is written in quotes of its own. */
function unquoted(text: string): string {
  return /^(["'])(.*)\1$/s.exec(text)?.[2] ?? text;
}

/**
 * Spans of a word or part of it in the file, both ends mapped: text that
 * code generated may not be written in one piece (a constant filled in).
 */
function mappedSpanner(raw: string, start: number, context: ScriptContext): (part?: string) => Span {
  return (part) => {
    const index = part ? raw.indexOf(part) : -1;
    const from = index >= 0 ? start + index : start;
    const length = index >= 0 ? part!.length : raw.length;
    const first = context.toSource(from);
    const last = context.toSource(from + Math.max(0, length - 1)) + 1;
    return { start: first, end: last > first ? last : first + length };
  };
}
