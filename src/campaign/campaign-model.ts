/**
 * The merged campaign (`campaign.json`): one row per repository with its
 * readiness, counts by severity and rule, node pin state, pull request and
 * last live check; estate-wide totals; the cutoff; and the history behind
 * the burn-down. Described by schema/campaign.schema.json (from this zod
 * schema); the Markdown summary and the HTML dashboard both render it.
 */
import { z } from "zod/v4";
import { cutoffStatus } from "../knowledge/cutoff.js";
import { TOOL } from "../platform/tool-info.js";
import { reasonSchema, reasonsOf } from "./not-ready.js";
import {
  CHECKS_STATES,
  NODE_PIN_STATES,
  PR_STATES,
  REPOS_DIR,
  type RepoReport,
  REVIEW_STATES,
  STAGES,
} from "./repo-report.js";
import { type FailOn, FAIL_ON_CHOICES, meetsThreshold, RULE_IDS, type Severity } from "./tool-api.js";

export const CAMPAIGN_VERSION = 1;

const counts = z.strictObject({
  total: z.number().int(),
  error: z.number().int(),
  warning: z.number().int(),
  info: z.number().int(),
});

export const READINESS = ["ready", "not-ready", "failed"] as const;
export type Readiness = (typeof READINESS)[number];

const rowSchema = z.strictObject({
  name: z.string(),
  url: z.string(),
  path: z.string().optional(),
  github: z.string().optional(),
  readiness: z
    .enum(READINESS)
    .describe(
      "ready: no finding and no failed live check; not-ready: findings or a live check that did not pass; failed: the run failed.",
    ),
  reasons: z
    .array(reasonSchema)
    .describe(
      "Why the repository is not ready (empty when it is): the run failed, markers left, an outdated node pin, findings left, a live check or pull request check that failed.",
    ),
  branch: z.string().optional(),
  head: z.string().optional(),
  scannedAt: z.string(),
  scanned: z.boolean().describe("false when the run failed before the scan: the counts are then unknown, not zero."),
  findings: counts,
  byRule: z.record(z.string(), z.number().int()),
  nodePins: z.enum(NODE_PIN_STATES).optional(),
  pullRequest: z
    .strictObject({
      state: z.enum(PR_STATES),
      number: z.number().int().optional(),
      url: z.string().optional(),
      checks: z.enum(CHECKS_STATES).optional(),
      review: z.enum(REVIEW_STATES).optional(),
    })
    .optional(),
  check: z.strictObject({ verdict: z.string(), reason: z.string(), checkedAt: z.string() }).optional(),
  failure: z.strictObject({ stage: z.enum(STAGES), reason: z.string() }).optional(),
  report: z.string().describe("The repository's own report, relative to campaign.json."),
});

export const historyPointSchema = z.strictObject({
  at: z.iso.datetime({ offset: true }).describe("When the newest scan of this point ran (ISO 8601)."),
  digest: z
    .string()
    .describe("Which reports the point was merged from; merging the same reports again replaces the point."),
  repositories: z.number().int(),
  ready: z.number().int(),
  failed: z.number().int(),
  findings: counts.describe(
    "Every repository's findings; a repository whose run failed counts with its last known findings.",
  ),
  byRepository: z
    .record(z.string(), counts)
    .optional()
    .describe("Each repository's findings at this point, so a later failed run can keep them."),
  partial: z
    .array(z.string())
    .optional()
    .describe(
      "Repositories whose run failed before their scan: their findings are the last known ones (none when never scanned).",
    ),
  pullRequests: z.record(z.string(), z.number().int()).optional().describe("Pull requests by state at this point."),
});

export const campaignSchema = z
  .strictObject({
    schemaVersion: z.literal(CAMPAIGN_VERSION),
    tool: z.strictObject({ name: z.string(), version: z.string() }),
    generatedAt: z.string(),
    failOn: z.enum(FAIL_ON_CHOICES),
    cutoff: z.strictObject({ date: z.string(), daysLeft: z.number().int(), passed: z.boolean(), summary: z.string() }),
    totals: z.strictObject({
      repositories: z.number().int(),
      ready: z.number().int(),
      notReady: z.number().int(),
      failed: z.number().int(),
      findings: counts,
      byRule: z.record(z.string(), z.number().int()),
      pullRequests: z.record(z.string(), z.number().int()),
      failing: z.number().int().describe("Repositories with findings at or above failOn."),
    }),
    repositories: z.array(rowSchema),
    history: z.array(historyPointSchema).describe("The burn-down: one point per merge of new reports, oldest first."),
  })
  .describe("A comfydeploy-migrate campaign: every repository's readiness, merged.");

