/**
 * Shallow clones of the campaign's repositories, kept in a cache directory
 * keyed by URL so a later run only fetches the new tip. The tip is read with
 * `git ls-remote` first: an unchanged repository needs no fetch at all.
 * git runs through `pr`'s runner (no prompts, hooks off, token in git's
 * environment config and masked in every message). A checkout is held under
 * a lock file beside the clone until the run is done with it, so two runs
 * sharing the cache never reset a clone the other is scanning.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { RuntimeFailure } from "../core/errors.js";
import { acquireLock } from "../platform/pid-lock.js";
import type { Target } from "./targets.js";
import { Git } from "./tool-api.js";

export interface RemoteTip {
  head: string;
  /** The branch the tip is on; undefined for a repository whose HEAD is detached. */
  branch?: string;
}

export interface Checkout extends RemoteTip {
  dir: string;
  /** Lets another run use the clone; call it when done with the work tree. */
  release(): Promise<void>;
}

/** How long a run waits for another run's use of the same clone (a scan and a pull request). */
export const CLONE_LOCK_WAIT_MS = 15 * 60_000;

/** Where a target's clone lives: readable name plus a digest of the URL. */
export function cloneDir(cacheDir: string, target: Target): string {
  const digest = createHash("sha256").update(target.source).digest("hex").slice(0, 12);
  return join(cacheDir, `${target.name}-${digest}`);
}

function gitAt(cwd: string, target: Target, token: string | undefined): Git {
  const git = new Git(cwd);
  if (token) git.useToken(target.source, token);
  return git;
}

/** The commit the target's branch (or default branch) points at, without fetching anything. */
export async function remoteTip(cacheDir: string, target: Target, token: string | undefined): Promise<RemoteTip> {
  await mkdir(cacheDir, { recursive: true });
  const git = gitAt(cacheDir, target, token);
  if (target.base) {
    const line = await git.output(["ls-remote", "--", target.source, `refs/heads/${target.base}`]);
    const head = line.split(/\s+/)[0];
    if (!head) throw new RuntimeFailure(`branch ${target.base} not found in ${target.url}`);
    return { head, branch: target.base };
  }
  const lines = (await git.output(["ls-remote", "--symref", "--", target.source, "HEAD"])).split("\n");
  const branch = /^ref: refs\/heads\/(\S+)\s+HEAD$/.exec(lines.find((l) => l.startsWith("ref:")) ?? "")?.[1];
  const head = lines.find((l) => /^[0-9a-f]{40}\s+HEAD$/.test(l))?.split(/\s+/)[0];
  if (!head) throw new RuntimeFailure(`${target.url} has no commit to scan (empty repository?)`);
  return { head, ...(branch ? { branch } : {}) };
}

/** A clean work tree at the tip, held for this run until `release`. */
export async function checkoutTip(
  cacheDir: string,
  target: Target,
  tip: RemoteTip,
  token: string | undefined,
  lockWaitMs = CLONE_LOCK_WAIT_MS,
): Promise<Checkout> {
  const dir = cloneDir(cacheDir, target);
  await mkdir(cacheDir, { recursive: true });
  const lock = await acquireLock(`${dir}.lock`, { waitMs: lockWaitMs, what: `the cached clone of ${target.url}` });
  try {
    return { ...(await checkoutLocked(dir, target, tip, token)), release: async () => lock.release() };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The cached clone fetched and reset, or a fresh shallow clone. */
async function checkoutLocked(
  dir: string,
  target: Target,
  tip: RemoteTip,
  token: string | undefined,
): Promise<Omit<Checkout, "release">> {
  const cacheDir = dirname(dir);
  if (existsSync(join(dir, ".git"))) {
    try {
      return await refresh(dir, target, tip, token);
    } catch {
      // A damaged or foreign cache entry is cloned anew.
    }
  }
  await rm(dir, { recursive: true, force: true });
  const git = gitAt(cacheDir, target, token);
  const branchArgs = tip.branch ? ["--branch", tip.branch] : [];
  try {
    await git.run(["clone", "--quiet", "--no-tags", "--depth", "1", ...branchArgs, "--", target.source, dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, ...(await position(gitAt(dir, target, token), tip)) };
}

async function refresh(
  dir: string,
  target: Target,
  tip: RemoteTip,
  token: string | undefined,
): Promise<Omit<Checkout, "release">> {
  const git = gitAt(dir, target, token);
  if ((await git.remoteUrl("origin")) !== target.source)
    throw new RuntimeFailure("the cached clone has another origin");
  await git.run([
    "fetch",
    "--quiet",
    "--no-tags",
    "--depth",
    "1",
    "origin",
    tip.branch ? `refs/heads/${tip.branch}` : "HEAD",
  ]);
  const checkoutArgs = tip.branch ? ["-B", tip.branch, "FETCH_HEAD"] : ["--detach", "FETCH_HEAD"];
  await git.run(["checkout", "--quiet", "--force", ...checkoutArgs]);
  await git.run(["clean", "-ffdxq"]);
  return { dir, ...(await position(git, tip)) };
}

async function position(git: Git, tip: RemoteTip): Promise<RemoteTip> {
  const head = await git.output(["rev-parse", "--verify", "HEAD"]);
  return { head, ...(tip.branch ? { branch: tip.branch } : {}) };
}
