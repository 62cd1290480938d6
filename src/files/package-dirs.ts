/** Which npm package a file belongs to: the nearest directory above it with a package.json, and whether it is checked-in third-party code. */
import { posix } from "node:path";

/** The repository-relative directory ("." for the root), or undefined when no package.json is above the file. */
export function nearestPackageDir(file: string, hasFile: (path: string) => boolean): string | undefined {
  for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
    if (hasFile(dir === "." ? "package.json" : `${dir}/package.json`)) return dir;
    if (dir === ".") return undefined;
  }
}

/** Installed packages: third-party code wherever they sit. */
const INSTALLED_DIR = /(?:^|\/)(?:node_modules|bower_components)\//;
/** Where repositories check in other projects' code; an app may also name its own routes so, hence the package test below. */
const VENDORED_DIR = /(?:^|\/)(?:vendors?|third[-_]party)\//;

/**
 * The package of third-party code a file is in, as a directory prefix ending
 * in "/": below node_modules or bower_components, its nearest package (else
 * that directory); below a vendor or third_party directory, a package of its
 * own there (`vendor/axios/package.json`). Undefined for the repository's own
 * code, which includes `app/vendors/[id]/route.ts` and a workspace app
 * called `apps/vendor`.
 */
export function thirdPartyPackageOf(file: string, hasFile: (path: string) => boolean): string | undefined {
  const installed = INSTALLED_DIR.exec(file);
  const vendored = installed ? undefined : VENDORED_DIR.exec(file);
  const match = installed ?? vendored;
  if (!match) return undefined;
  const dir = file.slice(0, match.index + match[0].length);
  const packageDir = nearestPackageDir(file, hasFile);
  const ownPackage =
    packageDir !== undefined && `${packageDir}/`.startsWith(dir) && `${packageDir}/` !== dir
      ? `${packageDir}/`
      : undefined;
  return installed ? (ownPackage ?? dir) : ownPackage;
}
