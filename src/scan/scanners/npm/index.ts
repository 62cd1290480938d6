/** The npm ecosystem: manifests and lockfiles, in report order. */
import type { FileScanner } from "../../scanner.js";
import { bunLockScanner } from "./bun-lock.js";
import { bunLockbScanner } from "./bun-lockb.js";
import { npmManifestScanner } from "./manifest.js";
import { npmPackageLockScanner } from "./package-lock.js";
import { pnpmLockScanner } from "./pnpm-lock.js";
import { pnpmWorkspaceScanner } from "./pnpm-workspace.js";
import { yarnLockScanner } from "./yarn-lock.js";

export const NPM_SCANNERS: readonly FileScanner[] = [
  npmManifestScanner,
  pnpmWorkspaceScanner,
  npmPackageLockScanner,
  yarnLockScanner,
  pnpmLockScanner,
  bunLockScanner,
  bunLockbScanner,
];
