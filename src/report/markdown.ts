/**
 * The Markdown report, for a PR body, an issue or a file: summary table,
 * checklist by fix class, per-file details, and how to reproduce. It always
 * fits GitHub's body limit: past a budget, details are summarised.
 */
import type { Finding } from "../core/finding.js";
import { plural, severityCounts } from "../core/plural.js";
import { cellMarkdown, codeSpan, fencedBlock, htmlCode, inlineText } from "../core/markdown-escape.js";
import { getRule, type RuleId } from "../rules/catalog.js";
import { lineLink, type Report } from "./model.js";
import { FIX_CLASS_MEANING, groupByFile, summarize } from "./summary.js";

/** GitHub rejects issue and PR bodies over 65,536 characters. */
export const GITHUB_BODY_LIMIT = 65_536;
const SAFETY_MARGIN = 1_536;

export function renderMarkdown(report: Report, options: { title?: string; limit?: number } = {}): string {
  const limit = (options.limit ?? GITHUB_BODY_LIMIT) - SAFETY_MARGIN;
  const head = headSection(report, options.title ?? "ComfyDeploy V1 → V2 migration report");
  const tail = tailSection(report);
  const budget = limit - head.length - tail.length;
  return `${head}${detailsWithin(report, budget)}${tail}`;
}

function headSection(report: Report, title: string): string {
  const summary = summarize(report.findings);
  const lines = [`## ${inlineText(title)}`, "", `> ${report.cutoff.summary}`, ""];
  if (summary.total === 0) {
    lines.push(`**No V1 usage found** in ${plural(report.stats.listed, "file")}.`, "");
  } else {
    lines.push(
      `**${summary.total} finding${summary.total === 1 ? "" : "s"}** in ${summary.files} file${summary.files === 1 ? "" : "s"}: ` +
        `${severityCounts(summary.bySeverity)}.`,
      "",
      "| rule | findings | fix | what it means |",
      "|---|---:|---|---|",
    );
    for (const [rule, count] of Object.entries(summary.byRule)) {
      const r = getRule(rule as RuleId);
      lines.push(`| [\`${r.id}\`](${r.docs}) | ${count} | ${r.fix} | ${inlineText(r.title)} |`);
    }
    lines.push("", "### Checklist", "");
    for (const fix of ["auto", "review", "manual"] as const) {
      const n = summary.byFix[fix];
      if (n === 0) continue;
      lines.push(`- [ ] **${fix}** (${n}): ${FIX_CLASS_MEANING[fix]}`);
      for (const [rule, count] of Object.entries(countByRule(report.findings.filter((f) => f.fix === fix)))) {
        lines.push(`  - [ ] \`${rule}\` × ${count}: ${inlineText(getRule(rule as RuleId).title)}`);
      }
    }
    lines.push("");
  }
  const notes: string[] = [];
  if (report.suppressed.length > 0) notes.push(`${report.suppressed.length} suppressed in source`);
  if (report.baselined.length > 0) notes.push(`${report.baselined.length} already in the baseline`);
  if (report.skipped.length > 0) notes.push(`${plural(report.skipped.length, "file")} skipped`);
  if (notes.length > 0) lines.push(`_Not shown: ${notes.join(", ")}._`, "");
  return `${lines.join("\n")}\n`;
}

function tailSection(report: Report): string {
  return [
    "",
    "<sub>Reproduce with:</sub>",
    "",
    fencedBlock(report.command, "sh"),
    "",
    `<sub>${report.tool.name} ${report.tool.version}</sub>`,
    "",
  ].join("\n");
}

/** Per-file collapsible sections, as many as fit; the rest are summarised in one line each, then counted. */
function detailsWithin(report: Report, budget: number): string {
  if (report.findings.length === 0) return "";
  let out = "### Details\n\n";
  const files = [...groupByFile(report.findings)];
  let index = 0;
  for (; index < files.length; index++) {
    const [file, findings] = files[index]!;
    const section = fileSection(report, file, findings);
    if (out.length + section.length > budget) break;
    out += section;
  }
  if (index < files.length) {
    let summaryLines = "";
    let listed = index;
    for (; listed < files.length; listed++) {
      const [file, findings] = files[listed]!;
      const line = `- ${codeSpan(file)}: ${findings.length} finding${findings.length === 1 ? "" : "s"}\n`;
      if (out.length + summaryLines.length + line.length + 200 > budget) break;
      summaryLines += line;
    }
    out += `\n**${files.length - index} more file${files.length - index === 1 ? "" : "s"} not detailed** (the report is summarised to fit):\n\n${summaryLines}`;
    if (listed < files.length) out += `- … and ${files.length - listed} more files; see the JSON or SARIF report.\n`;
  }
  return out;
}

function fileSection(report: Report, file: string, findings: Finding[]): string {
  const rows = findings.map((f) => {
    const link = lineLink(report, f);
    const where = link ? `[${f.line}:${f.column}](${link})` : `${f.line}:${f.column}`;
    const excerpt = f.excerpt ? `<br>${htmlCode(f.excerpt)}` : "";
    return `| ${where} | \`${f.ruleId}\` | ${f.severity} | ${f.fix} | ${cellMarkdown(f.message)}${excerpt} |`;
  });
  return [
    `<details><summary>${htmlCode(file)} (${findings.length})</summary>`,
    "",
    "| line | rule | severity | fix | message |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "</details>",
    "",
  ].join("\n");
}

function countByRule(findings: readonly Finding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
  return counts;
}
