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

/** How far above a finding the marker fix left for its statement may stand (a statement spanning several lines). */
const MARKER_REACH = 12;

/** Findings fix left a review marker for: a second fix changes nothing there. */
function markedByFix(finding: Finding, markers: readonly Finding[]): boolean {
  return markers.some((m) => m.file === finding.file && m.line < finding.line && finding.line - m.line <= MARKER_REACH);
}

/**
 * After scan: preview the fix, or resolve the review markers fix left.
 * `paths` are the scanned paths as given; `fixPath` the directory fix would work in (fix takes one).
 * Sites fix already marked do not count as work for fix: after a fix, the hint leads to the markers.
 */
export function scanNextStep(
  findings: readonly Finding[],
  paths: readonly string[],
  fixPath: string,
): string | undefined {
  const markerFindings = findings.filter((f) => f.ruleId === "review-marker");
  const fixable = findings.filter((f) => f.fix !== "manual" && !markedByFix(f, markerFindings)).length;
  const markers = markerFindings.length;
  if (fixable > 0)
    return `Next: preview the rewrite of ${plural(fixable, "finding")} with \`${toolCommand("fix", fixPath, "--dry-run")}\``;
  if (markers > 0)
    return `Next: resolve the ${plural(markers, "review marker")}: \`${toolCommand("scan", paths, "--rule review-marker")}\``;
  if (findings.length > 0)
    return `Next: ${findings.length === 1 ? "this finding needs" : `these ${findings.length} findings need`} a person; each message says what to change.`;
  return undefined;
}

/**
 * After fix: apply the dry run (with the options that shaped it, `options`),
 * or review the markers it left.
 */
export function fixNextStep(
  rewrites: number,
  markers: number,
  dryRun: boolean,
  path: string,
  options = "",
): string | undefined {
  if (dryRun)
    return rewrites + markers > 0 ? `Next: apply it with \`${toolCommand("fix", path, options)}\`` : undefined;
  if (markers > 0)
    return `Next: review the ${plural(markers, "marker")}: \`${toolCommand("scan", path, "--rule review-marker")}\``;
  if (rewrites > 0) return "Next: run your tests, review the diff (git diff) and commit.";
  return undefined;
}

/** Options of a fix run that change what it writes, as a user would type them again. */
export function fixShapingOptions(args: {
  transform?: readonly string[];
  include?: readonly string[];
  exclude?: readonly string[];
  "all-files"?: boolean;
  "remove-unused"?: boolean;
  "node-ref"?: string;
  "legacy-host"?: readonly string[];
  config?: string;
}): string {
  const out: string[] = [];
  const list = (name: string, values: readonly string[] | undefined): void => {
    for (const value of values ?? []) out.push(`--${name} ${quote(value)}`);
  };
  list("transform", args.transform);
  list("include", args.include);
  list("exclude", args.exclude);
  list("legacy-host", args["legacy-host"]);
  if (args["node-ref"] !== undefined) out.push(`--node-ref ${quote(args["node-ref"])}`);
  if (args.config !== undefined) out.push(`--config ${quote(args.config)}`);
  if (args["all-files"]) out.push("--all-files");
  if (args["remove-unused"]) out.push("--remove-unused");
  return out.join(" ");
}

/** How many findings to name when fix ends with findings left. */
const NAMED_LEFT = 5;

/**
 * Why fix exits 1: how many findings are left at the threshold, the first
 * few as file:line rule, and the command that lists them all.
 */
export function findingsLeftLine(
  left: ReadonlyArray<Pick<Finding, "file" | "line" | "ruleId">>,
  path: string,
  failOn: string,
): string {
  const named = [...left]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line))
    .slice(0, NAMED_LEFT)
    .map((f) => `${f.file}:${f.line} ${f.ruleId}`);
  const more = left.length > NAMED_LEFT ? `, and ${left.length - NAMED_LEFT} more` : "";
  return `${plural(left.length, "finding")} left at --fail-on ${failOn}: ${named.join(", ")}${more}. All of them: \`${toolCommand("scan", path)}\``;
}
