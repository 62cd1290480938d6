/**
 * Where reported paths start: the git top level of the scanned directory
 * (else the directory itself), and the repository's provenance for SARIF.
 * Code scanning and links in PR bodies resolve paths against the repository
 * root, so a scan of `packages/web` must report `packages/web/src/a.ts`.
 */
import { realpath } from "node:fs/promises";
import { relative, sep } from "node:path";
import { gitOutput } from "../platform/git.js";

export interface Provenance {
  /** The origin remote's URL, without credentials. */
  repositoryUri: string;
  /** The commit checked out (HEAD), when there is one. */
  revisionId?: string;
  /** The branch checked out, when HEAD is not detached. */
  branch?: string;
}

export interface RepoRoot {
  /** Absolute path every reported path is relative to. */
  top: string;
  /** The scanned directory relative to `top`, POSIX, "" when they are the same. */
  prefix: string;
  /** Set in a git work tree whose origin remote is known. */
  provenance?: Provenance;
}

async function git(cwd: string, args: string[]): Promise<string | undefined> {
  const out = (await gitOutput(cwd, args))?.trim();
  return out ? out : undefined;
}

/** The repository root of `dir` (absolute) and its provenance; outside git, `dir` itself. */
export async function findRepoRoot(dir: string): Promise<RepoRoot> {
  const real = await realpath(dir);
  const topLevel = await git(real, ["rev-parse", "--show-toplevel"]);
  if (!topLevel) return { top: real, prefix: "" };
  const top = await realpath(topLevel);
  const prefix = relative(top, real).split(sep).join("/");
  const [remote, revisionId, branch] = await Promise.all([
    git(top, ["remote", "get-url", "origin"]),
    git(top, ["rev-parse", "--verify", "--quiet", "HEAD"]),
    git(top, ["symbolic-ref", "--quiet", "--short", "HEAD"]),
  ]);
  const repositoryUri = remote ? withoutCredentials(remote) : undefined;
  return {
    top,
    prefix,
    ...(repositoryUri
      ? { provenance: { repositoryUri, ...(revisionId ? { revisionId } : {}), ...(branch ? { branch } : {}) } }
      : {}),
  };
}

/**
 * A remote URL as a URI without user name, password or query (a token in an
 * https remote must never reach a report). scp-like `git@host:owner/repo` becomes
 * `ssh://host/owner/repo`; a local path becomes a file URI.
 */
export function withoutCredentials(remote: string): string | undefined {
  const scp = /^(?:[^@/]+@)?([^:/]{2,}):(?!\/)(.+)$/.exec(remote);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) return `ssh://${scp[1]}/${scp[2]}`;
  try {
    const url = new URL(remote);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.href;
  } catch {
    return remote.startsWith("/") ? new URL(`file://${remote}`).href : undefined;
  }
}

/** A path relative to the scanned directory, made relative to the repository root. */
export function fromRepoRoot(root: RepoRoot, file: string): string {
  return root.prefix === "" ? file : `${root.prefix}/${file}`;
}
