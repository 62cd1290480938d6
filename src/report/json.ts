/**
 * The JSON report: a stable contract that other tools read
 * (schema/scan-report.schema.json). Add fields, never rename or remove them.
 */
import type { Finding } from "../core/finding.js";
import type { Report } from "./model.js";
import { summarize } from "./summary.js";

export const JSON_SCHEMA_VERSION = 1;

function findingJson(f: Finding): Record<string, unknown> {
  return {
    ruleId: f.ruleId,
    severity: f.severity,
    file: f.file,
    line: f.line,
    column: f.column,
    endLine: f.endLine,
    endColumn: f.endColumn,
    message: f.message,
    fix: f.fix,
    ...(f.excerpt !== undefined ? { excerpt: f.excerpt } : {}),
    ...(f.fingerprint !== undefined ? { fingerprint: f.fingerprint } : {}),
    ...(f.suppression !== undefined ? { suppression: f.suppression } : {}),
  };
}

export function renderJson(report: Report): string {
  const json = {
    schemaVersion: JSON_SCHEMA_VERSION,
    tool: report.tool,
    root: report.root,
    summary: {
      ...summarize(report.findings),
      filesListed: report.stats.listed,
      candidates: report.stats.candidates,
      analysed: report.stats.analysed,
      textOnly: report.stats.textOnly,
      skipped: report.skipped.length,
      suppressed: report.suppressed.length,
      baselined: report.baselined.length,
    },
    cutoff: { date: report.cutoff.cutoff, daysLeft: report.cutoff.daysLeft, summary: report.cutoff.summary },
    command: report.command,
    findings: report.findings.map(findingJson),
    suppressed: report.suppressed.map(findingJson),
    skipped: report.skipped,
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
