/** The last line of a command's output: what to do next, as a command to copy. */
import { TOOL } from "../core/tool-info.js";
import type { Finding } from "../core/finding.js";

/** `comfydeploy-migrate <args>`, with the path when it is not the current directory. */
export function toolCommand(args: string, path = "."): string {
  return `${TOOL.name} ${args}${path === "." ? "" : ` ${/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`}`}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** After scan: preview the fix, or resolve the review markers fix left. */
export function scanNextStep(findings: readonly Finding[], path: string): string | undefined {
  const fixable = findings.filter((f) => f.fix !== "manual").length;
  const markers = findings.filter((f) => f.ruleId === "review-marker").length;
  if (fixable > 0) return `Next: preview the rewrite of ${plural(fixable, "finding")} with \`${toolCommand("fix --dry-run", path)}\``;
  if (markers > 0) return `Next: resolve the ${plural(markers, "review marker")}: \`${toolCommand("scan --rule review-marker", path)}\``;
  if (findings.length > 0) return `Next: these ${plural(findings.length, "finding")} need a person; each message says what to change.`;
  return undefined;
}

/** After fix: apply the dry run, or review the markers it left. */
export function fixNextStep(rewrites: number, markers: number, dryRun: boolean, path: string): string | undefined {
  if (dryRun) return rewrites + markers > 0 ? `Next: apply it with \`${toolCommand("fix", path)}\`` : undefined;
  if (markers > 0) return `Next: review the ${plural(markers, "marker")}: \`${toolCommand("scan --rule review-marker", path)}\``;
  if (rewrites > 0) return "Next: run your tests, review the diff (git diff) and commit.";
  return undefined;
}
