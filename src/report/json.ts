/**
 * The JSON report: a stable contract that other tools read
 * (schema/scan-report.schema.json). Add fields, never rename or remove them.
 */
import type { ScanResult } from "../scan/engine.js";
import { TOOL } from "../tool-info.js";
import { summarize } from "./summary.js";

export const JSON_SCHEMA_VERSION = 1;

export function renderJson(result: ScanResult): string {
  const summary = summarize(result.findings);
  const report = {
    schemaVersion: JSON_SCHEMA_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    root: result.root,
    summary: {
      ...summary,
      filesListed: result.stats.listed,
      candidates: result.stats.candidates,
      skipped: result.skipped.length,
    },
    findings: result.findings.map((f) => ({
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
    })),
    skipped: result.skipped,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
