/**
 * The fix as a commit: on a detached HEAD at the checked-out commit, write
 * the planned changes, scan the fixed tree, commit, and always switch back.
 * The user's branch never moves and no local branch is created, so there is
 * nothing to clean up when a later step (push, API) fails.
 */
import { RuntimeFailure } from "../core/errors.js";
import { onInterrupt } from "../fix/interrupt.js";
import { type PlannedChange, writeFixes } from "../fix/runner.js";
import { type Verification, verifyChanges } from "../fix/verify.js";
import { scan, type ScanOptions, type ScanResult } from "../scan/engine.js";
import type { CheckoutPosition, Git } from "./git.js";
import { type GitIdentity, identityEnv } from "./identity.js";
import { runGitSync } from "../platform/git.js";

export interface FixCommit {
  commit: string;
  tree: string;
  /** The scan of the fixed work tree, taken before switching back. */
  after: ScanResult;
  /** The project's own checks on the changed files, when asked for. */
  verification?: Verification;
}

export interface FixCommitInputs {
  git: Git;
  /** Where the checkout stands; it must be clean (the caller checks). */
  position: CheckoutPosition;
  root: string;
  changes: readonly PlannedChange[];
  scanOptions: ScanOptions;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  /** Run the project's own checks on the written files before committing (`fix --verify`). */
  verify: boolean;
}

/** The commit, or undefined when git sees no change once the files are written (e.g. eol attributes). */
export async function commitFixes(inputs: FixCommitInputs): Promise<FixCommit | undefined> {
  const { git, position } = inputs;
  await git.run(["checkout", "--quiet", "--detach"]);
  const undoOnSignal = restoreOnSignal(git.cwd, position);
  try {
    await writeFixes(inputs.root, inputs.changes);
    const after = await scan(inputs.scanOptions);
    const verification = inputs.verify
      ? await verifyChanges(
          inputs.root,
          inputs.changes.map((c) => c.file),
        )
      : undefined;
    // The tree was clean, so every change under the fixed path is the fix's own, new files (the compat module) included.
    await git.run(["add", "--all", "--", "."]);
    const staged = await git.run(["diff", "--cached", "--quiet"], { allow: [1] });
    if (staged.code === 0) return undefined;
    await git.run(["commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", inputs.message], {
      env: identityEnv(inputs.author, inputs.committer),
    });
    const commit = await git.output(["rev-parse", "--verify", "HEAD"]);
    const tree = await git.output(["rev-parse", "--verify", "HEAD^{tree}"]);
    return { commit, tree, after, ...(verification ? { verification } : {}) };
  } finally {
    undoOnSignal.dispose();
    await git.restore(position).catch((error: unknown) => {
      const target = position.branch ?? position.commit;
      throw new RuntimeFailure(
        `could not switch back to ${target} (${(error as Error).message}); run: git checkout --force ${target}`,
      );
    });
  }
}

/** Ctrl-C while the fix is written must not leave the user on a detached HEAD with edited files. */
function restoreOnSignal(cwd: string, position: CheckoutPosition): { dispose(): void } {
  return onInterrupt(() => {
    const target = position.branch ? [position.branch] : ["--detach", position.commit];
    runGitSync(cwd, ["checkout", "--quiet", "--force", ...target]);
  });
}
