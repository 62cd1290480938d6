/**
 * Which bases a file's requests are built on count as the V1 base held in
 * the repository. A member or call (`settings.base`, `${cfg.apiBase}`) does
 * whenever the repository holds a V1 base; a bare variable does only when
 * a file the shell script sources assigns it a ComfyDeploy base, also as a
 * default (`source .env`, `. ./env.sh` exporting it, `. "$(dirname "$0")/../lib/config.sh"` with
 * `API="${API:-https://…}"`), or, since `.env` itself is rarely committed,
 * the repository's `.env.example`-style files beside it.
 */
import { sourcedFiles, sourcesFiles } from "../../../lang/shell/sourced-files.js";
import { findLegacyHostMentions, type HostSet, currentHostsAsLegacy } from "../../../core/urls.js";
import type { FileScanInput } from "../../scanner.js";

const BARE_NAME = /^[A-Za-z_]\w*$/;

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
  const names = sourcesFiles(text) ? comfyEnvNames(file, text, hosts, repo) : new Set<string>();
  return (base) =>
    BARE_NAME.test(base) ? (names.has(base) ? "sourced" : undefined) : memberHeld ? "repository" : undefined;
}

/** Names the env files a script sources assign a ComfyDeploy base (V1 or V2 host: the V1 paths are V1 on both). */
function comfyEnvNames(file: string, text: string, hosts: HostSet, repo: FileScanInput["repo"]): Set<string> {
  const names = new Set<string>();
  const anyHost = { ...hosts, legacy: [...hosts.legacy, ...currentHostsAsLegacy(hosts).legacy] };
  for (const f of sourcedFiles(file, text, repo.files)) {
    for (const line of (repo.read(f) ?? "").split(/\r?\n/)) {
      const m = /^\s*(?:export\s+)?([A-Za-z_]\w*)\s*=\s*["']?([^"'#\s]+)/.exec(line);
      if (m && findLegacyHostMentions(m[2]!, anyHost).some((mention) => mention.kind === "api")) names.add(m[1]!);
    }
  }
  return names;
}