export type Campaign = z.infer<typeof campaignSchema>;
export type CampaignRow = z.infer<typeof rowSchema>;
export type HistoryPoint = z.infer<typeof historyPointSchema>;
export type Counts = z.infer<typeof counts>;

export function campaignJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(campaignSchema, { target: "draft-2020-12" }),
    $id: "https://github.com/comfydeploy-migrate/comfydeploy-migrate/raw/main/schema/campaign.schema.json",
    title: "comfydeploy-migrate campaign (campaign.json)",
  };
}

export function rowOf(report: RepoReport): CampaignRow {
  const summary = report.scan?.summary;
  const findings: Counts = {
    total: summary?.total ?? 0,
    error: summary?.bySeverity.error ?? 0,
    warning: summary?.bySeverity.warning ?? 0,
    info: summary?.bySeverity.info ?? 0,
  };
  const checkFailed = report.check !== undefined && report.check.verdict !== "READY";
  const readiness: Readiness =
    report.status === "failed" ? "failed" : findings.total > 0 || checkFailed ? "not-ready" : "ready";
  const pr = report.pullRequest;
  return {
    name: report.name,
    url: report.url,
    ...(report.path ? { path: report.path } : {}),
    ...(report.github ? { github: report.github } : {}),
    readiness,
    reasons: readiness === "ready" ? [] : reasonsOf(report),
    ...(report.branch ? { branch: report.branch } : {}),
    ...(report.head ? { head: report.head } : {}),
    scannedAt: report.startedAt,
    scanned: report.scan !== undefined,
    findings,
    byRule: { ...(summary?.byRule ?? {}) },
    ...(report.nodePins ? { nodePins: report.nodePins } : {}),
    ...(pr ? { pullRequest: pullRequestOf(pr) } : {}),
    ...(report.check
      ? { check: { verdict: report.check.verdict, reason: report.check.reason, checkedAt: report.check.checkedAt } }
      : {}),
    ...(report.failure ? { failure: report.failure } : {}),
    report: `${REPOS_DIR}/${report.name}.json`,
  };
}

function pullRequestOf(pr: NonNullable<RepoReport["pullRequest"]>): NonNullable<CampaignRow["pullRequest"]> {
  const open = pr.state === "open";
  return {
    state: pr.state,
    ...(pr.number !== undefined ? { number: pr.number } : {}),
    ...(pr.url ? { url: pr.url } : {}),
    ...(open && pr.checks ? { checks: pr.checks } : {}),
    ...(open && pr.review ? { review: pr.review } : {}),
  };
}

/** Whether a repository has a finding at or above the threshold, from its findings' severities. */
export function failsAt(report: RepoReport, failOn: FailOn): boolean {
  return (report.scan?.findings ?? []).some((f) => meetsThreshold(f.severity as Severity, failOn));
}

export function buildCampaign(
  reports: readonly RepoReport[],
  failOn: FailOn,
  history: HistoryPoint[],
  now = new Date(),
): Campaign {
  const rows = reports.map(rowOf);
  const findings: Counts = { total: 0, error: 0, warning: 0, info: 0 };
  const rules = new Map<string, number>();
  const pullRequests: Record<string, number> = Object.fromEntries(PR_STATES.map((s) => [s, 0]));
  for (const row of rows) {
    for (const key of ["total", "error", "warning", "info"] as const) findings[key] += row.findings[key];
    for (const [rule, n] of Object.entries(row.byRule)) rules.set(rule, (rules.get(rule) ?? 0) + n);
    pullRequests[row.pullRequest?.state ?? "none"]! += 1;
  }
  const byRule: Record<string, number> = {};
  for (const id of [...RULE_IDS, ...[...rules.keys()].filter((k) => !(RULE_IDS as readonly string[]).includes(k))]) {
    const n = rules.get(id);
    if (n) byRule[id] = n;
  }
  const cutoff = cutoffStatus(now);
  return {
    schemaVersion: CAMPAIGN_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    generatedAt: now.toISOString(),
    failOn,
    cutoff: { date: cutoff.cutoff, daysLeft: cutoff.daysLeft, passed: cutoff.passed, summary: cutoff.summary },
    totals: {
      repositories: rows.length,
      ready: rows.filter((r) => r.readiness === "ready").length,
      notReady: rows.filter((r) => r.readiness === "not-ready").length,
      failed: rows.filter((r) => r.readiness === "failed").length,
      findings,
      byRule,
      pullRequests,
      failing: reports.filter((r) => failsAt(r, failOn)).length,
    },
    repositories: rows,
    history,
  };
}
