/**
 * The few GitHub REST endpoints `pr` needs, over undici, retried by
 * github-retry's policy (5xx, dropped connections, rate limits) within one
 * bounded budget. Every failure is one line saying what was attempted and
 * what GitHub answered; auth and permission problems are usage errors, rate
 * limits and the rest runtime failures.
 */
import { type Dispatcher, request } from "undici";
import { RuntimeFailure, UsageError } from "../core/errors.js";
import { maskKnownSecrets } from "../core/redact.js";
import { TOOL } from "../platform/tool-info.js";
import { type RateLimit, rateLimitOf, RetryPolicy, type RetryPolicyOptions } from "./github-retry.js";

export interface PullRequest {
  number: number;
  url: string;
  title: string;
  body: string;
  base: string;
  draft: boolean;
  labels: string[];
}

export interface GitHubClientOptions {
  apiUrl: string;
  token: string;
  owner: string;
  name: string;
  timeoutMs?: number;
  /** Retry budget and back-off (tests shorten them and record the waits). */
  retry?: Partial<RetryPolicyOptions>;
}

interface Answer {
  status: number;
  json: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export class GitHubClient {
  private readonly repoPath: string;
  private readonly policy: RetryPolicy;
  /** Requests GitHub can safely receive twice, and those it cannot (creating a pull request). */
  private readonly dispatchers: { replayable: Dispatcher; once: Dispatcher };

  constructor(private readonly options: GitHubClientOptions) {
    this.repoPath = `/repos/${encodeURIComponent(options.owner)}/${encodeURIComponent(options.name)}`;
    this.policy = new RetryPolicy(options.retry);
    this.dispatchers = { replayable: this.policy.dispatcher(true), once: this.policy.dispatcher(false) };
  }

  async defaultBranch(): Promise<string> {
    const repo = (await this.call("GET", this.repoPath, undefined, "reading the repository")) as { default_branch?: unknown };
    if (typeof repo.default_branch !== "string") throw new RuntimeFailure("GitHub API: the repository answer has no default_branch");
    return repo.default_branch;
  }

  /** The open pull request from this repository's branch, preferring one into `base` when several are open. */
  async findOpenPull(branch: string, base?: string): Promise<PullRequest | undefined> {
    const query = new URLSearchParams({ head: `${this.options.owner}:${branch}`, state: "open", per_page: "100" });
    const list = await this.call("GET", `${this.repoPath}/pulls?${query}`, undefined, `listing open pull requests from ${branch}`);
    if (!Array.isArray(list)) throw new RuntimeFailure("GitHub API: listing pull requests did not answer a list");
    const pulls = list.map(pullOf);
    return pulls.find((p) => base === undefined || p.base === base) ?? pulls[0];
  }

  async createPull(input: { head: string; base: string; title: string; body: string; draft: boolean }): Promise<PullRequest> {
    return pullOf(await this.call("POST", `${this.repoPath}/pulls`, input, "creating the pull request", false));
  }

  async updatePull(number: number, input: { title?: string; body?: string; base?: string; state?: "closed" }): Promise<PullRequest> {
    return pullOf(await this.call("PATCH", `${this.repoPath}/pulls/${number}`, input, `updating pull request #${number}`));
  }

  async addLabels(number: number, labels: readonly string[]): Promise<void> {
    await this.call("POST", `${this.repoPath}/issues/${number}/labels`, { labels }, `labelling pull request #${number}`);
  }

  async addAssignees(number: number, assignees: readonly string[]): Promise<void> {
    await this.call("POST", `${this.repoPath}/issues/${number}/assignees`, { assignees }, `assigning pull request #${number}`);
  }

  async requestReviewers(number: number, reviewers: readonly string[], teamReviewers: readonly string[]): Promise<void> {
    await this.call(
      "POST",
      `${this.repoPath}/pulls/${number}/requested_reviewers`,
      { reviewers, team_reviewers: teamReviewers },
      `requesting reviewers on pull request #${number}`,
    );
  }

  /** Labels, assignees, reviewers and PATCHes are replayable: asking twice changes nothing. */
  private async call(method: "GET" | "POST" | "PATCH", path: string, body: unknown, what: string, replayable = true): Promise<unknown> {
    for (let retry = 1; ; retry++) {
      const answer = await this.send(method, path, body, what, replayable);
      if (answer.status >= 200 && answer.status < 300) return answer.json;
      const limit = rateLimitOf(answer.status, answer.headers, githubMessage(answer.json));
      // A secondary limit told only in the body: the transport could not see it, so wait here.
      const toldOnlyInBody = limit !== undefined && rateLimitOf(answer.status, answer.headers) === undefined;
      const wait = toldOnlyInBody ? this.policy.options.secondaryLimitWaitMs : undefined;
      if (wait !== undefined && retry <= this.policy.options.maxRetries && this.policy.reserve(wait)) {
        this.policy.options.onWait?.(`HTTP ${answer.status}, secondary rate limit`, wait);
        await this.policy.options.sleep(wait);
        continue;
      }
      throw this.failure(answer, what, limit);
    }
  }

  private async send(method: string, path: string, body: unknown, what: string, replayable: boolean): Promise<Answer> {
    const timeout = this.options.timeoutMs ?? 30_000;
    try {
      const response = await request(`${this.options.apiUrl}${path}`, {
        dispatcher: replayable ? this.dispatchers.replayable : this.dispatchers.once,
        method: method as "GET",
        headers: {
          accept: "application/vnd.github+json",
          authorization: `Bearer ${this.options.token}`,
          "user-agent": `${TOOL.name}/${TOOL.version}`,
          "x-github-api-version": "2022-11-28",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const text = await response.body.text();
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        // Masked before it is cut: a token cut in two would no longer be recognised.
        json = { message: this.mask(text).slice(0, 200) };
      }
      return { status: response.statusCode, json, headers: response.headers };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      throw new RuntimeFailure(this.mask(`GitHub API at ${this.options.apiUrl} could not be reached while ${what} (${code})`));
    }
  }

  private failure(answer: Answer, what: string, limit: RateLimit | undefined): Error {
    const said = this.mask(githubMessage(answer.json));
    const head = `GitHub API: ${what} failed (HTTP ${answer.status}${said ? `: ${said}` : ""})`;
    if (answer.status === 401) return new UsageError(`${head}; check GITHUB_TOKEN or GH_TOKEN`);
    if (limit) return new RuntimeFailure(`${head}; ${this.rateLimitAdvice(limit)}`);
    if (answer.status === 403) {
      return new UsageError(
        `${head}; the token needs contents: write and pull-requests: write` +
          (/not permitted to create/i.test(said) ? ", and the repository must allow GitHub Actions to create pull requests" : ""),
      );
    }
    if (answer.status === 404) return new UsageError(`${head}; check the repository name and that the token can see it`);
    return new RuntimeFailure(head);
  }

  /** Why no more waiting was done, and when a rerun can work. */
  private rateLimitAdvice(limit: RateLimit): string {
    const name = limit.kind === "primary" ? "the API rate limit is used up" : "GitHub's secondary rate limit was hit";
    const bounds = `pr waits at most ${Math.round(this.policy.options.budgetMs / 1000)}s in all and retries a request ${this.policy.options.maxRetries} times`;
    if (limit.waitMs === undefined) return `${name} (${bounds}); wait a few minutes, then rerun`;
    const until = new Date(Date.now() + limit.waitMs).toISOString().replace(/\.\d+Z$/, "Z");
    return `${name} (GitHub asks to wait ${Math.ceil(limit.waitMs / 1000)}s; ${bounds}); rerun after ${until}`;
  }

  private mask(text: string): string {
    return maskKnownSecrets(text, [this.options.token]);
  }
}

function pullOf(value: unknown): PullRequest {
  const pr = value as
    | { number?: unknown; html_url?: unknown; title?: unknown; body?: unknown; base?: { ref?: unknown }; draft?: unknown; labels?: unknown }
    | undefined;
  if (typeof pr?.number !== "number" || typeof pr.html_url !== "string") throw new RuntimeFailure("GitHub API: unexpected pull request answer (no number or html_url)");
  return {
    number: pr.number,
    url: pr.html_url,
    title: typeof pr.title === "string" ? pr.title : "",
    body: typeof pr.body === "string" ? pr.body : "",
    base: typeof pr.base?.ref === "string" ? pr.base.ref : "",
    draft: pr.draft === true,
    labels: Array.isArray(pr.labels) ? pr.labels.map((l: { name?: unknown }) => l?.name).filter((n): n is string => typeof n === "string") : [],
  };
}

/** GitHub's message plus the first detail of a validation error, on one line. */
function githubMessage(json: unknown): string {
  const body = json as { message?: unknown; errors?: Array<{ message?: unknown; code?: unknown; field?: unknown }> } | undefined;
  const message = typeof body?.message === "string" ? body.message : "";
  const first = Array.isArray(body?.errors) ? body.errors[0] : undefined;
  const detail =
    typeof first?.message === "string"
      ? first.message
      : first && typeof first.code === "string"
        ? `${typeof first.field === "string" ? `${first.field} ` : ""}${first.code}`
        : "";
  return [message, detail].filter(Boolean).join(": ").replace(/\s*\n\s*/g, " ");
}
