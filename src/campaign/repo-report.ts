/**
 * The report `campaign run` writes for each repository (repos/<name>.json):
 * what was scanned (URL, branch, HEAD, tool version), the embedded `scan`
 * JSON report, and what happened to its pull request and live check. A
 * failed repository has a report too, saying at which stage and why.
 * Described by schema/campaign-repo-report.schema.json (from this zod schema).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod/v4";
import { RuntimeFailure, UsageError } from "../core/errors.js";
import { writeOutput } from "../platform/output.js";
import { REPO_NAME } from "./campaign-file.js";
import { redactDeep } from "../core/redact.js";
import type { ChecksState, ReviewState } from "../platform/github/pull-review.js";

export const REPO_REPORT_VERSION = 1;
export const REPOS_DIR = "repos";

const severityCounts = z.strictObject({ error: z.number().int(), warning: z.number().int(), info: z.number().int() });

export const STAGES = ["clone", "scan", "fix", "pr", "check"] as const;
export type Stage = (typeof STAGES)[number];

export const PR_STATES = ["open", "merged", "closed", "planned", "none"] as const;
export type PrState = (typeof PR_STATES)[number];

export const NODE_PIN_STATES = ["outdated", "unknown", "none"] as const;
export type NodePinState = (typeof NODE_PIN_STATES)[number];

export const CHECKS_STATES = ["passed", "failed", "pending", "none"] as const satisfies readonly ChecksState[];
export const REVIEW_STATES = [
  "approved",
  "changes-requested",
  "review-required",
] as const satisfies readonly ReviewState[];
export type { ChecksState, ReviewState };

const pullRequestSchema = z
  .strictObject({
    state: z
      .enum(PR_STATES)
      .describe("open, merged or closed on GitHub; planned after a dry run; none when there is none."),
    number: z.number().int().optional(),
    url: z.string().optional(),
    branch: z.string().optional(),
    /** What the last `pr` run did: created, updated, unchanged or closed. */
    operation: z.string().optional(),
    /** A dry run: the files fix would change. */
    wouldChange: z.number().int().optional(),
    checkedAt: z.iso.datetime({ offset: true }).describe("When the state was last read or set (ISO 8601)."),
    runKey: z.string().optional().describe("The runKey of the scan this step ran on."),
    dryRun: z.boolean().optional().describe("Whether the step was a dry run (fix planned, nothing pushed)."),
    error: z.string().optional().describe("Why the state could not be refreshed."),
    checks: z
      .enum(CHECKS_STATES)
      .optional()
      .describe(
        "An open pull request's checks (commit statuses and check runs): failed outranks pending, pending outranks passed; none when it has none.",
      ),
    review: z
      .enum(REVIEW_STATES)
      .optional()
      .describe("An open pull request's review state, from each reviewer's latest decision."),
  })
  .describe("The repository's migration pull request.");

const checkSchema = z
  .strictObject({
    deploymentId: z.string(),
    verdict: z.enum(["READY", "NOT_READY", "UNKNOWN", "ERROR"]),
    reason: z.string(),
    checkedAt: z.iso.datetime({ offset: true }),
    runKey: z.string().optional().describe("The runKey of the scan this check ran with."),
  })
  .describe("The last live check of the repository's deployment.");

/** Only the parts of the embedded scan report that campaign reads; the rest follows schema/scan-report.schema.json. */
const embeddedScanSchema = z
  .looseObject({
    schemaVersion: z.number(),
    summary: z.looseObject({
      total: z.number().int(),
      files: z.number().int(),
      bySeverity: severityCounts,
      byRule: z.record(z.string(), z.number().int()),
    }),
    findings: z.array(z.looseObject({ ruleId: z.string(), severity: z.enum(["error", "warning", "info"]) })),
  })
  .describe("The scan JSON report of the repository (schema/scan-report.schema.json).");

export const repoReportSchema = z
  .strictObject({
    schemaVersion: z.literal(REPO_REPORT_VERSION),
    name: z.string().regex(REPO_NAME).describe("Its report file is repos/<name>.json."),
    url: z.string().describe("As the campaign names it, credentials removed."),
    path: z.string().optional().describe("The scanned directory inside the repository."),
    github: z.string().optional().describe("owner/name on GitHub, when known."),
    status: z.enum(["ok", "failed"]),
    failure: z.strictObject({ stage: z.enum(STAGES), reason: z.string() }).optional(),
    branch: z.string().optional(),
    head: z.string().optional().describe("The commit scanned."),
    tool: z.strictObject({ name: z.string(), version: z.string() }),
    runKey: z
      .string()
      .describe("Digest of HEAD, tool version and settings: an equal key means the repository needs no new run."),
    startedAt: z.iso.datetime({ offset: true }),
    durationMs: z.number(),
    nodePins: z
      .enum(NODE_PIN_STATES)
      .optional()
      .describe("outdated: a ComfyUI node pin before the minimum; unknown: a pin to settle; none: no pin to change."),
    scan: embeddedScanSchema.optional(),
    pullRequest: pullRequestSchema.optional(),
    check: checkSchema.optional(),
  })
  .describe("One repository's result in a comfydeploy-migrate campaign.");

export type RepoReport = z.infer<typeof repoReportSchema>;
export type PullRequestState = z.infer<typeof pullRequestSchema>;
export type CheckRecord = z.infer<typeof checkSchema>;

export function repoReportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(repoReportSchema, { target: "draft-2020-12" }),
    $id: "https://github.com/comfydeploy-migrate/comfydeploy-migrate/raw/main/schema/campaign-repo-report.schema.json",
    title: "comfydeploy-migrate campaign: one repository",
  };
}

export function reportFile(dir: string, name: string): string {
  return join(dir, `${name}.json`);
}

export async function writeRepoReport(dir: string, report: RepoReport): Promise<void> {
  await writeOutput(`${JSON.stringify(redactDeep(report), null, 2)}\n`, reportFile(dir, report.name));
}

/** Whether a file in repos/ is a report campaign wrote (its shape, under its own name): only those are ever removed. */
export async function isOwnReport(dir: string, entry: string): Promise<boolean> {
  try {
    const parsed = repoReportSchema.safeParse(JSON.parse(await readFile(join(dir, entry), "utf8")));
    return parsed.success && `${parsed.data.name}.json` === entry;
  } catch {
    return false;
  }
}

/** The report a previous run left, or undefined when there is none or it is not one (it is then simply redone). */
export async function readPreviousReport(dir: string, name: string): Promise<RepoReport | undefined> {
  try {
    const parsed = repoReportSchema.safeParse(JSON.parse(await readFile(reportFile(dir, name), "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Every report in a directory, sorted by name. A file that is not a report is a usage error naming it. */
export async function readAllReports(dir: string): Promise<RepoReport[]> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw new UsageError(`no reports: ${dir} does not exist (run 'campaign run' first)`);
    throw new RuntimeFailure(`cannot read ${dir}: ${error.code ?? error.message}`);
  });
  const reports: RepoReport[] = [];
  for (const entry of entries.filter((e) => e.endsWith(".json")).sort()) {
    const file = join(dir, entry);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = repoReportSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UsageError(
        `${file} is not a campaign repository report: ${issue.path.join(".") || "(top level)"}: ${issue.message}`,
      );
    }
    // status writes a report back under its name: a name that is not its file's would write elsewhere.
    if (`${parsed.data.name}.json` !== entry)
      throw new UsageError(
        `${file} is not a campaign repository report: its name "${parsed.data.name}" is not its file's`,
      );
    reports.push(parsed.data);
  }
  return reports;
}
