/**
 * The repositories of a campaign, resolved: each with a unique name (its
 * report file), what git clones (a URL, or a local repository as a file://
 * URL so shallow clones work), and its GitHub identity when one is known.
 * Also the split into shards for CI's matrix.
 */
import { basename, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RuntimeFailure, UsageError } from "../core/errors.js";
import { redactUrlCredentials } from "../core/redact.js";
import type { CampaignFile, RepositoryEntry } from "./campaign-file.js";
import { REPO_NAME } from "./campaign-file.js";
import type { OrgRepository } from "./github-api.js";
import { parseRemoteUrl } from "./tool-api.js";

/** One part of owner/name as GitHub allows it. */
const LISTED_PART = /^[A-Za-z0-9_.-]{1,100}$/;

export interface Target {
  name: string;
  /** As the campaign names it, credentials removed: for reports and logs. */
  url: string;
  /** What git clones from. */
  source: string;
  local: boolean;
  path?: string;
  base?: string;
  deploymentId?: string;
  github?: { owner: string; name: string };
}

/** `scheme://…` or scp-like `user@host:path`; anything else is a local path. */
export function isRemoteUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^@/\s]+@[^:/\s]+:/.test(url);
}

/**
 * Targets from the file's list, then the organisation's repositories not
 * already listed. `relativeTo` is the campaign file's directory: local paths
 * are relative to it, so a campaign file works from anywhere.
 */
export function resolveTargets(
  file: CampaignFile,
  relativeTo: string,
  listed: readonly OrgRepository[] = [],
  githubHost = "github.com",
): Target[] {
  const targets: Target[] = (file.repositories ?? []).map((entry, index) =>
    targetOf(entry, index, relativeTo, githubHost),
  );
  const known = new Set(targets.map((t) => (t.github ? `${t.github.owner}/${t.github.name}`.toLowerCase() : t.source)));
  for (const repo of listed) {
    // The listing comes from a server: its names become file names and API paths, so they are checked like the file's.
    if (
      ![repo.owner, repo.name].every((part) => LISTED_PART.test(part) && part !== "." && part !== "..") ||
      !REPO_NAME.test(safeName(repo.name))
    ) {
      throw new RuntimeFailure(
        `the organisation listing names a repository "${repo.owner}/${repo.name}" that is not a valid owner/name`,
      );
    }
    if (known.has(`${repo.owner}/${repo.name}`.toLowerCase()) || known.has(repo.cloneUrl)) continue;
    targets.push({
      name: safeName(repo.name),
      url: redactUrlCredentials(repo.cloneUrl),
      source: repo.cloneUrl,
      local: false,
      github: { owner: repo.owner, name: repo.name },
    });
  }
  const byName = new Map<string, number>();
  targets.forEach((target, index) => {
    const seen = byName.get(target.name.toLowerCase());
    if (seen !== undefined) {
      const where = (i: number) =>
        i < (file.repositories?.length ?? 0) ? `repositories[${i}]` : "the organisation listing";
      throw new UsageError(
        `${where(index)}: the name "${target.name}" is already used by ${where(seen)}; give one of them a "name"`,
      );
    }
    byName.set(target.name.toLowerCase(), index);
  });
  return targets;
}

function targetOf(entry: RepositoryEntry, index: number, relativeTo: string, githubHost: string): Target {
  const remote = isRemoteUrl(entry.url);
  const absolute = remote ? undefined : isAbsolute(entry.url) ? entry.url : resolve(relativeTo, entry.url);
  const source = absolute ? pathToFileURL(absolute).href : entry.url;
  const path = entry.path === undefined ? undefined : cleanPath(entry.path, index);
  const github = entry.github ? slug(entry.github) : remote ? githubOf(entry.url, githubHost) : undefined;
  const lastPart = basename((absolute ?? entry.url.replace(/[?#].*$/, "")).replace(/[/\\:]+$/, "")).replace(
    /\.git$/,
    "",
  );
  const name = entry.name ?? safeName(lastPart);
  if (!REPO_NAME.test(name))
    throw new UsageError(`repositories[${index}]: cannot name "${entry.url}" from its URL; give it a "name"`);
  return {
    name,
    url: remote ? redactUrlCredentials(entry.url) : entry.url,
    source,
    local: !remote,
    ...(path ? { path } : {}),
    ...(entry.base ? { base: entry.base } : {}),
    ...(entry.deploymentId ? { deploymentId: entry.deploymentId.toLowerCase() } : {}),
    ...(github ? { github } : {}),
  };
}

/** A repository-relative POSIX directory that stays inside the repository. */
function cleanPath(path: string, index: number): string | undefined {
  const parts = path
    .replace(/\\/g, "/")
    .split("/")
    .filter((p) => p !== "" && p !== ".");
  if (path.startsWith("/") || parts.includes("..")) {
    throw new UsageError(`"repositories[${index}].path" must be a directory inside the repository, got "${path}"`);
  }
  return parts.length > 0 ? parts.join("/") : undefined;
}

function githubOf(url: string, githubHost: string): { owner: string; name: string } | undefined {
  const parsed = parseRemoteUrl(url);
  if (!parsed) return undefined;
  return new URL(parsed.serverUrl).host.toLowerCase() === githubHost.toLowerCase()
    ? { owner: parsed.owner, name: parsed.name }
    : undefined;
}

function slug(value: string): { owner: string; name: string } {
  const [owner, name] = value.split("/") as [string, string];
  return { owner, name: name.replace(/\.git$/, "") };
}

function safeName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "");
}

/** "2/5" → { index: 2, total: 5 }. */
export function parseShard(value: string): { index: number; total: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = match ? Number(match[1]) : NaN;
  const total = match ? Number(match[2]) : NaN;
  if (!match || total < 1 || index < 1 || index > total)
    throw new UsageError(`--shard must be i/N with 1 <= i <= N, got "${value}"`);
  return { index, total };
}

/** Round robin in campaign order: stable while the list only grows at the end, and shards differ by one at most. */
export function shardOf<T>(items: readonly T[], index: number, total: number): T[] {
  return items.filter((_, i) => i % total === index - 1);
}

export interface MatrixEntry {
  shard: number;
  shards: number;
  repositories: string[];
}

/** The `strategy.matrix` for CI: `include` with one entry per non-empty shard. */
export function planMatrix(targets: readonly Target[], shards: number): { include: MatrixEntry[] } {
  const total = Math.max(1, Math.min(shards, targets.length));
  const include = Array.from({ length: total }, (_, i) => ({
    shard: i + 1,
    shards: total,
    repositories: shardOf(targets, i + 1, total).map((t) => t.name),
  }));
  return { include };
}
