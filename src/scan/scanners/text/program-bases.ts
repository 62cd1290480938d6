/**
 * Where code builds a request on a base: which files are program source
 * (by extension, or a shell script by its first line), the base expression
 * before a `/run` path, and the command a shell script sends it with.
 */
import { type HttpMethod, methodFromName } from "./http-methods.js";
import type { RunPath } from "./run-paths.js";

/** Source code in a language with no scanner of its own: where requests are built on a base (not config, data or docs). */
const PROGRAM_EXTENSIONS =
  /\.(?:go|cs|fs|vb|java|kt|kts|scala|groovy|php|rs|swift|dart|c|cc|cpp|h|hpp|m|ex|exs|erl|lua|pl|pm|r|jl|cr|nim|zig|clj|hs|ml|sh|bash|zsh|ps1|rb)$/i;

/** A script without an extension (`bin/render`) says what it is on its first line. */
const SHELL_SHEBANG = /^#!\s*\S*(?:\/|env\s+)(?:ba|z|k|da)?sh\b/;

export function isProgramSource(file: string, text: string): boolean {
  return PROGRAM_EXTENSIONS.test(file) || SHELL_SHEBANG.test(text);
}

/** Whether a file is a shell script, by its extension or its first line. */
export function isShellScript(file: string, text: string): boolean {
  return /\.(?:sh|bash|zsh|ksh)$/i.test(file) || SHELL_SHEBANG.test(text);
}

/**
 * The base a `/run` path is built on: the one placeholder before it
 * (`${base}`, `#{@base_url}`, `{_settings.Endpoint}`) or the operand before a
 * `+` concatenation. Undefined when the path is not built on a base, or on
 * more than one part (RunPod's `%s/%s/run`).
 */
export function baseExpressionOf(text: string, path: RunPath): string | undefined {
  const prefix = path.text.slice(0, path.text.search(/\/(?:api\/)?run(?:\?|$)/));
  if (prefix !== "") {
    const inner = /^(?:\$\{|#\{|\{\{|\{|\$\(|\$)([^{}()%<>\s]+?)(?:\}\}|\}|\))?$/.exec(prefix);
    return inner?.[1];
  }
  const before = text.slice(Math.max(0, path.start - 80), path.start).replace(/["'`]$/, "");
  return /([A-Za-z_@$][\w.@$]*(?:->[\w]+)*)\s*(?:\+|\.\.|\.)\s*$/.exec(before)?.[1];
}

/** The partner platform's serverless API also ends in /run (`fmt.Sprintf("%s/run", runpodURL)`). */
export function namesPartnerPlatform(statement: string): boolean {
  return /runpod/i.test(statement);
}

/**
 * In a shell script, the command a URL is an argument of may be the app's own
 * wrapper (`api_post "$API/run" "$body"`, defined over curl elsewhere): its
 * name says the method when the statement shows none.
 */
export function sendingCommandMethod(statement: string, anchor: number): HttpMethod | undefined {
  const before = statement.slice(0, anchor);
  const command = /(?:^|[;&|({\n]|\$\(|`)\s*(?:[A-Za-z_]\w*=\S*\s+)*([A-Za-z_][\w.-]*)(?=\s)[^;&|(){}\n`]*$/.exec(
    before,
  )?.[1];
  return command && command !== "curl" && command !== "wget" ? methodFromName(command) : undefined;
}
