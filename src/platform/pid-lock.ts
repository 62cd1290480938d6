/**
 * A lock file that names its owner: process id and host on its first line.
 * Whoever creates the file (exclusively) holds the lock; others wait, up to a
 * bound (or refuse at once). A lock whose owner on this host is no longer
 * running (a killed run) is taken over rather than waited on. The owner can
 * record lines in the file (what it is about to create), so whoever takes
 * over after a kill learns what the killed run left behind.
 */
import { appendFileSync, readFileSync, unlinkSync } from "node:fs";
import { type FileHandle, link, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { RuntimeFailure } from "../core/errors.js";

export interface HeldLock {
  readonly path: string;
  /** Lines recorded by owners that were gone when their locks were taken over on the way to this one. */
  readonly leftBehind: readonly string[];
  /** Appends a line, synchronously: it is on disk before what it names is created. */
  record(line: string): void;
  /** Removes the lock file, unless another run has taken it over meanwhile. An exit releases it too. */
  release(): void;
}

export interface LockOptions {
  /** How long to wait for another owner before giving up; 0 refuses at once. */
  waitMs: number;
  /** Between two looks at a lock held by someone else. */
  pollMs?: number;
  /** What the lock guards, for the message when waiting ends. */
  what: string;
}

export interface LockOwner {
  pid: number;
  host: string;
}

/** The lock stayed held by another process; `owner` is undefined while that process is still writing its name. */
export class LockBusy extends RuntimeFailure {
  constructor(
    message: string,
    readonly path: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(message);
  }
}

/** A lock file with no owner written yet counts as held for this long after it was created. */
const UNWRITTEN_GRACE_MS = 5_000;
const OWNER_LINE = /\bpid=([1-9]\d*)(?: host=(\S+))?/;
const BARE_PID = /^\s*([1-9]\d*)\s*$/;

const held = new Set<HeldLock>();
let releaseAtExit = false;

export async function acquireLock(path: string, options: LockOptions): Promise<HeldLock> {
  const deadline = Date.now() + options.waitMs;
  const pollMs = options.pollMs ?? 100;
  const header = `comfydeploy-migrate lock pid=${process.pid} host=${hostname()} started=${new Date().toISOString()}`;
  const leftBehind: string[] = [];
  for (;;) {
    if (await tryCreate(path, header)) return hold(path, header, leftBehind);
    const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) =>
      error.code === "ENOENT" ? undefined : "",
    );
    if (text === undefined) continue; // released meanwhile: try again
    const firstLine = text.split("\n", 1)[0]!;
    const owner = ownerOf(firstLine);
    if (await isStale(path, owner)) {
      // Moved aside rather than deleted: if another run took it over first, the lock moved is that run's, and goes back.
      const moved = `${path}.stale-${process.pid}`;
      if (
        await rename(path, moved).then(
          () => true,
          () => false,
        )
      ) {
        const movedText = await readFile(moved, "utf8").catch(() => "");
        if (movedText.split("\n", 1)[0] !== firstLine) await link(moved, path).catch(() => undefined);
        else
          leftBehind.push(
            ...movedText
              .split("\n")
              .slice(1)
              .filter((line) => line !== ""),
          );
        await unlink(moved).catch(() => undefined);
      }
      continue;
    }
    if (Date.now() >= deadline) {
      const by = owner
        ? `process ${owner.pid}${owner.host === hostname() ? "" : ` on ${owner.host}`}`
        : "a process that is starting";
      const waited = options.waitMs > 0 ? `; waited ${Math.round(options.waitMs / 1000)} s` : "";
      throw new LockBusy(`${options.what} is in use by ${by} (lock file ${path})${waited}`, path, owner);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

function hold(path: string, header: string, leftBehind: readonly string[]): HeldLock {
  const lock: HeldLock = {
    path,
    leftBehind,
    record: (line) => appendFileSync(path, `${line}\n`),
    release: () => {
      held.delete(lock);
      try {
        if (readFileSync(path, "utf8").split("\n", 1)[0] === header) unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
  held.add(lock);
  if (!releaseAtExit) {
    // An interrupted run (Ctrl-C exits from its handler) gives its locks up too.
    process.on("exit", () => {
      for (const lock of held) lock.release();
    });
    releaseAtExit = true;
  }
  return lock;
}

async function tryCreate(path: string, header: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new RuntimeFailure(`cannot create the lock file ${path}: ${(error as Error).message}`);
  }
  try {
    await handle.writeFile(`${header}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/** The owner a lock file's first line names (a bare pid from older versions counts as this host's). */
function ownerOf(firstLine: string): LockOwner | undefined {
  const named = OWNER_LINE.exec(firstLine) ?? BARE_PID.exec(firstLine);
  return named ? { pid: Number(named[1]), host: named[2] ?? hostname() } : undefined;
}

/** A process on another host cannot be looked at: its lock is held until it goes. */
async function isStale(path: string, owner: LockOwner | undefined): Promise<boolean> {
  if (owner) return owner.host === hostname() && !isRunning(owner.pid);
  const created = await stat(path).then(
    (s) => s.mtimeMs,
    () => undefined,
  );
  return created !== undefined && Date.now() - created > UNWRITTEN_GRACE_MS;
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
