/**
 * Phase one of a scan: which listed files contain a needle. Pure Node reads
 * every file; with ripgrep (the optional @vscode/ripgrep package) the byte
 * search runs in rg over the listed paths (ripgrep-feed.ts) and Node reads
 * only the files rg matched. Both skip the same files: links out of the tree
 * and files over the size limit always, binary files when they hold a needle
 * (a binary without one could not hide a V1 use, so it is not worth a line in
 * the report).
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { lstat, readFile, realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import { posix, sep } from "node:path";
import type { SkippedFile } from "../core/finding.js";
import { forEachLimit } from "../platform/concurrency.js";
import { asUtf8 } from "../core/text-encoding.js";
import { looksBinary, type Needle, needlePattern, Prefilter } from "./needles.js";
import { RipgrepFeed } from "./ripgrep-feed.js";

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Files read at once: enough to keep the disk busy, few enough for the open-file limit. */
export const READ_CONCURRENCY = 64;
/** Below this many files, starting rg costs more than it saves. */
export const RIPGREP_MIN_FILES = 2000;

export interface PrefilterHit {
  file: string;
  content: Buffer;
}

export interface PrefilterOptions {
  root: string;
  files: readonly string[];
  needles: readonly Needle[];
  /** Files whose scanners read binary formats (bun.lockb): kept even when binary. */
  wantsBinary: (file: string) => boolean;
  /** Path of an rg binary to use, if any. */
  ripgrep?: string;
  /** rg already searching the listing as it arrived (from the same binary and needles): finished here. */
  feed?: RipgrepFeed;
  skipped: SkippedFile[];
  onCandidate?: () => void;
}

export async function prefilterPass(options: PrefilterOptions): Promise<PrefilterHit[]> {
  const realRoot = await realpath(options.root);
  const hits: PrefilterHit[] = [];
  const keep = async (file: string, check: (content: Buffer) => boolean): Promise<void> => {
    // UTF-16 files are searched, and scanned, as the text they hold.
    const content = await readFile(posix.join(toPosix(options.root), file)).then(asUtf8, () => undefined);
    if (!content) {
      options.skipped.push({ file, reason: "could not be read" });
      return;
    }
    if (check(content)) keepRead(file, content);
  };
  const keepRead = (file: string, content: Buffer): void => {
    if (looksBinary(content) && !options.wantsBinary(file)) {
      options.skipped.push({ file, reason: "binary" });
      return;
    }
    hits.push({ file, content });
    options.onCandidate?.();
  };

  if (options.ripgrep && (options.files.length >= RIPGREP_MIN_FILES || options.feed?.started)) {
    // Only the files rg matched are looked at: the others hold no needle, whatever their size or kind.
    const matched = await (
      options.feed ?? new RipgrepFeed(options.ripgrep, options.root, options.needles.map(needlePattern))
    ).finish(options.files);
    for (const file of options.files) {
      if (!matched.has(file)) continue;
      const content = await readMatched(options.root, realRoot, file, options.skipped);
      if (content) keepRead(file, content);
    }
    if (matched.complete) return hits;
    // rg could not read some file: read the rest here, so each one is a candidate or skipped with a reason, never dropped.
    const prefilter = new Prefilter(options.needles);
    const unmatched = await statAll(
      options.root,
      realRoot,
      options.files.filter((f) => !matched.has(f)),
      options.skipped,
    );
    const rest = options.files.filter((f) => unmatched.has(f));
    await forEachLimit(rest, READ_CONCURRENCY, (file) => keep(file, (content) => prefilter.matches(content)));
    return hits;
  }

  const prefilter = new Prefilter(options.needles);
  await forEachLimit(options.files, READ_CONCURRENCY, async (file) => {
    if (!(await statOne(options.root, realRoot, file, options.skipped))) return;
    await keep(file, (content) => prefilter.matches(content));
  });
  return hits;
}

/** The rg binary shipped by @vscode/ripgrep, when that optional package is installed. */
export function findRipgrep(): string | undefined {
  try {
    const { rgPath } = createRequire(import.meta.url)("@vscode/ripgrep") as { rgPath: string };
    return existsSync(rgPath) ? rgPath : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file rg matched, read through one open descriptor: its fstat answers the
 * kind and size checks, so the path is not statted a second time. Read
 * synchronously: rg has just read it, so it is in the page cache, where a
 * synchronous read costs a fraction of four thread-pool round trips. Links
 * (which O_NOFOLLOW refuses) and files the open fails on get the path checks
 * and their reason. Undefined when the file is not to be scanned.
 */
async function readMatched(
  root: string,
  realRoot: string,
  file: string,
  skipped: SkippedFile[],
): Promise<Buffer | undefined> {
  const path = posix.join(toPosix(root), file);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO in the tree must not stall the scan (no effect on regular files).
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    // The path checks say why (a link, a directory the user cannot enter); a regular file that would not open could not be read.
    if (await statOne(root, realRoot, file, skipped)) skipped.push({ file, reason: "could not be read" });
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    if (stats.size > MAX_FILE_BYTES) {
      skipped.push({ file, reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` });
      return undefined;
    }
    let content: Buffer | undefined;
    try {
      content = asUtf8(readFileSync(fd));
    } catch {
      content = undefined;
    }
    if (!content) skipped.push({ file, reason: "could not be read" });
    return content;
  } finally {
    closeSync(fd);
  }
}

/** Stats files; synchronous lstat is about three times faster here than thousands of promises. */
async function statAll(
  root: string,
  realRoot: string,
  files: readonly string[],
  skipped: SkippedFile[],
): Promise<Set<string>> {
  const ok = new Set<string>();
  const base = toPosix(root);
  for (const file of files) {
    let stats: Stats;
    try {
      stats = lstatSync(posix.join(base, file));
    } catch (error) {
      unstattable(file, error, skipped);
      continue;
    }
    if (stats.isFile() && stats.size <= MAX_FILE_BYTES) ok.add(file);
    else if (stats.isSymbolicLink() || stats.isFile()) await statOne(root, realRoot, file, skipped);
  }
  return ok;
}

/** True when the file is a regular file within the size limit; records why not otherwise. */
async function statOne(root: string, realRoot: string, file: string, skipped: SkippedFile[]): Promise<boolean> {
  const path = posix.join(toPosix(root), file);
  const stats = await lstat(path).catch((error: unknown) => void unstattable(file, error, skipped));
  if (!stats) return false;
  if (stats.isSymbolicLink()) {
    const target = await realpath(path).catch(() => undefined);
    if (!target || !(target === realRoot || target.startsWith(realRoot + sep))) {
      skipped.push({ file, reason: "symbolic link that leaves the scanned directory" });
    }
    // Links inside the tree are not followed: their targets are scanned under their own names.
    return false;
  }
  if (!stats.isFile()) return false;
  if (stats.size > MAX_FILE_BYTES) {
    skipped.push({ file, reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` });
    return false;
  }
  return true;
}

/**
 * A listed file that cannot be looked at: below a directory the user cannot
 * enter, or a name that is not valid UTF-8 (listed with U+FFFD in it, so no
 * such path exists). Either is named as skipped; a file listed by git but
 * deleted in the work tree is simply gone.
 */
function unstattable(file: string, error: unknown, skipped: SkippedFile[]): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES") skipped.push({ file, reason: "could not be read (permission denied)" });
  else if (code === "ENOENT" && file.includes("\uFFFD"))
    skipped.push({ file, reason: "file name is not valid UTF-8; rename it to scan it" });
}

function toPosix(path: string): string {
  return path.split(sep).join(posix.sep);
}
