/** Whether a directory's git work tree has uncommitted changes that `fix` could overwrite. */
import { RuntimeFailure } from "../core/errors.js";
import { gitOutput, runGit } from "../platform/git.js";

export type TreeState = { kind: "clean" } | { kind: "dirty"; files: string[] } | { kind: "not-a-repository" };

export async function treeState(root: string): Promise<TreeState> {
  if ((await gitOutput(root, ["rev-parse", "--is-inside-work-tree"])) === undefined)
    return { kind: "not-a-repository" };
  const status = await runGit(root, ["status", "--porcelain", "-z", "--", "."]);
  if (status.code !== 0)
    throw new RuntimeFailure(`git status failed in ${root}: ${status.stderr.trim().split("\n")[0] ?? ""}`);
  const files = status.stdout
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
  return files.length === 0 ? { kind: "clean" } : { kind: "dirty", files };
}
