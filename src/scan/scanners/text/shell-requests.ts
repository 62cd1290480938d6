/**
 * Shell requests whose V1 path comes from a variable: `curl -X POST
 * "${COMFY_BASE}${RUN_PATH}"` with `RUN_PATH=/run` and the base set in a
 * sourced `lib.sh`. The script is read with the shell interpreter, the files
 * it sources first where it sources them, so each request's URL is expanded
 * the way the shell would; the finding goes on the request's line. A variable
 * that holds the bare path (`RUN_PATH=/run`) is not a request itself.
 */
import { HOLE, type HostSet, isVendorHost, parseUrlText, type V1Endpoint, v1EndpointOf } from "../../../core/urls.js";
import { ScriptContext, ShellInterpreter } from "../../../lang/shell/interpreter.js";
import { sourcedFiles } from "../../../lang/shell/sourced-files.js";
import type { ShellWord } from "../../../lang/shell/words.js";
import type { RepoFacts } from "../../scanner.js";
import { type HttpMethod, methodFromName, methodInStatement } from "./http-methods.js";
import { isShellScript } from "./program-bases.js";

export interface ShellRunUse {
  start: number;
  end: number;
  endpoint: V1Endpoint;
}

export interface ShellRequests {
  uses: ShellRunUse[];
  /** Assignments of the bare path (`RUN_PATH=/run`): definitions whose uses are the requests. */
  quiet: Array<{ start: number; end: number }>;
}

