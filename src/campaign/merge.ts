/**
 * `campaign merge`: every repos/<name>.json under the output directory (from
 * one run, or downloaded from each CI shard) becomes campaign.json,
 * campaign.md and campaign.html, and the history file gains a point for the
 * burn-down.
 */
import { join } from "node:path";
import { writeOutput } from "../platform/output.js";
import { redactDeep } from "../core/redact.js";
import { buildCampaign, type Campaign, failsAt } from "./campaign-model.js";
import { readHistory, withPoint, writeHistory } from "./history.js";
import { renderCampaignHtml } from "./render-html.js";
import { renderCampaignMarkdown } from "./render-markdown.js";
import { readAllReports, REPOS_DIR, type RepoReport } from "./repo-report.js";
import type { FailOn } from "./tool-api.js";

export const CAMPAIGN_FILES = {
  json: "campaign.json",
  markdown: "campaign.md",
  html: "campaign.html",
  history: "history.json",
} as const;

export interface MergeOptions {
  outDir: string;
  failOn: FailOn;
  /** Default: history.json in outDir. */
  historyFile?: string;
  now?: Date;
}

export interface MergeResult {
  campaign: Campaign;
  reports: RepoReport[];
  files: string[];
  /** Repositories whose run failed. */
  failed: number;
  /** Repositories with findings at or above failOn. */
  failing: number;
}

export async function mergeCampaign(options: MergeOptions): Promise<MergeResult> {
  // Reports may come from elsewhere (a CI shard's artifact, an older version): the dashboard redacts them again.
  const reports = redactDeep(await readAllReports(join(options.outDir, REPOS_DIR)));
  const historyFile = options.historyFile ?? join(options.outDir, CAMPAIGN_FILES.history);
  const withoutHistory = buildCampaign(reports, options.failOn, [], options.now);
  const history = withPoint(await readHistory(historyFile), withoutHistory, reports);
  const campaign: Campaign = { ...withoutHistory, history };

  const files = {
    json: join(options.outDir, CAMPAIGN_FILES.json),
    markdown: join(options.outDir, CAMPAIGN_FILES.markdown),
    html: join(options.outDir, CAMPAIGN_FILES.html),
  };
  // All three are rendered before any is written: a failure leaves the last merge's files as they were, not a mix.
  const rendered: Array<[string, string]> = [
    [files.json, `${JSON.stringify(campaign, null, 2)}\n`],
    [files.markdown, renderCampaignMarkdown(campaign)],
    [files.html, renderCampaignHtml(campaign)],
  ];
  for (const [file, text] of rendered) await writeOutput(text, file);
  await writeHistory(historyFile, history);
  return {
    campaign,
    reports,
    files: [files.json, files.markdown, files.html, historyFile],
    failed: reports.filter((r) => r.status === "failed").length,
    failing: reports.filter((r) => failsAt(r, options.failOn)).length,
  };
}
