/**
 * package.json as npm and its kin read it: the fields that declare
 * dependencies, and each package manager's commands. The npm scanners and
 * the sdk-dependency transform word their advice with them.
 */
import type { NpmManager } from "../../core/facts.js";

export const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
] as const;

/** The command that rewrites each manager's lockfile from the manifests. */
export const INSTALL_COMMANDS: Record<NpmManager, string> = {
  npm: "npm install",
  yarn: "yarn install",
  pnpm: "pnpm install",
  bun: "bun install",
};

/** The command that removes a dependency with each manager. */
export const REMOVE_COMMANDS: Record<NpmManager, string> = {
  npm: "npm uninstall",
  yarn: "yarn remove",
  pnpm: "pnpm remove",
  bun: "bun remove",
};
