/**
 * Git for tests: a command runner with a fixed identity and no hooks or
 * signing (the machine's own git config plays no part), and a clone of the
 * demo app with a bare origin beside it, as actions/checkout leaves one.
 */
import { cpSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const DEMO_APP = join(import.meta.dirname, "..", "..", "fixtures", "demo-app");

export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    [
      "-c",
      "user.name=Dev",
      "-c",
      "user.email=dev@example.invalid",
      "-c",
      "commit.gpgsign=false",
      "-c",
      "core.hooksPath=/dev/null",
      ...args,
    ],
    { cwd, stdio: "pipe", encoding: "utf8" },
  ).trim();
}

/** In `dir`: `origin.git` (bare) and `work`, the demo app committed on main and pushed. */
export function demoRepository(dir: string): { work: string; origin: string } {
  const origin = join(dir, "origin.git");
  const work = join(dir, "work");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin]);
  cpSync(DEMO_APP, work, { recursive: true });
  git(work, "init", "-q", "-b", "main");
  git(work, "add", "-A");
  git(work, "commit", "-qm", "demo app");
  git(work, "remote", "add", "origin", origin);
  git(work, "push", "-q", "origin", "main");
  return { work, origin };
}
