/**
 * What `fix` did, as Markdown for the GitHub Actions job summary: files
 * changed, review markers to read, configuration to change, what remains.
 * Paths start at the repository root, like every report's.
 */
import { cellMarkdown, codeSpan, htmlCode, inlineText } from "../core/markdown-escape.js";
import type { Severity } from "../rules/catalog.js";
import { envChangesOf } from "./env-changes.js";
import type { FixPlan } from "./runner.js";

/** The job summary takes 1 MiB per step; long lists stop well before. */
const MAX_ROWS = 200;

export interface FixSummaryOptions {
  dryRun: boolean;
  /** The fixed directory relative to the repository root, "" at the root. */
  prefix: string;
  /** Severities of what a scan still reports after writing (absent in a dry run). */
  remaining?: readonly Severity[];
}

export function renderFixMarkdown(plan: FixPlan, options: FixSummaryOptions): string {
  const path = (file: string): string => (options.prefix === "" ? file : `${options.prefix}/${file}`);
  const rewrites = count(plan, "rewrite");
  const markers = count(plan, "marker");
  const verb = options.dryRun ? "would change" : "changed";
  const lines = [
    `## ComfyDeploy V1 → V2 fix${options.dryRun ? " (dry run)" : ""}`,
    "",
    `**fix ${verb} ${plural(plan.changes.length, "file")}**: ${plural(rewrites, "site")} rewritten, ${plural(markers, "review marker")} added.`,
    "",
  ];
  if (plan.changes.length > 0) {
    lines.push("| file | rewritten | review markers |", "|---|---:|---:|");
    for (const change of plan.changes.slice(0, MAX_ROWS)) {
      const kinds = change.events.map((e) => e.kind);
      lines.push(
        `| ${htmlCode(path(change.file))} | ${kinds.filter((k) => k === "rewrite").length} | ${kinds.filter((k) => k === "marker").length} |`,
      );
    }
    if (plan.changes.length > MAX_ROWS) lines.push("", `… and ${plural(plan.changes.length - MAX_ROWS, "more file")}.`);
    lines.push("");
  }
  const markerEvents = plan.changes.flatMap((c) =>
    c.events.filter((e) => e.kind === "marker").map((e) => ({ file: c.file, ...e })),
  );
  if (markerEvents.length > 0) {
    lines.push("### Review markers", "", "| where | rule | what to do |", "|---|---|---|");
    for (const m of markerEvents.slice(0, MAX_ROWS))
      lines.push(`| ${htmlCode(`${path(m.file)}:${m.line}`)} | \`${m.ruleId}\` | ${cellMarkdown(m.message)} |`);
    if (markerEvents.length > MAX_ROWS)
      lines.push("", `… and ${plural(markerEvents.length - MAX_ROWS, "more marker")}.`);
    lines.push("");
  }
  const envChanges = envChangesOf(plan);
  if (envChanges.length > 0) {
    lines.push("### Configuration to change with this code", "", "Env files, CI secrets and hosting settings:", "");
    for (const e of envChanges)
      lines.push(
        `- ${codeSpan(`${e.variable}=${e.value}`)} (read in ${e.files.map((f) => codeSpan(path(f))).join(", ")})`,
      );
    lines.push("");
  }
  if (plan.skipped.length > 0)
    lines.push(
      `_Skipped ${plural(plan.skipped.length, "file")}: ${inlineText(
        plan.skipped
          .slice(0, 10)
          .map((s) => `${path(s.file)} (${s.reason})`)
          .join(", "),
      )}._`,
      "",
    );
  if (options.remaining) {
    const left = options.remaining;
    lines.push(
      left.length === 0
        ? "After the fix, a scan finds no V1 use."
        : `After the fix, a scan still reports ${plural(left.length, "finding")}: ${left.filter((s) => s === "error").length} errors, ${left.filter((s) => s === "warning").length} warnings, ${left.filter((s) => s === "info").length} info.`,
      "",
    );
  }
  return `${lines.join("\n")}\n`;
}

function count(plan: FixPlan, kind: "rewrite" | "marker"): number {
  return plan.changes.reduce((n, c) => n + c.events.filter((e) => e.kind === kind).length, 0);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
