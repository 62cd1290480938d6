/**
 * One line per finding, `file:line:col: severity rule message`, as ESLint's
 * unix formatter and compilers print them: editors jump to each line, and
 * grep, sort and cut read it without a parser.
 */
import { terminalSafeLine } from "../core/terminal-safe.js";
import type { Report } from "./model.js";

export function renderCompact(report: Report): string {
  return report.findings
    .map((f) => `${terminalSafeLine(`${f.file}:${f.line}:${f.column}: ${f.severity} ${f.ruleId} ${f.message}`)}\n`)
    .join("");
}
