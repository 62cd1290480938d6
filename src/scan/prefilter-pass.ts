/**
 * Phase one of a scan: which listed files contain a needle. Pure Node reads
 * every file; with ripgrep (the optional @vscode/ripgrep package) the byte
 * search runs in rg over the listed paths while Node only stats them. Both
 * skip the same files: links out of the tree and files over the size limit
 * always, binary files when they hold a needle (a binary without one could
 * not hide a V1 use, so it is not worth a line in the report).
 */
import { execFile } from "node:child_process";
import { ripgrepEnv } from "../platform/child-env.js";
import { existsSync, lstatSync, type Stats } from "node:fs";
import { lstat, readFile, realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import { posix, sep } from "node:path";
import type { SkippedFile } from "../core/finding.js";
import { forEachLimit } from "../platform/concurrency.js";
import { asUtf8 } from "../core/text-encoding.js";
import { looksBinary, type Needle, needlePattern, Prefilter } from "./needles.js";

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Files read at once: enough to keep the disk busy, few enough for the open-file limit. */
export const READ_CONCURRENCY = 64;
/** Below this many files, starting rg costs more than it saves. */
export const RIPGREP_MIN_FILES = 2000;
/** Bytes of paths per rg command line, well under Linux's argument limit. */
const RG_ARGS_BYTES = 512 * 1024;

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
    if (!check(content)) return;
    if (looksBinary(content) && !options.wantsBinary(file)) {
      options.skipped.push({ file, reason: "binary" });
      return;
    }
    hits.push({ file, content });
    options.onCandidate?.();
  };

  if (options.ripgrep && options.files.length >= RIPGREP_MIN_FILES) {
    // Only the files rg matched are statted: the others hold no needle, whatever their size or kind.
    const matched = await ripgrepMatches(options.ripgrep, options.root, options.files, options.needles);
    const readable = await statAll(options.root, realRoot, options.files.filter((f) => matched.has(f)), options.skipped);
    const candidates = options.files.filter((f) => readable.has(f));
    await forEachLimit(candidates, READ_CONCURRENCY, (file) => keep(file, () => true));
    if (matched.complete) return hits;
    // rg could not read some file: read the rest here, so each one is a candidate or skipped with a reason, never dropped.
    const prefilter = new Prefilter(options.needles);
    const unmatched = await statAll(options.root, realRoot, options.files.filter((f) => !matched.has(f)), options.skipped);
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

/** Listed paths rg found a needle in; `complete` is false when rg could not read some file (its exit code 2). */
export type RipgrepMatches = Set<string> & { complete: boolean };

/** Listed paths rg finds a needle in. Paths are passed explicitly, so rg's own ignore rules play no part. */
export async function ripgrepMatches(rg: string, root: string, files: readonly string[], needles: readonly Needle[]): Promise<RipgrepMatches> {
  const base = ["--files-with-matches", "--null", "--no-messages", "--no-config", "--hidden", "--no-ignore", "--binary", "--no-unicode"];
  for (const needle of needles) base.push("-e", needlePattern(needle));
  base.push("--");
  const matched = Object.assign(new Set<string>(), { complete: true });
  await forEachLimit(chunkArguments(files), 2, async (chunk) => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(rg, [...base, ...chunk], { cwd: root, env: ripgrepEnv(), maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, out) => {
        // Exit 1 means "no match"; 2 means some file could not be read, which the Node side reports.
        const code = (error as { code?: number } | null)?.code;
        if (error && code !== 1 && code !== 2) reject(error);
        else {
          if (code === 2) matched.complete = false;
          resolve(out);
        }
      });
    });
    for (const path of stdout.split("\0")) if (path) matched.add(path.replace(/^\.\//, ""));
  });
  return matched;
}

/** Paths split into rg command lines of at most RG_ARGS_BYTES each. */
export function chunkArguments(files: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const file of files) {
    if (size + file.length + 1 > RG_ARGS_BYTES && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += file.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Stats files; synchronous lstat is about three times faster here than thousands of promises. */
async function statAll(root: string, realRoot: string, files: readonly string[], skipped: SkippedFile[]): Promise<Set<string>> {
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
  else if (code === "ENOENT" && file.includes("\uFFFD")) skipped.push({ file, reason: "file name is not valid UTF-8; rename it to scan it" });
}

function toPosix(path: string): string {
  return path.split(sep).join(posix.sep);
}
