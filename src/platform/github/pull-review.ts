/**
 * Where a pull request stands beyond open or merged, as Batch Changes tracks
 * it: its checks (the combined commit status and the check runs, as one
 * verdict) and its review state (each reviewer's latest decision).
 */
import type { GitHubClient } from "./client.js";
import type { RepoRef } from "./pulls.js";

export type ChecksState = "passed" | "failed" | "pending" | "none";
export type ReviewState = "approved" | "changes-requested" | "review-required";

/** Check run conclusions that fail a pull request (neutral and skipped do not). */
const FAILED_CONCLUSIONS = new Set([
  "failure",
  "timed_out",
  "cancelled",
  "action_required",
  "startup_failure",
  "stale",
]);

/** The checks of a commit (or a branch's tip): failed outranks pending, pending outranks passed. */
export async function checksOf(github: GitHubClient, repo: RepoRef, ref: string): Promise<ChecksState> {
  const where = `${repo.owner}/${repo.name}@${ref}`;
  const [status, runs] = await Promise.all([
    github.call(`reading the commit status of ${where}`, (o) =>
      o.rest.repos.getCombinedStatusForRef({ owner: repo.owner, repo: repo.name, ref, per_page: 100 }),
    ),
    github.call(`reading the check runs of ${where}`, (o) =>
      o.rest.checks.listForRef({ owner: repo.owner, repo: repo.name, ref, per_page: 100 }),
    ),
  ]);
  const states: ChecksState[] = [];
  const combined = status.data as { state?: unknown; total_count?: unknown; statuses?: unknown[] };
  // GitHub says "pending" for a commit with no statuses at all: that is no check, not a waiting one.
  const statusCount =
    typeof combined.total_count === "number" ? combined.total_count : (combined.statuses?.length ?? 0);
  if (statusCount > 0)
    states.push(combined.state === "success" ? "passed" : combined.state === "pending" ? "pending" : "failed");
  for (const run of (runs.data as { check_runs?: Array<{ status?: unknown; conclusion?: unknown }> }).check_runs ??
    []) {
    if (run.status !== "completed") states.push("pending");
    else states.push(FAILED_CONCLUSIONS.has(String(run.conclusion)) ? "failed" : "passed");
  }
  if (states.includes("failed")) return "failed";
  if (states.includes("pending")) return "pending";
  return states.length > 0 ? "passed" : "none";
}

/** Each reviewer's latest approval or change request counts; a comment changes nothing, a dismissal withdraws. */
export async function reviewStateOf(github: GitHubClient, repo: RepoRef, number: number): Promise<ReviewState> {
  const reviews = await github.call(`reading the reviews of ${repo.owner}/${repo.name}#${number}`, async (o) => ({
    data: await o.paginate(o.rest.pulls.listReviews, {
      owner: repo.owner,
      repo: repo.name,
      pull_number: number,
      per_page: 100,
    }),
    headers: {},
  }));
  const latest = new Map<string, string>();
  for (const review of reviews.data as Array<{ user?: { login?: string } | null; state?: string }>) {
    const who = review.user?.login ?? "";
    if (review.state === "APPROVED" || review.state === "CHANGES_REQUESTED" || review.state === "DISMISSED")
      latest.set(who, review.state);
  }
  const decisions = [...latest.values()];
  if (decisions.includes("CHANGES_REQUESTED")) return "changes-requested";
  return decisions.includes("APPROVED") ? "approved" : "review-required";
}
