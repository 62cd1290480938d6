/** Whether a directory's git work tree has uncommitted changes that `fix` could overwrite. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export type TreeState = { kind: "clean" } | { kind: "dirty"; files: string[] } | { kind: "not-a-repository" };

export async function treeState(root: string): Promise<TreeState> {
  try {
    await execFileAsync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: root });
  } catch {
    return { kind: "not-a-repository" };
  }
  const { stdout } = await execFileAsync("git", ["status", "--porcelain", "-z", "--", "."], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const files = stdout
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
  return files.length === 0 ? { kind: "clean" } : { kind: "dirty", files };
}
