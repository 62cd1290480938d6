/**
 * A scratch copy of fixtures/demo-app with `fix` applied, under
 * test/.tmp/<random>/ (git-ignored). Living inside the repository lets the
 * copy resolve `comfydeploy` (the real V2 SDK, a devDependency) and `zod`
 * from this package's node_modules.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import { type FixPlan, planFixes, writeFixes } from "../../src/fix/runner.js";
import { TRANSFORM_IDS } from "../../transforms/index.js";
import type { TransformId } from "../../transforms/types.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { removeAfterFile } from "./temp-repo.js";

const REPO = join(import.meta.dirname, "..", "..");
export const DEMO_APP = join(REPO, "fixtures", "demo-app");
export const SCRATCH = join(REPO, "test", ".tmp");

export interface MigratedCopy {
  root: string;
  plan: FixPlan;
  remove(): void;
}

/** A fresh scratch directory under test/.tmp/, removed after the test file at the latest. */
export function scratchDir(prefix: string): string {
  mkdirSync(SCRATCH, { recursive: true });
  return removeAfterFile(mkdtempSync(join(SCRATCH, prefix)));
}

/** Copies the demo app and runs `fix` on it (every transform unless told otherwise), writing the changes. */
export async function migratedDemoCopy(
  prefix: string,
  transforms: readonly TransformId[] = TRANSFORM_IDS,
): Promise<MigratedCopy> {
  const root = scratchDir(prefix);
  cpSync(DEMO_APP, root, { recursive: true });
  // allFiles: the repository's own .gitignore excludes test/.tmp/, which would hide the copy from the scan.
  const plan = await planFixes({ root, hosts: DEFAULT_HOSTS, transforms, nodeRef: DEFAULT_NODE_REF, allFiles: true });
  await writeFixes(root, plan.changes);
  return { root, plan, remove: () => rmSync(root, { recursive: true, force: true }) };
}
