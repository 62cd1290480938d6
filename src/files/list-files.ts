/**
 * Which files a scan looks at. In a git work tree git itself answers (so
 * .gitignore rules apply exactly and dotfiles such as .env are included);
 * elsewhere fast-glob walks the tree and the `ignore` package applies any
 * .gitignore files found.
 */
import { constants, existsSync, readFileSync, statSync } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { dirname, join, posix, resolve } from "node:path";
import picomatch from "picomatch";
import { streamGit } from "../platform/git.js";

/**
 * Bytes of git's index for the work tree holding `root` (0 outside git): a
 * sign, read before listing, of how many files git will list (an entry takes
 * about 100 bytes).
 */
export function gitIndexBytes(root: string): number {
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      try {
        // A linked work tree's .git is a file naming its git directory.
        const gitDir = statSync(dotGit).isDirectory()
          ? dotGit
          : resolve(
              dir,
              readFileSync(dotGit, "utf8")
                .replace(/^gitdir:\s*/, "")
                .trim(),
            );
        return statSync(join(gitDir, "index")).size;
      } catch {
        return 0;
      }
    }
    if (dirname(dir) === dir) return 0;
  }
}

/** Directories never worth scanning, even outside git. */
const ALWAYS_IGNORED = ["**/node_modules/**", "**/.git/**"];

export interface FileFilter {
  include?: readonly string[];
  exclude?: readonly string[];
  /** false: list every file below the root, whatever .gitignore says (only .git is skipped). */
  respectIgnore?: boolean;
}

export interface FileListing {
  /** Repository-relative POSIX paths, sorted. */
  files: string[];
  source: "git" | "filesystem";
  /** Directories that could not be read (permissions): their files cannot be listed, so they are named instead. */
  unreadableDirs: string[];
}

/**
 * Lists the files. With `onPaths`, a git listing is also handed over in
 * batches as git writes it (filtered, each path once, not sorted), so a caller
 * can start on the first paths while git lists the rest; the returned listing
 * is the one to trust.
 */
export async function listFiles(
  root: string,
  filter: FileFilter = {},
  onPaths?: (paths: string[]) => void,
): Promise<FileListing> {
  const respectIgnore = filter.respectIgnore ?? true;
  const unreadableDirs: string[] = [];
  const matches = fileMatcher(filter);
  const fromGit = respectIgnore
    ? await listWithGit(root, unreadableDirs, onPaths && ((paths) => onPaths(matches ? paths.filter(matches) : paths)))
    : undefined;
  const listing = fromGit
    ? { files: fromGit, source: "git" as const, unreadableDirs }
    : { files: await listWithGlob(root, respectIgnore, unreadableDirs), source: "filesystem" as const, unreadableDirs };
  if (matches) listing.files = listing.files.filter(matches);
  listing.files.sort();
  return listing;
}

/**
 * Tracked and untracked files come from two git runs at once: git writes an
 * `--others` listing only after walking the whole work tree, while the
 * tracked files (most of them) come straight from the index and can be put
 * to use meanwhile.
 */
async function listWithGit(
  root: string,
  unreadableDirs: string[],
  onPaths?: (paths: string[]) => void,
): Promise<string[] | undefined> {
  const files = new Set<string>();
  const list = async (which: readonly string[]): Promise<{ code: number; stderr: string } | undefined> => {
    let rest: Buffer = Buffer.alloc(0);
    // Paths end in NUL, which no UTF-8 sequence holds: a chunk is cut after its last NUL and the remainder joins the next one.
    const take = (chunk: Buffer): void => {
      const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      const end = data.lastIndexOf(0);
      rest = end === -1 ? data : data.subarray(end + 1);
      if (end === -1) return;
      const batch: string[] = [];
      for (const path of data.toString("utf8", 0, end).split("\0")) {
        if (path.length === 0 || files.has(path)) continue;
        files.add(path);
        batch.push(path);
      }
      if (batch.length > 0) onPaths?.(batch);
    };
    const result = await streamGit(
      root,
      ["-c", "core.quotepath=off", "ls-files", "-z", ...which, "--", "."],
      take,
    ).catch(() => undefined);
    if (result?.code === 0) take(Buffer.from([0])); // a last path without its NUL
    return result;
  };
  const [tracked, untracked] = await Promise.all([list(["--cached"]), list(["--others", "--exclude-standard"])]);
  if (tracked?.code !== 0 || untracked?.code !== 0) return undefined;
  // Untracked files below a directory git cannot open are not listed: git warns, and the directory stands for them.
  for (const match of untracked.stderr.matchAll(/could not open directory '(.+?)\/?': Permission denied/g))
    unreadableDirs.push(match[1]!);
  unreadableDirs.sort();
  return [...files];
}

async function listWithGlob(root: string, respectIgnore: boolean, unreadableDirs: string[]): Promise<string[]> {
  // onlyFiles would drop symbolic links; list everything and keep non-directories so links get reported.
  // A directory the user cannot read must not end the scan: fast-glob skips it, and it is named below.
  // Loaded here: most scans list with git and never need them.
  const { default: fg } = await import("fast-glob");
  const all = await fg("**/*", {
    cwd: root,
    dot: true,
    onlyFiles: false,
    markDirectories: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    ignore: respectIgnore ? ALWAYS_IGNORED : ["**/.git/**"],
  });
  const dirs = all.filter((entry) => entry.endsWith("/"));
  await Promise.all(
    dirs.map((dir) =>
      access(posix.join(root, dir), constants.R_OK | constants.X_OK).catch(() => {
        unreadableDirs.push(dir.slice(0, -1));
      }),
    ),
  );
  unreadableDirs.sort();
  const entries = all.filter((entry) => !entry.endsWith("/"));
  if (!respectIgnore) return entries;
  const gitignores = entries.filter((f) => posix.basename(f) === ".gitignore");
  if (gitignores.length === 0) return entries;
  const { default: ignore } = await import("ignore");
  const rules = await Promise.all(
    gitignores.map(async (file) => ({
      dir: posix.dirname(file),
      matcher: ignore().add(await readFile(posix.join(root, file), "utf8")),
    })),
  );
  return entries.filter((file) =>
    rules.every(({ dir, matcher }) => {
      if (dir !== "." && !file.startsWith(`${dir}/`)) return true;
      return !matcher.ignores(dir === "." ? file : file.slice(dir.length + 1));
    }),
  );
}

/** The include/exclude test of a filter, or undefined when it keeps every file. */
function fileMatcher(filter: FileFilter): ((file: string) => boolean) | undefined {
  const include = filter.include?.length ? picomatch([...filter.include], { dot: true }) : undefined;
  const exclude = filter.exclude?.length ? picomatch([...filter.exclude], { dot: true }) : undefined;
  if (!include && !exclude) return undefined;
  return (file) => (!include || include(file)) && !exclude?.(file);
}
