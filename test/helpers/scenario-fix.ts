/**
 * `fix` on a whole repository, as a user runs it: a scratch git checkout of
 * a fixture tree, the fix written, the diff taken with git, and what is left
 * for a person afterwards.
 */
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import type { Finding } from "../../src/core/finding.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { type FixPlan, planFixes, writeFixes } from "../../src/fix/runner.js";
import { scan } from "../../src/scan/engine.js";
import { TRANSFORM_IDS } from "../../transforms/index.js";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import { scratchDir } from "./demo-copy.js";

export interface FixedRepo {
  root: string;
  /** `git diff` of the first run. */
  diff: string;
  first: FixPlan;
  /** What a second run would change (nothing, when fix converges in one run). */
  second: FixPlan;
  /** The scan of the fixed tree. */
  after: Finding[];
  remove(): void;
}

function git(root: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "core.autocrlf=false", "-c", "user.email=fixture@example.invalid", "-c", "user.name=fixture", ...args],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
}

export async function fixRepository(source: string): Promise<FixedRepo> {
  // Under the repository (test/.tmp), so the app's imports of zod and the SDK resolve as in the fixtures.
  const root = scratchDir("scenario-fix-");
  try {
    cpSync(source, root, { recursive: true });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "original");
    const options = { root, hosts: DEFAULT_HOSTS, transforms: TRANSFORM_IDS, nodeRef: DEFAULT_NODE_REF };
    const first = await planFixes(options);
    await writeFixes(root, first.changes);
    // New files (the compat module) count: stage everything and diff the index.
    git(root, "add", "-A");
    const diff = git(root, "diff", "--cached", "--no-color", "--no-ext-diff");
    const second = await planFixes(options);
    const after = (await scan({ root, hosts: DEFAULT_HOSTS })).findings;
    return { root, diff, first, second, after, remove: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** How far above a finding the marker of its statement may stand (a statement spanning several lines). */
const MARKER_REACH = 12;

/**
 * Findings `fix` claims (fix class auto or review, severity warning or
 * error) that are still there after it ran with no review marker just above
 * them and no note in its summary: sites fix dropped silently. A marker covers the statement it stands
 * above, whatever its rule (a request left whole keeps its V1 host too).
 */
export function unmarkedFindings(
  after: readonly Finding[],
  noted: ReadonlyArray<{ file: string; line: number }> = [],
): string[] {
  const markers = after.filter((f) => f.ruleId === "review-marker");
  const said = new Set(noted.map((n) => `${n.file}\u0000${n.line}`));
  return (
    after
      .filter((f) => f.ruleId !== "review-marker" && f.fix !== "manual" && f.severity !== "info" && !f.suppression)
      // Sites fix named in its summary as left on purpose (where no marker can go) are not dropped silently.
      .filter((f) => !said.has(`${f.file}\u0000${f.line}`))
      .filter((f) => !markers.some((m) => m.file === f.file && m.line < f.line && f.line - m.line <= MARKER_REACH))
      .map((f) => `${f.file}:${f.line} ${f.ruleId} ${f.message.slice(0, 100)}`)
  );
}
