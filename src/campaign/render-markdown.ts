/**
 * campaign.md: the merged campaign as a GitHub step summary (or issue body):
 * the cutoff, the totals and the change since the previous merged run, one
 * table row per repository, and the findings by rule.
 */
import type { Campaign, CampaignRow } from "./campaign-model.js";
import { CHECKS_LABEL, nodePinLabel, READINESS_LABEL as LABEL, REVIEW_LABEL } from "./labels.js";
import { getRule, type RuleId, RULE_IDS } from "./tool-api.js";

const ICON = { ready: "✅", "not-ready": "❌", failed: "⚠️" } as const;

export function renderCampaignMarkdown(campaign: Campaign): string {
  const t = campaign.totals;
  const f = t.findings;
  const lines = [
    "## ComfyDeploy V2 migration campaign",
    "",
    `> ${campaign.cutoff.passed ? "⚠️ " : ""}${campaign.cutoff.summary}`,
    "",
    `**${t.repositories} ${t.repositories === 1 ? "repository" : "repositories"}**: ${ICON.ready} ${t.ready} ready · ${ICON["not-ready"]} ${t.notReady} not ready · ${ICON.failed} ${t.failed} failed. ` +
      `**${f.total} V1 finding${f.total === 1 ? "" : "s"}** (${f.error} error${f.error === 1 ? "" : "s"}, ${f.warning} warning${f.warning === 1 ? "" : "s"}, ${f.info} info)${sincePrevious(campaign)}.`,
    "",
  ];
  if (campaign.repositories.length > 0) {
    lines.push(
      "| Repository | Readiness | Errors | Warnings | Info | Node pin | Pull request | Live check |",
      "|---|---|---:|---:|---:|---|---|---|",
    );
    for (const row of campaign.repositories) lines.push(tableRow(row));
    lines.push("");
  }
  const rules = Object.entries(t.byRule).sort((a, b) => b[1] - a[1]);
  if (rules.length > 0) {
    lines.push("### Findings by rule", "", "| Rule | Findings | Repositories |", "|---|---:|---:|");
    for (const [rule, n] of rules) {
      const repos = campaign.repositories.filter((r) => (r.byRule[rule] ?? 0) > 0).length;
      lines.push(`| \`${rule}\` ${cell(titleOf(rule))} | ${n} | ${repos} |`);
    }
    lines.push("");
  }
  lines.push(
    `<sub>${campaign.tool.name} ${campaign.tool.version} · ${campaign.generatedAt.slice(0, 16).replace("T", " ")} UTC · fail threshold: ${campaign.failOn} · details in campaign.html and repos/*.json</sub>`,
    "",
  );
  return lines.join("\n");
}

function tableRow(row: CampaignRow): string {
  const name = /^https?:\/\/[^\s<>()]+$/.test(row.url)
    ? `[${cell(row.name)}](${row.url.replace(/\.git$/, "")})`
    : cell(row.name);
  const why = row.reasons.map((r) => r.text).join("; ");
  const readiness = `${ICON[row.readiness]} ${LABEL[row.readiness]}${why ? ` (${cell(why)})` : ""}`;
  const count = (n: number): string => (row.scanned ? String(n) : "–");
  const p = row.pullRequest;
  const progress = p
    ? [p.checks ? CHECKS_LABEL[p.checks] : "", p.review ? REVIEW_LABEL[p.review] : ""].filter(Boolean).join(", ")
    : "";
  const pr =
    p && p.state !== "none"
      ? `${p.number !== undefined ? `${p.url ? `[#${p.number}](${p.url})` : `#${p.number}`} ` : ""}${p.state}${progress ? ` (${progress})` : ""}`
      : "–";
  const pin = nodePinLabel(row.nodePins);
  const check = row.check ? row.check.verdict.replace("_", " ") : "–";
  return `| ${name}${row.path ? ` \`${cell(row.path)}\`` : ""} | ${readiness} | ${count(row.findings.error)} | ${count(row.findings.warning)} | ${count(row.findings.info)} | ${pin} | ${pr} | ${check} |`;
}

function sincePrevious(campaign: Campaign): string {
  const history = campaign.history;
  if (history.length < 2) return "";
  const last = history[history.length - 1]!;
  const delta = last.findings.total - history[history.length - 2]!.findings.total;
  const partial = last.partial?.length ? ` (partial: ${last.partial.length} failed, last known findings kept)` : "";
  return (
    (delta === 0
      ? ", unchanged since the previous run"
      : `, ${delta < 0 ? "−" : "+"}${Math.abs(delta)} since the previous run`) + partial
  );
}

/** Table cells: one line, no pipes, no HTML. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function titleOf(rule: string): string {
  return (RULE_IDS as readonly string[]).includes(rule) ? `(${getRule(rule as RuleId).title})` : "";
}
