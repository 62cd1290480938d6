/**
 * Writing fixed files: each one atomically (a temp file beside it, renamed
 * over it), so a kill leaves every file either as it was or as fixed. The
 * temp files are named and listed by the fix lock (`fix-lock.ts`), so a run
 * after a kill removes only those. A file is not written when it changed
 * since fix read it, when it is read-only (unless asked), or when it is a
 * symbolic link that leads out of the tree.
 */
import { constants, unlinkSync } from "node:fs";
import { access, chmod, lstat, open, readFile, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, posix, relative, sep } from "node:path";
import { RuntimeFailure } from "../core/errors.js";
import type { FixLock } from "./fix-lock.js";

export interface FileWrite {
  file: string;
  after: string;
  /** The text the change was made from: a file that no longer holds it is not overwritten. */
  before?: string;
  /** How the text is stored (UTF-8 when absent): a UTF-16 file is written back as UTF-16. */
  encode?: (text: string) => Buffer;
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

let unlocked = 0;

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
  const temp = guard.lock ? guard.lock.tempFor(target) : join(dirname(target), `.${basename(target)}.cdm-${process.pid}-u${++unlocked}.tmp`);
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
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
