/**
 * What `fix --verify` found, for people: lines for the terminal summary and a
 * Markdown section for the pull request body. Both say plainly which checks
 * did not run, and give the command that runs them.
 */
import type { CheckRun, Verification } from "./verify.js";

const STATUS_WORD: Record<CheckRun["status"], string> = { passed: "passed", failed: "FAILED", "not-run": "not run" };

export function verificationLines(verification: Verification): string[] {
  if (verification.checks.length === 0)
    return ["Verification: no changed file has a check that runs offline (TypeScript, JavaScript or Python)."];
  const lines = ["Verification (the project's own checks on the files fix changed):"];
  for (const check of verification.checks) {
    lines.push(`  ${STATUS_WORD[check.status].padEnd(7)}  ${check.command}${check.reason ? `: ${check.reason}` : ""}`);
  }
  for (const finding of verification.findings) lines.push(`    ${finding.file}:${finding.line}: ${finding.message}`);
  return lines;
}

/** A Markdown section; `link` turns a file and line into a link when the report knows where the code lives. */
export function verificationMarkdown(verification: Verification, link: (file: string, line: number) => string): string {
  const lines = ["## Verification", ""];
  if (verification.checks.length === 0) {
    lines.push("No changed file has a check that runs offline (TypeScript, JavaScript or Python).");
    return `${lines.join("\n")}\n`;
  }
  lines.push("The repository's own checks, run on the files fix changed:", "");
  for (const check of verification.checks) {
    const mark = check.status === "passed" ? "✅" : check.status === "failed" ? "❌" : "⚠️ not run:";
    lines.push(`- ${mark} ${inlineCode(check.command)}${check.reason ? ` — ${escapeText(check.reason)}` : ""}`);
  }
  if (verification.findings.length > 0) {
    lines.push("", "Errors in changed files:", "");
    for (const finding of verification.findings)
      lines.push(`- ${link(finding.file, finding.line)}: ${escapeText(finding.message)}`);
  }
  if (verification.checks.some((c) => c.status === "not-run")) {
    lines.push(
      "",
      "Checks that did not run here should run in this branch's CI, or locally after installing its dependencies.",
    );
  }
  return `${lines.join("\n")}\n`;
}

function inlineCode(value: string): string {
  const fence = "`".repeat(Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${fence}${fence.length > 1 ? " " : ""}${value}${fence.length > 1 ? " " : ""}${fence}`;
}

function escapeText(value: string): string {
  return value.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
}
