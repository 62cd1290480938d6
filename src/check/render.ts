/** The check's verdict as text, JSON or Markdown. */
import { terminalSafeLine } from "../core/terminal-safe.js";
import type { CheckResult, Verdict } from "./live-check.js";

export const VERDICT_EXIT: Record<Verdict, number> = { READY: 0, NOT_READY: 1, ERROR: 3, UNKNOWN: 4 };

const LABEL: Record<Verdict, string> = { READY: "READY", NOT_READY: "NOT READY", UNKNOWN: "UNKNOWN", ERROR: "ERROR" };

/** Text for the terminal: the reason and details quote the server, so their control characters are escaped. */
export function renderCheckText(result: CheckResult): string {
  const lines = [`${LABEL[result.verdict]}: ${terminalSafeLine(result.reason)}`];
  if (result.detail?.length)
    for (const d of result.detail) lines.push(terminalSafeLine(`  - ${d.loc.join(".")}: ${d.msg} (${d.type})`));
  lines.push(
    `deployment ${result.deploymentId}, flag ${result.flag}, API ${result.baseUrl}${result.runId ? `, run ${result.runId}` : ""}`,
  );
  lines.push(result.cutoff.summary);
  return `${lines.join("\n")}\n`;
}

export function checkJson(result: CheckResult): Record<string, unknown> {
  return {
    schemaVersion: 1,
    verdict: result.verdict,
    reason: result.reason,
    deploymentId: result.deploymentId,
    flag: result.flag,
    baseUrl: result.baseUrl,
    ...(result.runId ? { runId: result.runId } : {}),
    ...(result.status ? { status: result.status } : {}),
    ...(result.liveStatus !== undefined ? { liveStatus: result.liveStatus } : {}),
    ...(result.httpStatus ? { httpStatus: result.httpStatus } : {}),
    ...(result.detail ? { detail: result.detail } : {}),
    cutoff: { date: result.cutoff.cutoff, daysLeft: result.cutoff.daysLeft, summary: result.cutoff.summary },
  };
}

export function renderCheckJson(result: CheckResult): string {
  return `${JSON.stringify(checkJson(result), null, 2)}\n`;
}

export function renderCheckMarkdown(result: CheckResult): string {
  const icon = result.verdict === "READY" ? "✅" : result.verdict === "NOT_READY" ? "❌" : "⚠️";
  const lines = [
    `### Live V2 check: ${icon} ${LABEL[result.verdict]}`,
    "",
    result.reason,
    "",
    `| deployment | flag | run | status | live status |`,
    `|---|---|---|---|---|`,
    `| \`${result.deploymentId}\` | \`${result.flag}\` | ${result.runId ? `\`${result.runId}\`` : "—"} | ${result.status ?? "—"} | ${result.liveStatus ?? "—"} |`,
    "",
    `> ${result.cutoff.summary}`,
  ];
  if (result.detail?.length) lines.splice(3, 0, ...result.detail.map((d) => `- \`${d.loc.join(".")}\`: ${d.msg}`), "");
  return `${lines.join("\n")}\n`;
}
