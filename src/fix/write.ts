/**
 * Writing fixed files: each one atomically (a temp file beside it, renamed
 * over it), so a kill leaves every file either as it was or as fixed. A kill
 * can leave the temp file itself (`<file>.<digits>`, write-file-atomic's
 * name); the next run removes those beside the files it is about to write,
 * and only when git does not track them.
 */
import { readdir, unlink } from "node:fs/promises";
import { posix } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { RuntimeFailure } from "../core/errors.js";
import { gitOutput } from "../platform/git.js";

export interface FileWrite {
  file: string;
  after: string;
}

export async function writeFile(root: string, change: FileWrite): Promise<void> {
  await writeFileAtomic(posix.join(root, change.file), change.after, { encoding: "utf8" });
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
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/** write-file-atomic's temp name: the file's name, a dot, an unsigned 32-bit number. */
const TEMP_SUFFIX = /^\.(\d{1,10})$/;

/**
 * Removes temp files an interrupted run left beside `files` (repository-relative),
 * returning the ones removed. A file git tracks is never touched, whatever its name.
 */
export async function removeStaleTemps(root: string, files: readonly string[]): Promise<string[]> {
  const byDir = new Map<string, Set<string>>();
  for (const file of files) {
    const dir = posix.dirname(file);
    byDir.set(dir, (byDir.get(dir) ?? new Set()).add(posix.basename(file)));
  }
  const stale: string[] = [];
  for (const [dir, names] of byDir) {
    const entries = await readdir(posix.join(root, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const dot = entry.name.lastIndexOf(".");
      const digits = TEMP_SUFFIX.exec(entry.name.slice(dot))?.[1];
      if (digits === undefined || Number(digits) > 0xffffffff || !names.has(entry.name.slice(0, dot))) continue;
      stale.push(dir === "." ? entry.name : `${dir}/${entry.name}`);
    }
  }
  if (stale.length === 0) return [];
  const tracked = await trackedAmong(root, stale);
  const removed: string[] = [];
  for (const file of stale.filter((f) => !tracked.has(f)).sort()) {
    if (await unlink(posix.join(root, file)).then(() => true, () => false)) removed.push(file);
  }
  return removed;
}

/** Which of the files git tracks (none outside a repository). */
async function trackedAmong(root: string, files: readonly string[]): Promise<Set<string>> {
  const stdout = await gitOutput(root, ["-c", "core.quotepath=off", "ls-files", "-z", "--", ...files.map((f) => `:(literal)${f}`)]);
  return new Set((stdout ?? "").split("\0").filter(Boolean));
}
