/** Files changed since a git ref, plus untracked ones: what a fast PR check needs to scan. */
import { UsageError } from "../core/errors.js";
import { gitOutput } from "../platform/git.js";

export async function changedSince(root: string, ref: string): Promise<Set<string>> {
  const git = (args: string[]) => gitOutput(root, ["-c", "core.quotepath=off", ...args]);
  if ((await git(["rev-parse", "--is-inside-work-tree"])) === undefined)
    throw new UsageError(`--since needs a git work tree: ${root} is not in one`);
  if ((await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])) === undefined) {
    throw new UsageError(
      `--since: unknown git ref "${ref}" (in CI, fetch it first, e.g. actions/checkout with fetch-depth: 0)`,
    );
  }
  // Names only, and no diff or textconv program a repository's config names.
  const [diff, untracked] = await Promise.all([
    git(["diff", "--name-only", "--no-ext-diff", "--no-textconv", "--no-renames", "--relative", "-z", ref, "--", "."]),
    git(["ls-files", "-z", "--others", "--exclude-standard", "--", "."]),
  ]);
  if (diff === undefined || untracked === undefined)
    throw new UsageError(`--since: git could not list the files changed since "${ref}" in ${root}`);
  const files = `${diff}\0${untracked}`.split("\0").filter((f) => f.length > 0);
  return new Set(files);
}
