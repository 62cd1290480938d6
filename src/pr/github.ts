/**
 * The GitHub calls `pr` makes, on the shared client, with `pr`'s advice on
 * each failure: every call and wait of one run fits in one budget (120 s by
 * default, `--api-budget`), so a GitHub that hangs is given up on in time.
 * Refused tokens and unknown repositories are usage errors, rate limits,
 * time-outs and the rest runtime failures.
 */
import { GitHubClient as Client } from "../platform/github/client.js";
import { cliErrorOf, GitHubFailure, rateLimitAdvice } from "../platform/github/failure.js";
import * as pulls from "../platform/github/pulls.js";
import { defaultBranchOf } from "../platform/github/repos.js";

export type PullRequest = pulls.PullRequest;

export const DEFAULT_API_BUDGET_MS = 120_000;

export interface GitHubClientOptions {
  apiUrl: string;
  token: string;
  owner: string;
  name: string;
  /** Every call and wait of the run together (default 120 s). */
  budgetMs?: number;
  attemptTimeoutMs?: number;
  maxRetries?: number;
  /** Milliseconds per second of waiting (tests shrink it). */
  timeUnitMs?: number;
  onWait?: (reason: string, ms: number) => void;
}

export class GitHubClient {
  private readonly client: Client;
  private readonly repo: pulls.RepoRef;

  constructor(options: GitHubClientOptions) {
    this.repo = { owner: options.owner, name: options.name };
    this.client = new Client({
      apiUrl: options.apiUrl,
      token: options.token,
      budgetMs: options.budgetMs ?? DEFAULT_API_BUDGET_MS,
      ...(options.attemptTimeoutMs !== undefined ? { attemptTimeoutMs: options.attemptTimeoutMs } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.timeUnitMs !== undefined ? { timeUnitMs: options.timeUnitMs } : {}),
      ...(options.onWait ? { onWait: options.onWait } : {}),
    });
  }

  defaultBranch(): Promise<string> {
    return this.advised(defaultBranchOf(this.client, this.repo));
  }

  /** The open pull request from this repository's branch, preferring one into `base` when several are open. */
  async findOpenPull(branch: string, base?: string): Promise<PullRequest | undefined> {
    const open = await this.advised(pulls.pullsFrom(this.client, this.repo, branch, "open"));
    return open.find((p) => base === undefined || p.base === base) ?? open[0];
  }

  createPull(input: { head: string; base: string; title: string; body: string; draft: boolean }): Promise<PullRequest> {
    return this.advised(pulls.createPull(this.client, this.repo, input));
  }

  updatePull(
    number: number,
    input: { title?: string; body?: string; base?: string; state?: "closed" },
  ): Promise<PullRequest> {
    return this.advised(pulls.updatePull(this.client, this.repo, number, input));
  }

  addLabels(number: number, labels: readonly string[]): Promise<void> {
    return this.advised(pulls.addLabels(this.client, this.repo, number, labels));
  }

  addAssignees(number: number, assignees: readonly string[]): Promise<void> {
    return this.advised(pulls.addAssignees(this.client, this.repo, number, assignees));
  }

  requestReviewers(number: number, reviewers: readonly string[], teamReviewers: readonly string[]): Promise<void> {
    return this.advised(pulls.requestReviewers(this.client, this.repo, number, reviewers, teamReviewers));
  }

  private async advised<T>(step: Promise<T>): Promise<T> {
    try {
      return await step;
    } catch (error) {
      const failure = error instanceof GitHubFailure ? error : undefined;
      const said = failure?.said ?? "";
      const limit = failure?.rateLimit;
      throw cliErrorOf(error, {
        auth: "check GITHUB_TOKEN or GH_TOKEN",
        forbidden:
          "the token needs contents: write and pull-requests: write" +
          (/not permitted to create/i.test(said)
            ? ", and the repository must allow GitHub Actions to create pull requests"
            : ""),
        "not-found": "check the repository name and that the token can see it",
        ...(limit ? { "rate-limit": rateLimitAdvice(limit, `pr ${this.client.bounds()}`) } : {}),
        budget: "rerun when GitHub answers again, or give pr more time with --api-budget",
      });
    }
  }
}
