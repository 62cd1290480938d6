/** The terminal report: findings grouped by file with excerpts, counts by rule and fix class, the cutoff. */
import pc from "picocolors";
import type { Finding } from "../core/finding.js";
import { plural, severityCounts } from "../core/plural.js";
import { terminalSafe, terminalSafeLine } from "../core/terminal-safe.js";
import { getRule, type RuleId, type Severity } from "../rules/catalog.js";
import type { Report } from "./model.js";
import { FIX_CLASS_MEANING, groupByFile, summarize } from "./summary.js";

type Colors = ReturnType<typeof pc.createColors>;

export function renderText(report: Report, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  const out: string[] = [];
  for (const [file, findings] of groupByFile(report.findings)) {
    out.push(c.underline(terminalSafeLine(file)));
    for (const f of findings) out.push(...findingLines(f, c));
    out.push("");
  }

  const summary = summarize(report.findings);
  if (summary.total === 0) {
    out.push(c.green(`No V1 usage found in ${plural(report.stats.listed, "file")}.`));
  } else {
    out.push(
      c.bold(
        `${plural(summary.total, "finding")} in ${plural(summary.files, "file")}` +
          ` (${severityCounts(summary.bySeverity)})`,
      ),
      "",
      "By rule:",
    );
    for (const [rule, count] of Object.entries(summary.byRule)) {
      out.push(`  ${rule.padEnd(22)} ${String(count).padStart(5)}  ${c.dim(getRule(rule as RuleId).title)}`);
    }
    out.push("By fix class:");
    for (const fix of ["auto", "review", "manual"] as const) {
      out.push(`  ${fix.padEnd(22)} ${String(summary.byFix[fix]).padStart(5)}  ${c.dim(FIX_CLASS_MEANING[fix])}`);
    }
  }
  if (report.suppressed.length > 0)
    out.push(c.dim(`${plural(report.suppressed.length, "finding")} suppressed in source (listed in --format json).`));
  if (report.baselined.length > 0)
    out.push(c.dim(`${plural(report.baselined.length, "finding")} already in the baseline, not shown.`));
  if (report.skipped.length > 0) {
    out.push("", c.yellow(`Skipped ${plural(report.skipped.length, "file")}:`));
    for (const s of report.skipped.slice(0, 20))
      out.push(`  ${terminalSafeLine(s.file)}: ${terminalSafeLine(s.reason)}`);
    if (report.skipped.length > 20) out.push(`  … and ${report.skipped.length - 20} more (see --format json)`);
  }
  out.push("", (report.cutoff.passed ? c.red : c.yellow)(report.cutoff.summary));
  out.push(c.dim(`Scanned ${plural(report.stats.listed, "file")}, ${plural(report.stats.candidates, "candidate")}.`));
  return `${out.join("\n")}\n`;
}

function findingLines(f: Finding, c: Colors): string[] {
  const lines = [
    `  ${c.dim(`${f.line}:${f.column}`.padEnd(8))} ${severityLabel(f.severity, c)} ${c.bold(f.ruleId)} ${c.dim(`[${f.fix}]`)}`,
    `    ${terminalSafe(f.message).replace(/\n/g, "\n    ")}`,
  ];
  if (f.excerpt) lines.push(`    ${c.dim(`> ${terminalSafeLine(f.excerpt)}`)}`);
  return lines;
}

function severityLabel(severity: Severity, c: Colors): string {
  const label = severity.padEnd(7);
  return severity === "error" ? c.red(label) : severity === "warning" ? c.yellow(label) : c.blue(label);
}
