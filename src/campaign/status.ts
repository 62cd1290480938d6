/**
 * `campaign status`: ask GitHub where each repository's migration pull
 * request stands (open, merged, closed; an open one's checks and review
 * state) and write that into the reports,
 * without cloning or scanning anything. A pull request the campaign did not
 * open itself (say, from the `pr` action in the repository's own CI) is
 * found by its branch.
 */
import { join } from "node:path";
import { maskKnownSecrets } from "../core/redact.js";
import { type CampaignGitHub, httpStatusOf } from "./github-api.js";
import { mapLimit } from "../platform/concurrency.js";
import { CHECKS_LABEL, REVIEW_LABEL } from "./labels.js";
import { type PullRequestState, readAllReports, REPOS_DIR, type RepoReport, writeRepoReport } from "./repo-report.js";

export interface StatusOptions {
  outDir: string;
  github: CampaignGitHub;
  token: string;
  /** The branch `pr` pushes to, for pull requests not yet recorded. */
  defaultBranch: string;
  concurrency?: number;
}

export interface StatusLine {
  name: string;
  pullRequest?: PullRequestState;
  /** Why the state could not be read. */
  problem?: string;
  /** No GitHub repository is known for it. */
  notOnGitHub?: boolean;
}

export async function refreshPullRequests(
  options: StatusOptions,
): Promise<{ lines: StatusLine[]; reports: RepoReport[] }> {
  const dir = join(options.outDir, REPOS_DIR);
  const reports = await readAllReports(dir);
  const lines = await mapLimit(reports, options.concurrency ?? 4, async (report): Promise<StatusLine> => {
    if (!report.github) return { name: report.name, notOnGitHub: true };
    const [owner, name] = report.github.split("/") as [string, string];
    const known = report.pullRequest;
    const checkedAt = new Date().toISOString();
    try {
      const pull =
        known?.number !== undefined
          ? await options.github.pullRequest(owner, name, known.number)
          : await options.github.latestPullFrom(owner, name, known?.branch ?? options.defaultBranch);
      const branch = known?.branch ?? options.defaultBranch;
      // Checks and reviews matter while the pull request is open; a merged or closed one's would be stale.
      const progress =
        pull?.state === "open" ? await options.github.progress(owner, name, { number: pull.number, branch }) : {};
      const next: PullRequestState = pull
        ? {
            ...withoutProgress(known),
            state: pull.state,
            number: pull.number,
            url: pull.url,
            branch,
            ...progress,
            checkedAt,
          }
        : { ...withoutProgress(known), state: known?.state === "planned" ? "planned" : "none", checkedAt };
      report.pullRequest = next;
      await writeRepoReport(dir, report);
      return { name: report.name, pullRequest: next };
    } catch (error) {
      // A refused token fails every call the same way: stop at the first.
      if (httpStatusOf(error) === 401) throw error;
      const problem = maskKnownSecrets((error as Error).message, [options.token]);
      report.pullRequest = { ...(known ?? { state: "none" as const }), checkedAt, error: problem };
      await writeRepoReport(dir, report);
      return { name: report.name, ...(known ? { pullRequest: known } : {}), problem };
    }
  });
  return { lines, reports };
}

/** The last state without what each refresh reads anew. */
function withoutProgress(state: PullRequestState | undefined): Partial<PullRequestState> {
  if (!state) return {};
  const { error: _error, checks: _checks, review: _review, ...rest } = state;
  return rest;
}

export function renderStatusText(lines: readonly StatusLine[]): string {
  const width = Math.max(10, ...lines.map((l) => l.name.length));
  const out = lines.map((line) => {
    const pr = line.pullRequest;
    const state = line.notOnGitHub
      ? "not on GitHub (add github: owner/name to its entry)"
      : pr && pr.state !== "none"
        ? `${pr.number !== undefined ? `#${pr.number} ` : ""}${pr.state}${progressText(pr)}${pr.url ? `  ${pr.url}` : ""}`
        : "no pull request";
    return `${line.name.padEnd(width)}  ${state}${line.problem ? `  (not refreshed: ${line.problem})` : ""}`;
  });
  return `${out.join("\n")}\n`;
}

function progressText(pr: PullRequestState): string {
  return `${pr.checks ? `, ${CHECKS_LABEL[pr.checks]}` : ""}${pr.review ? `, ${REVIEW_LABEL[pr.review]}` : ""}`;
}
