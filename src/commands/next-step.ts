/** The last line of a command's output: what to do next, as a command to copy. */
import { invocation } from "../platform/command-line.js";
import type { Finding } from "../core/finding.js";

const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** `comfydeploy-migrate <command> [paths] [options]`, the path left out when it is only the current directory. */
export function toolCommand(command: string, paths: string | readonly string[] = ".", options = ""): string {
  const list = (typeof paths === "string" ? [paths] : [...paths]).filter((p) => p !== "");
  const shown = list.length === 1 && list[0] === "." ? [] : list.map(quote);
  return [invocation(), command, ...shown, ...(options ? [options] : [])].join(" ");
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * After scan: preview the fix, or resolve the review markers fix left.
 * `paths` are the scanned paths as given; `fixPath` the directory fix would work in (fix takes one).
 */
export function scanNextStep(findings: readonly Finding[], paths: readonly string[], fixPath: string): string | undefined {
  const fixable = findings.filter((f) => f.fix !== "manual").length;
  const markers = findings.filter((f) => f.ruleId === "review-marker").length;
  if (fixable > 0) return `Next: preview the rewrite of ${plural(fixable, "finding")} with \`${toolCommand("fix", fixPath, "--dry-run")}\``;
  if (markers > 0) return `Next: resolve the ${plural(markers, "review marker")}: \`${toolCommand("scan", paths, "--rule review-marker")}\``;
  if (findings.length > 0) return `Next: these ${plural(findings.length, "finding")} need a person; each message says what to change.`;
  return undefined;
}

/** After fix: apply the dry run, or review the markers it left. */
export function fixNextStep(rewrites: number, markers: number, dryRun: boolean, path: string): string | undefined {
  if (dryRun) return rewrites + markers > 0 ? `Next: apply it with \`${toolCommand("fix", path)}\`` : undefined;
  if (markers > 0) return `Next: review the ${plural(markers, "marker")}: \`${toolCommand("scan", path, "--rule review-marker")}\``;
  if (rewrites > 0) return "Next: run your tests, review the diff (git diff) and commit.";
  return undefined;
}
