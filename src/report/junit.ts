/**
 * JUnit XML, the format CI test tabs read (GitLab, Jenkins, Azure, GitHub test
 * reporters): one test suite per file with findings, one failing test case
 * per finding; a scan with none is one passing case, so the tab shows a run.
 */
import { plural } from "../core/plural.js";
import { getRule } from "../rules/catalog.js";
import type { Finding } from "../core/finding.js";
import type { Report } from "./model.js";
import { groupByFile } from "./summary.js";

/** XML 1.0 has no escape for most control characters: they become U+FFFD; the five markup characters are escaped. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

function testCase(f: Finding): string {
  const rule = getRule(f.ruleId);
  const body = [
    `${f.file}:${f.line}:${f.column}`,
    `${f.severity} ${f.ruleId}: ${f.message}`,
    `fix: ${f.fix} (${rule.title})`,
  ];
  if (f.excerpt) body.push(`> ${f.excerpt}`);
  return [
    `    <testcase classname="${xml(f.file)}" name="${xml(`${f.ruleId} at ${f.line}:${f.column}`)}" file="${xml(f.file)}" line="${f.line}" time="0">`,
    `      <failure type="${f.severity}" message="${xml(f.message)}">${xml(body.join("\n"))}</failure>`,
    "    </testcase>",
  ].join("\n");
}

export function renderJunit(report: Report): string {
  const groups = [...groupByFile(report.findings)];
  const total = Math.max(report.findings.length, 1);
  const suites =
    groups.length === 0
      ? [
          `  <testsuite name="comfydeploy-migrate" tests="1" failures="0" errors="0" skipped="0" time="0">`,
          `    <testcase classname="comfydeploy-migrate" name="${xml(`no V1 usage in ${plural(report.stats.listed, "file")}`)}" time="0"/>`,
          "  </testsuite>",
        ]
      : groups.map(([file, findings]) =>
          [
            `  <testsuite name="${xml(file)}" tests="${findings.length}" failures="${findings.length}" errors="0" skipped="0" time="0">`,
            ...findings.map(testCase),
            "  </testsuite>",
          ].join("\n"),
        );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="comfydeploy-migrate" tests="${total}" failures="${report.findings.length}" errors="0" time="0">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
