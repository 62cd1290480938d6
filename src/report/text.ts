/** The terminal report: findings grouped by file, then counts by rule and by fix class. */
import pc from "picocolors";
import type { Finding } from "../findings.js";
import { getRule, type Severity } from "../rules/catalog.js";
import type { ScanResult } from "../scan/engine.js";
import { summarize } from "./summary.js";

type Colors = ReturnType<typeof pc.createColors>;

export function renderText(result: ScanResult, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  const out: string[] = [];
  const byFile = new Map<string, Finding[]>();
  for (const f of result.findings) {
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  for (const [file, findings] of byFile) {
    out.push(c.underline(file));
    for (const f of findings) {
      out.push(`  ${c.dim(`${f.line}:${f.column}`.padEnd(8))} ${severityLabel(f.severity, c)} ${c.bold(f.ruleId)} ${c.dim(`[${f.fix}]`)}`);
      out.push(`    ${f.message}`);
      if (f.excerpt) out.push(`    ${c.dim(`> ${f.excerpt}`)}`);
    }
    out.push("");
  }

  const summary = summarize(result.findings);
  if (summary.total === 0) {
    out.push(c.green(`No V1 usage found in ${result.stats.listed} files.`));
  } else {
    out.push(
      c.bold(
        `${summary.total} finding${summary.total === 1 ? "" : "s"} in ${summary.files} file${summary.files === 1 ? "" : "s"}` +
          ` (${summary.bySeverity.error} errors, ${summary.bySeverity.warning} warnings, ${summary.bySeverity.info} info)`,
      ),
    );
    out.push("");
    out.push("By rule:");
    for (const [rule, count] of Object.entries(summary.byRule)) {
      out.push(`  ${rule.padEnd(22)} ${String(count).padStart(5)}  ${c.dim(getRule(rule as Parameters<typeof getRule>[0]).title)}`);
    }
    out.push("By fix class:");
    out.push(`  ${"auto".padEnd(22)} ${String(summary.byFix.auto).padStart(5)}  ${c.dim("fix rewrites these")}`);
    out.push(`  ${"review".padEnd(22)} ${String(summary.byFix.review).padStart(5)}  ${c.dim("fix rewrites where the shape is known, else marks")}`);
    out.push(`  ${"manual".padEnd(22)} ${String(summary.byFix.manual).padStart(5)}  ${c.dim("need a person")}`);
  }
  if (result.skipped.length > 0) {
    out.push("");
    out.push(c.yellow(`Skipped ${result.skipped.length} file${result.skipped.length === 1 ? "" : "s"}:`));
    for (const s of result.skipped.slice(0, 20)) out.push(`  ${s.file}: ${s.reason}`);
    if (result.skipped.length > 20) out.push(`  … and ${result.skipped.length - 20} more (see --format json)`);
  }
  out.push(c.dim(`Scanned ${result.stats.listed} files, ${result.stats.candidates} candidates.`));
  return `${out.join("\n")}\n`;
}

function severityLabel(severity: Severity, c: Colors): string {
  const label = severity.padEnd(7);
  return severity === "error" ? c.red(label) : severity === "warning" ? c.yellow(label) : c.blue(label);
}
