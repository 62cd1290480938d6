/**
 * Which bases a file's requests are built on count as the V1 base held in
 * the repository. A member or call (`settings.base`, `${cfg.apiBase}`) does
 * whenever the repository holds a V1 base; a bare variable does only when
 * a file the shell script sources assigns it a ComfyDeploy base, also as a
 * default (`source .env`, `. ./env.sh` exporting it, `. "$(dirname "$0")/../lib/config.sh"` with
 * `API="${API:-https://…}"`), or, since `.env` itself is rarely committed,
 * the repository's `.env.example`-style files beside it.
 */
import { posix } from "node:path";
import { findLegacyHostMentions, type HostSet, currentHostsAsLegacy } from "../../../core/urls.js";
import type { FileScanInput } from "../../scanner.js";

const BARE_NAME = /^[A-Za-z_]\w*$/;
const SOURCE_LINE = /^[ \t]*(?:source|\.)[ \t]+([^;#\n]+)/gm;
/** `"$(dirname "$0")/`, `$(dirname "${BASH_SOURCE[0]}")/`, `${BASH_SOURCE%/*}/`, `$HERE/`: the script's own directory. */
const SCRIPT_DIR = /^(?:\$\(dirname\s+[^)]*\)|\$\{BASH_SOURCE[^}]*\}|\$\{?\w+\}?)\//;
const ENV_FILE = /(^|\/)\.env(\.[\w.-]+)?$|\.env$/;

/**
 * How a request's base is known to be the V1 one: set by a file the script
 * sources (proven, like a base in the file itself), or only held somewhere
 * in the repository (a member base taken to be it, for review).
 */
export type HeldBase = "sourced" | "repository";

/** Which held base a request's base expression (the name or member before `/run`) is, if any. */
export function heldBaseOf(
  file: string,
  text: string,
  hosts: HostSet,
  repo: FileScanInput["repo"],
): (base: string) => HeldBase | undefined {
  const memberHeld = repo.legacyBaseHeld ?? false;
  const names = /^\s*(?:source|\.)\s/m.test(text) ? comfyEnvNames(file, text, hosts, repo) : new Set<string>();
  return (base) =>
    BARE_NAME.test(base) ? (names.has(base) ? "sourced" : undefined) : memberHeld ? "repository" : undefined;
}

/** Names the env files a script sources assign a ComfyDeploy base (V1 or V2 host: the V1 paths are V1 on both). */
function comfyEnvNames(file: string, text: string, hosts: HostSet, repo: FileScanInput["repo"]): Set<string> {
  const dir = posix.dirname(file);
  // `"$(dirname "$0")/prod.env"` and `"$ROOT/.env"` are read relative to the script.
  const sourced = [...text.matchAll(SOURCE_LINE)].map((m) => m[1]!.trim().replace(/["']/g, "").replace(SCRIPT_DIR, ""));
  const files = new Set<string>();
  for (const path of sourced) {
    const base = posix.basename(path);
    const isEnvFile = ENV_FILE.test(base);
    const candidates = repo.files.filter(
      (f) => posix.basename(f) === base || (isEnvFile && posix.basename(f).startsWith(`${base}.`)),
    );
    // Relative to the script or to the repository root; an env file, which is rarely committed, also by its example's name.
    for (const f of candidates)
      if (f === posix.normalize(posix.join(dir, path)) || f === posix.normalize(path) || isEnvFile) files.add(f);
  }
  const names = new Set<string>();
  const anyHost = { ...hosts, legacy: [...hosts.legacy, ...currentHostsAsLegacy(hosts).legacy] };
  for (const f of files) {
    for (const line of (repo.read(f) ?? "").split(/\r?\n/)) {
      const m = /^\s*(?:export\s+)?([A-Za-z_]\w*)\s*=\s*["']?([^"'#\s]+)/.exec(line);
      if (m && findLegacyHostMentions(m[2]!, anyHost).some((mention) => mention.kind === "api")) names.add(m[1]!);
    }
  }
  return names;
}