/** Programs that send the URL they are given, with their own rules for the method. */
const HTTP_PROGRAMS = new Set(["curl", "wget", "http", "https", "xh"]);
/** Words that open a compound command: the command follows them. */
const KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{"]);
/** A variable's whole value is the V1 run path alone, maybe with a query. */
const BARE_RUN_PATH = /^\/(?:api\/)?run\/?(?:\?[^\s]*)?$/;
/** A `NAME=/run` assignment line, with any declaration keyword and quotes. */
const PATH_ASSIGNMENT =
  /^[ \t]*(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*|typeset)[ \t]+)?[A-Za-z_]\w*=(["']?)(\/(?:api\/)?run\/?(?:\?[^\s"']*)?)\1[ \t]*(?:#.*)?$/gm;
const REFERENCE = /\$\{?([A-Za-z_]\w*)/g;
/** How deep sourced files are followed (a file that sources another). */
const MAX_SOURCE_DEPTH = 3;
/** How many variables deep a URL is followed to the path variable it is built from. */
const MAX_REFERENCE_DEPTH = 4;

/** Undefined when the file is not a shell script. */
export function shellRequestsOf(
  file: string,
  text: string,
  hosts: HostSet,
  repo: RepoFacts,
): ShellRequests | undefined {
  if (!isShellScript(file, text)) return undefined;
  const quiet = [...text.matchAll(PATH_ASSIGNMENT)].map((m) => {
    const start = m.index! + m[0].indexOf(m[2]!);
    return { start, end: start + m[2]!.length };
  });
  const uses: ShellRunUse[] = [];
  const reading: string[] = [];
  const interpreter: ShellInterpreter = new ShellInterpreter(
    (program, args, context) => {
      if (program === "source" || program === ".") {
        readSourced(args, context);
        return;
      }
      if (program === ":") {
        defaults(args);
        return;
      }
      if (reading.length > 0) return; // a sourced file's own requests are its findings
      request(program, args, context);
    },
    { commandSubstitutions: true },
  );

  const readSourced = (args: ShellWord[], context: ScriptContext): void => {
    const from = reading.at(-1) ?? file;
    const line = `source ${args.map((w) => context.text.slice(w.start, w.end)).join(" ")}`;
    if (reading.length >= MAX_SOURCE_DEPTH) return;
    for (const sourced of sourcedFiles(from, line, repo.files)) {
      const content = sourced === file || reading.includes(sourced) ? undefined : repo.read(sourced);
      if (content === undefined) continue;
      reading.push(sourced);
      try {
        interpreter.run(new ScriptContext(content, () => -1, context.cwd));
      } finally {
        reading.pop();
      }
    }
  };

  const request = (program: string, args: ShellWord[], context: ScriptContext): void => {
    if (KEYWORDS.has(program)) {
      const [next, ...rest] = args;
      if (next) request(next.value, rest, context);
      return;
    }
    const first = args[0];
    const last = args.at(-1);
    if (!first || !last) return;
    for (const word of args) {
      const raw = context.text.slice(word.start, word.end);
      if (!raw.includes("$") || /\/(?:api\/)?run\b/.test(raw) || !reachesPathVariable(raw, 0)) continue;
      const url = withHoles(interpreter.expand(word, context).value);
      const info = parseUrlText(url, hosts);
      if ((info.hostKind !== "legacy" && info.hostKind !== "current") || !isVendorHost(info)) continue;
      const commandStart = Math.min(first.start, word.start) - program.length - 1;
      const statement = context.text.slice(Math.max(0, commandStart), last.end);
      const method = methodOf(program, args, statement, word.start - Math.max(0, commandStart));
      const endpoint = v1EndpointOf(info, method ?? (info.queryKeys.has("run_id") ? "GET" : undefined));
      if (!endpoint || endpoint === "run-ambiguous") continue;
      uses.push({ start: context.toSource(word.start), end: context.toSource(word.end - 1) + 1, endpoint });
    }
  };

  /** `: "${COMFY_BASE:=https://…}"`: the shell's way to set a default. */
  const defaults = (args: ShellWord[]): void => {
    for (const word of args) {
      const m = /^\$\{([A-Za-z_]\w*):?=([^}]*)\}$/.exec(word.value);
      if (m && !interpreter.variable(m[1]!)) interpreter.setVariable(m[1]!, { value: m[2]!, start: -1, raw: m[2]! });
    }
  };

  /** The word is built, through its variables, on one that holds the bare run path. */
  const reachesPathVariable = (raw: string, depth: number): boolean => {
    if (depth > MAX_REFERENCE_DEPTH) return false;
    for (const [, name] of raw.matchAll(REFERENCE)) {
      const variable = interpreter.variable(name!);
      if (!variable) continue;
      if (BARE_RUN_PATH.test(variable.value)) return true;
      if (reachesPathVariable(variable.raw, depth + 1)) return true;
    }
    return false;
  };

  interpreter.run(new ScriptContext(text, (offset) => offset, "."));
  return { uses, quiet };
}

/**
 * The method of a request: the HTTP program's flags, or for the app's own
 * wrapper its name (`api_post "$URL"`) or a method word given to it (`api POST "$URL"`).
 */
function methodOf(program: string, args: ShellWord[], statement: string, anchor: number): HttpMethod | undefined {
  if (HTTP_PROGRAMS.has(program))
    return methodInStatement(statement, anchor) ?? (program === "wget" ? "GET" : undefined);
  const named = methodFromName(program);
  if (named) return named;
  const word = args.find((w) => w.value === "GET" || w.value === "POST");
  return word?.value as HttpMethod | undefined;
}

/** What the shell would fill in at run time (an unset variable, a command's output) is unknown. */
function withHoles(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "`") {
      const close = value.indexOf("`", i + 1);
      i = close < 0 ? value.length : close;
      out += HOLE;
      continue;
    }
    if (c !== "$") {
      out += c;
      continue;
    }
    const next = value[i + 1];
    if (next === "(" || next === "{") {
      const open = next;
      const close = open === "(" ? ")" : "}";
      let depth = 0;
      let j = i + 1;
      for (; j < value.length; j++) {
        if (value[j] === open) depth++;
        else if (value[j] === close && --depth === 0) break;
      }
      i = j;
      out += HOLE;
      continue;
    }
    const name = /^[A-Za-z_]\w*|^[0-9@*#?$!-]/.exec(value.slice(i + 1))?.[0];
    if (name) {
      i += name.length;
      out += HOLE;
    } else out += c;
  }
  return out;
}
