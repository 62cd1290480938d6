/**
 * Writing fixed files: each one atomically (a temp file beside it, renamed
 * over it), so a kill leaves every file either as it was or as fixed. One
 * writing fix per tree holds the tree's lock (in the git directory, else in
 * the tree); each temp file is listed in it before it is created, so the run
 * that takes over a killed run's lock removes exactly the temp files that run
 * made (its name pattern and its list), never a user's `app.js.20250101`.
 * A file is not written when it changed
 * since fix read it, when it is read-only (unless asked), or when it is a
 * symbolic link that leads out of the tree.
 */
import { constants, unlinkSync } from "node:fs";
import { access, chmod, lstat, open, readFile, realpath, rename, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, posix, relative, sep } from "node:path";
import { RuntimeFailure, UsageError } from "../core/errors.js";
import { gitOutput } from "../platform/git.js";
import { acquireLock, type HeldLock, LockBusy } from "../platform/pid-lock.js";

export interface FileWrite {
  file: string;
  after: string;
  /** The text the change was made from: a file that no longer holds it is not overwritten. */
  before?: string;
  /** How the text is stored (UTF-8 when absent): a UTF-16 file is written back as UTF-16. */
  encode?: (text: string) => Buffer;
}

const LOCK_NAME = ".comfydeploy-migrate-fix.lock";

/** fix's temp names: `.<name>.cdm-<pid>-<n>.tmp` beside the file; hidden, so an editor or a glob does not pick them up. */
const TEMP_NAME = /^\..+\.cdm-\d+-\d+\.tmp$/;

export interface FixLock extends HeldLock {
  /** Temp files a killed run had left, removed when its lock was taken over (absolute paths). */
  readonly removedTemps: readonly string[];
}

/** Takes the tree's fix lock for `root`, or refuses (a usage error) while another fix writes there. */
export async function acquireFixLock(root: string): Promise<FixLock> {
  const path = join(await lockDir(root), LOCK_NAME);
  let lock: HeldLock;
  try {
    lock = await acquireLock(path, { waitMs: 0, what: "this tree" });
  } catch (error) {
    if (!(error instanceof LockBusy)) throw error;
    const by = error.owner
      ? `pid ${error.owner.pid}${error.owner.host === hostname() ? "" : ` on ${error.owner.host}`}`
      : "starting";
    throw new UsageError(
      `another fix is writing to this tree (${by}); wait for it to end, or remove ${path} if none runs`,
    );
  }
  const removedTemps = lock.leftBehind.filter((temp) => TEMP_NAME.test(basename(temp)) && removed(temp));
  return { ...lock, removedTemps };
}

/** The git directory of the tree (a lock there leaves the work tree clean), else the tree itself. */
async function lockDir(root: string): Promise<string> {
  const gitDir = await gitOutput(root, ["rev-parse", "--absolute-git-dir"]).catch(() => undefined);
  return gitDir?.trim() || root;
}

function removed(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

let tempCount = 0;

/** A new temp path beside `target`; with a lock, listed in it before anything is created there. */
function tempFor(target: string, lock: FixLock | undefined): string {
  const temp = join(dirname(target), `.${basename(target)}.cdm-${process.pid}-${lock ? "" : "u"}${++tempCount}.tmp`);
  lock?.record(temp);
  return temp;
}

export interface WriteGuard {
  /** Names and lists the temp files (a run without one still writes atomically). */
  lock?: FixLock;
  /** Rewrite files without write permission (default: leave them, saying why). */
  writeReadOnly?: boolean;
}

/** A file fix chose not to write, with the reason (one line, for the summary). */
export class WriteRefused extends Error {
  override readonly name = "WriteRefused";
}

export const READ_ONLY_OPTION = "--write-read-only";

/** Temp files being written: an exit (Ctrl-C ends the process from its handler) removes them. */
const inFlight = new Set<string>();
let exitHookSet = false;

function track(temp: string): void {
  if (!exitHookSet) {
    exitHookSet = true;
    process.on("exit", () => {
      for (const path of inFlight) {
        try {
          unlinkSync(path);
        } catch {
          // Renamed already, or never created.
        }
      }
    });
  }
  inFlight.add(temp);
}

export async function writeFile(root: string, change: FileWrite, guard: WriteGuard = {}): Promise<void> {
  const path = posix.join(root, change.file);
  const link = await lstat(path).catch(() => undefined);
  const target = link?.isSymbolicLink() ? await insideTree(root, path) : path;
  const info = link ? await stat(target) : undefined;
  if (info && !guard.writeReadOnly && ((info.mode & 0o222) === 0 || !(await writable(target)))) {
    throw new WriteRefused(`read-only; fix leaves it unchanged (pass ${READ_ONLY_OPTION} to rewrite read-only files)`);
  }
  const bytes = (change.encode ?? ((text: string) => Buffer.from(text, "utf8")))(change.after);
  if (change.before !== undefined && info) {
    const now = await readFile(target);
    if (!now.equals((change.encode ?? ((text: string) => Buffer.from(text, "utf8")))(change.before))) {
      throw new WriteRefused("changed since fix read it; left unchanged: run fix again");
    }
  }
  const temp = tempFor(target, guard.lock);
  track(temp);
  try {
    const handle = await open(temp, "wx", info ? info.mode & 0o7777 : 0o666);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applied the umask: the file keeps the mode it had.
    if (info) await chmod(temp, info.mode & 0o7777);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  } finally {
    inFlight.delete(temp);
  }
}

/** A symbolic link is written through only when it leads to a file inside the tree. */
async function insideTree(root: string, path: string): Promise<string> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(path).catch(() => undefined)]);
  const rel = real === undefined ? undefined : relative(realRoot, real);
  if (rel === undefined || rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || rel.startsWith(sep)) {
    throw new WriteRefused("a symbolic link that leads out of the tree; fix leaves it unchanged");
  }
  return real!;
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

/** Writes every change, stopping at the first that fails (the planned-then-written path, e.g. `pr`). */
export async function writeFixes(root: string, changes: readonly FileWrite[]): Promise<void> {
  for (const change of changes) {
    try {
      await writeFile(root, change);
    } catch (error) {
      throw new RuntimeFailure(`cannot write ${change.file}: ${errorCode(error)}`);
    }
  }
}

export function errorCode(error: unknown): string {
  if (error instanceof WriteRefused) return error.message;
  return (
    (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error)).split("\n")[0]!
  );
}
