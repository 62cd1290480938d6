/**
 * The one GitHub API client: Octokit with its retry plugin (5xx answers and
 * dropped connections, with a growing back-off) and its throttling plugin
 * (primary and secondary rate limits, waiting as long as GitHub asks), over
 * a fetch with a time-out per attempt and one budget for all calls and
 * waits of the client. `call` turns any failure into one masked line
 * (GitHubFailure); the endpoint modules beside this one use it.
 */
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import { TOOL } from "../tool-info.js";
import { failureOf } from "./failure.js";
import { ApiBudget, AttemptTimeout, limitedFetch, seconds } from "./transport.js";

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

export interface GitHubClientOptions {
  /** Base URL of the API (GITHUB_API_URL, an Enterprise server, a fake in tests). */
  apiUrl?: string;
  /** Sent as a bearer token when given; never part of any message. */
  token?: string;
  /** One attempt, answer included (default 30 s). */
  attemptTimeoutMs?: number;
  /** Every attempt and wait of this client together (default: no total). */
  budgetMs?: number;
  /** The longest single rate-limit wait; GitHub asking for more fails at once (default 5 min). */
  maxWaitMs?: number;
  /** Retries of one request (default 4). */
  maxRetries?: number;
  /** Milliseconds per second of waiting: tests shrink it, budgets and messages still count real seconds. */
  timeUnitMs?: number;
  /** Told before each wait, so a person knows why nothing happens for a while; `reason` follows "GitHub API answered". */
  onWait?: (reason: string, ms: number) => void;
}

/** What a response gives the endpoint modules. */
export interface Answer<T> {
  data: T;
  headers: Record<string, string | number | undefined>;
}

/** Statuses the retry plugin leaves alone: refusals, and the rate limits the throttling plugin handles. */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

// Later plugins wrap earlier ones: throttling outside retry, and the budget guard inside both, next to the request.
const RetryingOctokit = Octokit.plugin(budgetGuard, retry, throttling);

export class GitHubClient {
  readonly apiUrl: string;
  readonly octokit: Octokit;
  readonly budget: ApiBudget;
  readonly maxRetries: number;
  private readonly token: string | undefined;

  constructor(options: GitHubClientOptions = {}) {
    this.apiUrl = (options.apiUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, "");
    this.token = options.token?.trim() || undefined;
    this.budget = new ApiBudget(options.budgetMs ?? Number.POSITIVE_INFINITY);
    this.maxRetries = options.maxRetries ?? 4;
    const unit = options.timeUnitMs ?? 1000;
    const onWait = options.onWait ?? (() => undefined);
    const maxWaitMs = options.maxWaitMs ?? 300_000;
    // A rate limit is waited for when GitHub's wait fits what is left of the budget.
    const onLimit =
      (kind: string) =>
      (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean => {
        const ms = retryAfter * 1000;
        if (retryCount >= this.maxRetries || ms > maxWaitMs || !this.budget.reserve(ms)) return false;
        onWait(kind, ms);
        return true;
      };
    this.octokit = new RetryingOctokit({
      baseUrl: this.apiUrl,
      userAgent: `${TOOL.name}/${TOOL.version}`,
      // Octokit logs to the console by default; every failure here becomes one line for the caller instead.
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      request: {
        fetch: limitedFetch({
          apiOrigin: new URL(this.apiUrl).origin,
          budget: this.budget,
          attemptTimeoutMs: options.attemptTimeoutMs ?? 30_000,
          ...(this.token ? { token: this.token } : {}),
        }),
      },
      retry: { retries: this.maxRetries, retryAfterBaseValue: unit, doNotRetry: DO_NOT_RETRY },
      throttle: {
        retryAfterBaseValue: unit,
        onRateLimit: onLimit("that the rate limit is used up"),
        onSecondaryRateLimit: onLimit("with its secondary rate limit"),
      },
      budgetGuard: { budget: this.budget, maxRetries: this.maxRetries, onWait },
    } as ConstructorParameters<typeof RetryingOctokit>[0]);
  }

  /** Runs one endpoint call; any failure becomes a GitHubFailure saying `what` was attempted. */
  async call<T>(what: string, send: (octokit: GitHubClient["octokit"]) => Promise<Answer<T>>): Promise<Answer<T>> {
    try {
      return await send(this.octokit);
    } catch (error) {
      throw failureOf(error, { what, apiUrl: this.apiUrl, secrets: [this.token] });
    }
  }

  /** For advice: how long this client waits at most. */
  bounds(): string {
    const total = Number.isFinite(this.budget.totalMs) ? `at most ${seconds(this.budget.totalMs)} in all and ` : "";
    return `GitHub API calls wait ${total}retry a request ${this.maxRetries} times`;
  }
}

/** Per request: `request: { retries: 0 }` for a request GitHub must not receive twice (creating a pull request). */
export const ONCE = { request: { retries: 0 } } as const;

interface GuardOptions {
  budgetGuard?: { budget: ApiBudget; maxRetries: number; onWait: (reason: string, ms: number) => void };
}

interface FailedRequest {
  status?: number;
  request?: unknown;
  response?: unknown;
  cause?: { cause?: unknown };
}

/** What an attempt without an answer got, in words that follow "GitHub API answered". */
function noAnswer(failed: FailedRequest): string {
  return failed.cause?.cause instanceof AttemptTimeout ? "nothing in time" : "by dropping the connection";
}

/**
 * Inside the retry plugin, it sees each failed attempt first: the back-off
 * the plugin would take next (its rule: (retries so far + 1)² units) comes
 * out of the budget, or, when it does not fit, the request gets no more retries.
 */
function budgetGuard(octokit: Pick<Octokit, "hook">, options: object): void {
  const guard = (options as GuardOptions).budgetGuard;
  if (!guard) return;
  octokit.hook.error("request", (error, request) => {
    const failed = error as FailedRequest;
    const settings = request.request as { retries?: number; retryCount?: number } | undefined;
    const retried = settings?.retryCount ?? 0;
    const allowed = settings?.retries ?? guard.maxRetries;
    const status = failed.status ?? 0;
    if (
      failed.request !== undefined &&
      status >= 400 &&
      !DO_NOT_RETRY.includes(status) &&
      retried < allowed &&
      settings
    ) {
      const backoff = (retried + 1) ** 2 * 1000;
      if (guard.budget.reserve(backoff)) guard.onWait(failed.response ? `HTTP ${status}` : noAnswer(failed), backoff);
      else settings.retries = 0;
    }
    throw error;
  });
}
