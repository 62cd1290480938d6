/**
 * The GitHub calls a campaign makes beyond `pr`'s: list an organisation's
 * repositories (optionally by topic) and read a pull request's state, on the
 * shared client (retries, rate limits waited for, time-outs), and where an
 * open one stands: its checks and its review state. A refused token
 * or an unknown organisation is a usage error; a rate limit that outlasts
 * the retries, and anything else, a runtime failure.
 */
import { GitHubClient } from "../platform/github/client.js";
import { cliErrorOf, GitHubFailure, rateLimitAdvice } from "../platform/github/failure.js";
import { type ChecksState, checksOf, type ReviewState, reviewStateOf } from "../platform/github/pull-review.js";
import { getPull, pullsFrom } from "../platform/github/pulls.js";
import { type OrgRepository, orgRepositories } from "../platform/github/repos.js";

export type { OrgRepository };

/** A failure with the HTTP status GitHub answered, so callers can tell a refused token from one missing repository. */
export function httpStatusOf(error: unknown): number | undefined {
  return (error as { httpStatus?: number } | undefined)?.httpStatus;
}

export interface PullState {
  number: number;
  url: string;
  state: "open" | "closed" | "merged";
}

export class CampaignGitHub {
  private readonly client: GitHubClient;

  constructor(options: { apiUrl: string; token: string; attemptTimeoutMs?: number; timeUnitMs?: number }) {
    this.client = new GitHubClient(options);
  }

  /** The organisation's repositories (by topic through the search API), sorted by name. */
  async listRepositories(org: string, topic: string | undefined, includeArchived: boolean): Promise<OrgRepository[]> {
    const repos = await this.advised(orgRepositories(this.client, org, topic));
    return repos
      .filter((r) => includeArchived || !r.archived)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async pullRequest(owner: string, name: string, number: number): Promise<PullState> {
    return stateOf(await this.advised(getPull(this.client, { owner, name }, number)));
  }

  /** The newest pull request from a branch of the repository itself, in any state. */
  async latestPullFrom(owner: string, name: string, branch: string): Promise<PullState | undefined> {
    const [latest] = await this.advised(pullsFrom(this.client, { owner, name }, branch, "all", 1));
    return latest ? stateOf(latest) : undefined;
  }

  /** An open pull request's checks (at its head branch) and review state, as Batch Changes tracks them. */
  async progress(
    owner: string,
    name: string,
    pull: { number: number; branch: string },
  ): Promise<{ checks: ChecksState; review: ReviewState }> {
    const repo = { owner, name };
    const [checks, review] = await Promise.all([
      this.advised(checksOf(this.client, repo, pull.branch)),
      this.advised(reviewStateOf(this.client, repo, pull.number)),
    ]);
    return { checks, review };
  }

  private async advised<T>(step: Promise<T>): Promise<T> {
    try {
      return await step;
    } catch (error) {
      const failure = error instanceof GitHubFailure ? error : undefined;
      const advice = cliErrorOf(error, {
        auth: "check GITHUB_TOKEN or GH_TOKEN",
        forbidden: "the token cannot read this",
        "not-found": "check the name and that the token can see it",
        ...(failure?.rateLimit
          ? { "rate-limit": rateLimitAdvice(failure.rateLimit, `campaign ${this.client.bounds()}`) }
          : {}),
      });
      throw failure?.status !== undefined ? Object.assign(advice, { httpStatus: failure.status }) : advice;
    }
  }
}

function stateOf(pull: { number: number; url: string; state: PullState["state"] }): PullState {
  return { number: pull.number, url: pull.url, state: pull.state };
}
