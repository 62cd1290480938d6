/** Which npm package a file belongs to: the nearest directory above it with a package.json, and whether it is checked-in third-party code. */
import { posix } from "node:path";

/** The repository-relative directory ("." for the root), or undefined when no package.json is above the file. */
export function nearestPackageDir(file: string, hasFile: (path: string) => boolean): string | undefined {
  for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
    if (hasFile(dir === "." ? "package.json" : `${dir}/package.json`)) return dir;
    if (dir === ".") return undefined;
  }
}

/** Directories that hold checked-in third-party code: the names GitHub's linguist counts as vendored. */
const THIRD_PARTY_DIR = /(?:^|\/)(?:vendors?|third[-_]?party|node_modules|bower_components)\//;

/**
 * The package of checked-in third-party code a file is in, as a directory
 * prefix ending in "/": its nearest package.json below the vendored
 * directory, else the vendored directory itself. Undefined for the
 * repository's own code.
 */
export function thirdPartyPackageOf(file: string, hasFile: (path: string) => boolean): string | undefined {
  const match = THIRD_PARTY_DIR.exec(file);
  if (!match) return undefined;
  const vendorDir = file.slice(0, match.index + match[0].length);
  const packageDir = nearestPackageDir(file, hasFile);
  return packageDir !== undefined && `${packageDir}/`.startsWith(vendorDir) ? `${packageDir}/` : vendorDir;
}
