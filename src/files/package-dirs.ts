/** Which npm package a file belongs to: the nearest directory above it with a package.json. */
import { posix } from "node:path";

/** The repository-relative directory ("." for the root), or undefined when no package.json is above the file. */
export function nearestPackageDir(file: string, hasFile: (path: string) => boolean): string | undefined {
  for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
    if (hasFile(dir === "." ? "package.json" : `${dir}/package.json`)) return dir;
    if (dir === ".") return undefined;
  }
}
