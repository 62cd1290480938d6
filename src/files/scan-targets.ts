/**
 * What `scan a.ts lib/` means: the directory the scan runs in (the deepest
 * one holding every path given) and, unless that directory itself was named,
 * which of its files to report on. The other files there still serve
 * imports, as with --since.
 */
import { stat } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { UsageError } from "../core/errors.js";
import { type FileFilter, listFiles } from "./list-files.js";

export interface ScanTargets {
  /** Absolute directory the scan runs in. */
  root: string;
  /** Whether a root-relative POSIX path is one the user asked for; absent when the whole root was asked for. */
  selects?: (file: string) => boolean;
  /** The files named one by one, root-relative POSIX (to tell the user when one is ignored). */
  namedFiles: string[];
}

export async function resolveTargets(paths: readonly string[], cwd = process.cwd()): Promise<ScanTargets> {
  const given = paths.length > 0 ? paths : ["."];
  const entries = await Promise.all(
    given.map(async (path) => {
      const absolute = resolve(cwd, path);
      const info = await stat(absolute).catch(() => undefined);
      if (!info) throw new UsageError(`path not found: ${path}`);
      if (!info.isDirectory() && !info.isFile()) throw new UsageError(`not a file or directory: ${path}`);
      return { absolute, isDirectory: info.isDirectory() };
    }),
  );
  const root = commonDirectory(entries.map((e) => (e.isDirectory ? e.absolute : dirname(e.absolute))));
  const toRoot = (absolute: string): string => relative(root, absolute).split(sep).join("/");
  const dirs = entries.filter((e) => e.isDirectory).map((e) => toRoot(e.absolute));
  const namedFiles = entries.filter((e) => !e.isDirectory).map((e) => toRoot(e.absolute));
  if (dirs.includes("")) return { root, namedFiles: [] };
  const files = new Set(namedFiles);
  return {
    root,
    namedFiles,
    selects: (file) => files.has(file) || dirs.some((dir) => file.startsWith(`${dir}/`)),
  };
}

function commonDirectory(dirs: string[]): string {
  let common = dirs[0]!;
  for (const dir of dirs.slice(1)) {
    while (common !== dir && !dir.startsWith(common.endsWith(sep) ? common : `${common}${sep}`))
      common = dirname(common);
  }
  return common;
}

/**
 * The files to report on: those under the named paths (and changed since
 * the --since ref, when given), plus the named files the listing left out
 * (ignored by .gitignore, --include or --exclude), which are not scanned.
 */
export async function selectedFiles(
  targets: ScanTargets,
  filter: FileFilter,
  since: ReadonlySet<string> | undefined,
): Promise<{ only?: ReadonlySet<string>; ignored: string[] }> {
  if (!targets.selects) return { ...(since ? { only: since } : {}), ignored: [] };
  const { files } = await listFiles(targets.root, filter);
  const listed = new Set(files);
  const only = new Set(files.filter((f) => targets.selects!(f) && (!since || since.has(f))));
  return { only, ignored: targets.namedFiles.filter((f) => !listed.has(f)) };
}
