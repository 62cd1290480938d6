/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`): each
 * finding becomes an annotation on the pull request's diff and the run page.
 * Escaping follows @actions/core: in the message %, CR and LF are encoded;
 * in a property, also `:` and `,`, which would end the property early.
 */
import type { Finding } from "../core/finding.js";
import { plural, severityCounts } from "../core/plural.js";
import { getRule, type Severity } from "../rules/catalog.js";
import type { Report } from "./model.js";
import { summarize } from "./summary.js";

const COMMAND: Record<Severity, string> = { error: "error", warning: "warning", info: "notice" };

export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function workflowCommand(f: Finding): string {
  const properties: Array<[string, string | number]> = [
    ["file", f.file],
    ["line", f.line],
    ["col", f.column],
    ["endLine", f.endLine],
    // GitHub reads endColumn only on one-line annotations.
    ...(f.endLine === f.line ? ([["endColumn", f.endColumn]] as Array<[string, number]>) : []),
    ["title", `${f.ruleId}: ${getRule(f.ruleId).title}`],
  ];
  const props = properties.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(",");
  return `::${COMMAND[f.severity]} ${props}::${escapeData(`${f.message} [fix: ${f.fix}]`)}`;
}

/** One annotation per finding, then a plain summary line for the log. */
export function renderGithub(report: Report): string {
  const lines = report.findings.map(workflowCommand);
  const s = summarize(report.findings);
  lines.push(
    s.total === 0
      ? `No V1 usage found in ${plural(report.stats.listed, "file")}.`
      : `${plural(s.total, "finding")} in ${plural(s.files, "file")} (${severityCounts(s.bySeverity)}). ${report.cutoff.summary}`,
  );
  return `${lines.join("\n")}\n`;
}
