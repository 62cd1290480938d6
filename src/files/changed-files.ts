/** Files changed since a git ref, plus untracked ones: what a fast PR check needs to scan. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { UsageError } from "../core/errors.js";

const execFileAsync = promisify(execFile);

export async function changedSince(root: string, ref: string): Promise<Set<string>> {
  const git = (args: string[]) => execFileAsync("git", ["-c", "core.quotepath=off", ...args], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
  try {
    await git(["rev-parse", "--is-inside-work-tree"]);
  } catch {
    throw new UsageError(`--since needs a git work tree: ${root} is not in one`);
  }
  try {
    await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`--since: unknown git ref "${ref}" (in CI, fetch it first, e.g. actions/checkout with fetch-depth: 0)`);
  }
  const [diff, untracked] = await Promise.all([
    git(["diff", "--name-only", "--no-renames", "--relative", "-z", ref, "--", "."]),
    git(["ls-files", "-z", "--others", "--exclude-standard", "--", "."]),
  ]);
  const files = `${diff.stdout}\0${untracked.stdout}`.split("\0").filter((f) => f.length > 0);
  return new Set(files);
}
