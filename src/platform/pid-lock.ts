/**
 * A lock file that names its owner's process id. Whoever creates the file
 * (exclusively) holds the lock; others wait, up to a bound. A lock whose
 * owner is no longer running (a killed run) is taken over rather than
 * waited on.
 */
import { type FileHandle, link, open, readFile, rename, unlink } from "node:fs/promises";
import { RuntimeFailure } from "../core/errors.js";

export interface HeldLock {
  readonly path: string;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for another owner before giving up. */
  waitMs: number;
  /** Between two looks at a lock held by someone else. */
  pollMs?: number;
  /** What the lock guards, for the message when waiting ends. */
  what: string;
}

/** A lock file with no pid yet is being written: it counts as held for this long. */
const UNWRITTEN_GRACE_MS = 5_000;

export async function acquireLock(path: string, options: LockOptions): Promise<HeldLock> {
  const deadline = Date.now() + options.waitMs;
  const pollMs = options.pollMs ?? 100;
  let firstSeenEmpty: number | undefined;
  for (;;) {
    if (await tryCreate(path)) return { path, release: () => unlink(path).catch(() => undefined) };
    const owner = await ownerOf(path);
    if (owner === "gone") continue;
    if (owner === undefined) firstSeenEmpty ??= Date.now();
    const stale = owner === undefined ? Date.now() - firstSeenEmpty! > UNWRITTEN_GRACE_MS : !isRunning(owner);
    if (stale) {
      // Moved aside rather than deleted: if another run took it over first, the lock moved is that run's, and goes back.
      const moved = `${path}.stale-${process.pid}`;
      if (await rename(path, moved).then(() => true, () => false)) {
        if ((await ownerOf(moved)) !== owner) await link(moved, path).catch(() => undefined);
        await unlink(moved).catch(() => undefined);
      }
      firstSeenEmpty = undefined;
      continue;
    }
    if (Date.now() >= deadline) {
      throw new RuntimeFailure(`${options.what} is in use by process ${owner ?? "(starting)"} (lock file ${path}); waited ${Math.round(options.waitMs / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function tryCreate(path: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new RuntimeFailure(`cannot create the lock file ${path}: ${(error as Error).message}`);
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/** The owner's pid; undefined while the file is still empty; "gone" when it vanished meanwhile. */
async function ownerOf(path: string): Promise<number | undefined | "gone"> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? "gone" : ""));
  if (text === "gone") return "gone";
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
