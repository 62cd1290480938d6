/**
 * The files a shell script reads in with `source` or `.`: a path relative to
 * the script (`"$(dirname "$0")/../lib/config.sh"`, `${BASH_SOURCE%/*}/env.sh`)
 * or to the repository root, and an env file (`source .env`), which is rarely
 * committed, also by its example's name (`.env.example`).
 */
import { posix } from "node:path";

const SOURCE_LINE = /^[ \t]*(?:source|\.)[ \t]+([^;#\n]+)/gm;
const ENV_FILE = /(^|\/)\.env(\.[\w.-]+)?$|\.env$/;

/** Whether the script sources anything at all (a cheap test before `sourcedFiles`). */
export function sourcesFiles(text: string): boolean {
  return /^\s*(?:source|\.)\s/m.test(text);
}

/**
 * The path after the expansion that names the script's own directory:
 * `$(dirname "$0")/`, `$(cd "$(dirname "$0")" && pwd)/`, `${BASH_SOURCE%/*}/`,
 * `${0%/*}/`, `$HERE/`. What the shell computes there is where the script is.
 */
function belowScriptDir(path: string): string {
  if (!path.startsWith("$")) return path;
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === "(" || c === "{") depth++;
    else if (c === ")" || c === "}") depth--;
    else if (c === "/" && depth === 0) {
      cut = i;
      break;
    }
  }
  return cut < 0 ? path : path.slice(cut + 1);
}

/** The repository files `file` sources, in the order its source lines name them. */
export function sourcedFiles(file: string, text: string, repoFiles: readonly string[]): string[] {
  const dir = posix.dirname(file);
  const sourced = [...text.matchAll(SOURCE_LINE)].map((m) => belowScriptDir(m[1]!.trim().replace(/["']/g, "")));
  const files = new Set<string>();
  for (const path of sourced) {
    const base = posix.basename(path);
    const isEnvFile = ENV_FILE.test(base);
    const candidates = repoFiles.filter(
      (f) => posix.basename(f) === base || (isEnvFile && posix.basename(f).startsWith(`${base}.`)),
    );
    for (const f of candidates)
      if (f === posix.normalize(posix.join(dir, path)) || f === posix.normalize(path) || isEnvFile) files.add(f);
  }
  return [...files];
}
