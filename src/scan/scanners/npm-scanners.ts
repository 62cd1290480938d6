/** The scanners for npm-ecosystem manifests and lockfiles, in report order. */
import type { FileScanner } from "../scanner.js";
import { bunLockScanner } from "./npm-bun-lock.js";
import { bunLockbScanner } from "./npm-bun-lockb.js";
import { npmManifestScanner } from "./npm-manifest.js";
import { npmPackageLockScanner } from "./npm-package-lock.js";
import { pnpmLockScanner } from "./npm-pnpm-lock.js";
import { pnpmWorkspaceScanner } from "./npm-pnpm-workspace.js";
import { yarnLockScanner } from "./npm-yarn-lock.js";

export const NPM_DEPENDENCY_SCANNERS: readonly FileScanner[] = [
  npmManifestScanner,
  pnpmWorkspaceScanner,
  npmPackageLockScanner,
  yarnLockScanner,
  pnpmLockScanner,
  bunLockScanner,
  bunLockbScanner,
];
