/**
 * The prefilter's byte search in rg, over a file listing that may still be
 * arriving: paths are fed in as the listing produces them, and each time a
 * command line's worth has gathered, rg starts on it (two at a time) while
 * git lists the rest. Paths are passed explicitly, so rg's own ignore rules
 * play no part.
 */
import { execFile } from "node:child_process";
import { ripgrepEnv } from "../platform/child-env.js";

/** Bytes of paths per rg command line, well under Linux's argument limit. */
const RG_ARGS_BYTES = 512 * 1024;
/** rg commands at once: rg searches with every core itself, a second one covers its start and end. */
const RG_AT_ONCE = 2;

/** Listed paths rg found a needle in; `complete` is false when rg could not read some file (its exit code 2). */
export type RipgrepMatches = Set<string> & { complete: boolean };

/** Listed paths rg finds a pattern in (rg regexes: `needlePattern` makes one of a needle), all given at once. */
export function ripgrepMatches(
  rg: string,
  root: string,
  files: readonly string[],
  patterns: readonly string[],
): Promise<RipgrepMatches> {
  return new RipgrepFeed(rg, root, patterns).finish(files);
}

/**
 * How every rg search of listed files runs: over exactly the paths given (hidden and ignored ones too, the listing
 * already chose them), with no user config, binary files searched, bytes not Unicode, no per-file complaints.
 */
export const RG_LISTED_FILES = ["--no-messages", "--no-config", "--hidden", "--no-ignore", "--binary", "--no-unicode"];

export class RipgrepFeed {
  private readonly args: string[];
  private readonly fed = new Set<string>();
  private pending: string[] = [];
  private pendingBytes = 0;
  private readonly found = new Set<string>();
  private complete = true;
  /** Each lane runs its rg commands one after another. */
  private readonly lanes: Array<Promise<void>> = Array.from({ length: RG_AT_ONCE }, () => Promise.resolve());
  private launched = 0;
  private failure: unknown;

  constructor(
    private readonly rg: string,
    private readonly root: string,
    /** rg regexes; `needlePattern` makes one of a prefilter needle. */
    patterns: readonly string[],
  ) {
    this.args = ["--files-with-matches", "--null", ...RG_LISTED_FILES];
    for (const pattern of patterns) this.args.push("-e", pattern);
    this.args.push("--");
  }

  /** True once rg has been started on some of the paths. */
  get started(): boolean {
    return this.launched > 0;
  }

  /** More listed paths; rg starts on them once a command line's worth has gathered. */
  add(paths: Iterable<string>): void {
    for (const path of paths) {
      if (this.fed.has(path)) continue;
      if (this.pendingBytes + path.length + 1 > RG_ARGS_BYTES && this.pending.length > 0) this.launch();
      this.fed.add(path);
      this.pending.push(path);
      this.pendingBytes += path.length + 1;
    }
  }

  /** The matches among `files`, the final listing: its paths not fed yet are searched now, paths fed but not in it are dropped. */
  async finish(files: readonly string[]): Promise<RipgrepMatches> {
    this.add(files);
    if (this.pending.length > 0) this.launch();
    await Promise.all(this.lanes);
    if (this.failure !== undefined) throw this.failure;
    const matched = Object.assign(new Set<string>(), { complete: this.complete });
    for (const file of files) if (this.found.has(file)) matched.add(file);
    // A listing's worth of paths: not kept for the rest of the scan.
    this.fed.clear();
    this.found.clear();
    return matched;
  }

  private launch(): void {
    const chunk = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const lane = this.launched++ % RG_AT_ONCE;
    // A failure is kept for finish(): a lane must never hold an unhandled rejection while the listing goes on.
    this.lanes[lane] = this.lanes[lane]!.then(() => this.search(chunk)).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  private search(chunk: readonly string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      execFile(
        this.rg,
        [...this.args, ...chunk],
        { cwd: this.root, env: ripgrepEnv(), maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
        (error, out) => {
          // Exit 1 means "no match"; 2 means some file could not be read, which the Node side reports.
          const code = (error as { code?: number } | null)?.code;
          if (error && code !== 1 && code !== 2) return reject(error);
          if (code === 2) this.complete = false;
          for (const path of out.split("\0")) if (path) this.found.add(path.replace(/^\.\//, ""));
          resolve();
        },
      );
    });
  }
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
