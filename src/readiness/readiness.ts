/**
 * One readiness report: code (scan), dependency versions, node pins and
 * worker images, and optionally the live check, ending in a checklist and an
 * overall verdict.
 */
import type { CheckResult } from "../check/live-check.js";
import type { Finding } from "../core/finding.js";
import type { RuleId } from "../rules/catalog.js";
import type { Report } from "../report/model.js";

export type OverallVerdict = "READY" | "NOT_READY" | "INCOMPLETE";

export interface ChecklistItem {
  title: string;
  /** done: nothing left; todo: findings remain; skipped: not checked. */
  state: "done" | "todo" | "skipped";
  detail: string;
}

export interface Readiness {
  verdict: OverallVerdict;
  items: ChecklistItem[];
  scan: Report;
  check?: CheckResult;
}

const AREAS: Array<{ title: string; rules: RuleId[]; done: string }> = [
  {
    title: "Code talks to the V2 API (no legacy host or endpoints)",
    rules: ["legacy-base-url", "legacy-create-run", "legacy-get-run", "other-host-v1-shape"],
    done: "no V1 host or endpoint left",
  },
  {
    title: "Code uses the V2 SDK",
    rules: ["v1-sdk-import", "v1-sdk-client", "v1-sdk-call"],
    done: "no V1 SDK use left",
  },
  {
    title: "SDK dependencies are V2 versions",
    rules: ["v1-sdk-dependency"],
    done: "manifests and lockfiles name V2 versions",
  },
  {
    title: "ComfyUI node at v2.1.0 or newer; worker image current",
    rules: ["node-component-pin", "worker-image"],
    done: "pins are current",
  },
  { title: "No review markers left by fix", rules: ["review-marker"], done: "every marker resolved" },
  { title: "Every file could be read", rules: ["unreadable-file"], done: "nothing unreadable" },
];

export function assessReadiness(scan: Report, check: CheckResult | undefined): Readiness {
  const items: ChecklistItem[] = AREAS.map((area) => {
    const found = scan.findings.filter((f) => area.rules.includes(f.ruleId));
    return found.length === 0
      ? { title: area.title, state: "done", detail: area.done }
      : { title: area.title, state: "todo", detail: describe(found) };
  });
  if (check) {
    items.push({
      title: "Live check on V2 with the migration flag",
      state: check.verdict === "READY" ? "done" : "todo",
      detail: `${check.verdict.replace("_", " ")}: ${check.reason}`,
    });
  } else {
    items.push({
      title: "Live check on V2 with the migration flag",
      state: "skipped",
      detail: "not run (pass --deployment-id)",
    });
  }
  const verdict: OverallVerdict = items.some((i) => i.state === "todo")
    ? "NOT_READY"
    : items.some((i) => i.state === "skipped")
      ? "INCOMPLETE"
      : "READY";
  return { verdict, items, scan, ...(check ? { check } : {}) };
}

function describe(findings: readonly Finding[]): string {
  const files = new Set(findings.map((f) => f.file));
  return `${findings.length} finding${findings.length === 1 ? "" : "s"} in ${files.size} file${files.size === 1 ? "" : "s"}`;
}

const MARK = { done: "[x]", todo: "[ ]", skipped: "[-]" } as const;

export function renderReadinessText(r: Readiness): string {
  const lines = [`Overall: ${r.verdict.replace("_", " ")}`, ""];
  for (const item of r.items) lines.push(`${MARK[item.state]} ${item.title}: ${item.detail}`);
  lines.push("", r.scan.cutoff.summary);
  if (r.verdict !== "READY") lines.push("Details: comfydeploy-migrate scan (code), comfydeploy-migrate check (live).");
  return `${lines.join("\n")}\n`;
}

export function renderReadinessMarkdown(r: Readiness): string {
  const icon = r.verdict === "READY" ? "✅" : r.verdict === "NOT_READY" ? "❌" : "⚠️";
  const lines = [`## V2 readiness: ${icon} ${r.verdict.replace("_", " ")}`, "", `> ${r.scan.cutoff.summary}`, ""];
  for (const item of r.items) lines.push(`- ${MARK[item.state]} **${item.title}**: ${item.detail}`);
  lines.push("", "<sub>Reproduce with:</sub>", "", "```sh", r.scan.command, "```", "");
  return lines.join("\n");
}

export function readinessJson(r: Readiness, checkJson?: Record<string, unknown>): string {
  return `${JSON.stringify(
    {
      schemaVersion: 1,
      verdict: r.verdict,
      items: r.items,
      cutoff: { date: r.scan.cutoff.cutoff, daysLeft: r.scan.cutoff.daysLeft, summary: r.scan.cutoff.summary },
      findings: r.scan.findings.length,
      ...(checkJson ? { check: checkJson } : {}),
      command: r.scan.command,
    },
    null,
    2,
  )}\n`;
}
