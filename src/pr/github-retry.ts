/**
 * When `pr` asks GitHub again, and how long it waits first. The retrying
 * itself is undici's (a RetryAgent over the global dispatcher); this module
 * only decides, following GitHub's documented rate-limit rules:
 * - a used-up primary limit (`x-ratelimit-remaining: 0`) lasts until
 *   `x-ratelimit-reset`;
 * - a secondary limit (403 or 429 with `Retry-After`, or GitHub's "secondary
 *   rate limit" message) lasts `Retry-After` seconds, or at least a minute;
 * - 5xx and dropped connections get a doubling back-off, but only for
 *   requests that can be replayed (creating a pull request cannot: GitHub may
 *   have created it before failing).
 * Every wait of one run comes out of one budget, so the total is bounded.
 */
import { type Dispatcher, getGlobalDispatcher, RetryAgent, type RetryHandler } from "undici";

export interface RetryPolicyOptions {
  /** All waits of one `pr` run together, in milliseconds. */
  budgetMs: number;
  /** Retries of one request. */
  maxRetries: number;
  /** First back-off on 5xx and network errors; it doubles each retry, up to maxDelayMs. */
  minDelayMs: number;
  maxDelayMs: number;
  /** A secondary limit that names no wait: GitHub asks for at least a minute. */
  secondaryLimitWaitMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Told before each wait, so a person knows why nothing happens for a while. */
  onWait?: (reason: string, ms: number) => void;
}

export const DEFAULT_RETRY_POLICY: RetryPolicyOptions = {
  budgetMs: 120_000,
  maxRetries: 4,
  minDelayMs: 1000,
  maxDelayMs: 30_000,
  secondaryLimitWaitMs: 60_000,
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
};

export interface RateLimit {
  kind: "primary" | "secondary";
  /** How long GitHub asks to wait; undefined when it does not say. */
  waitMs: number | undefined;
}

type Headers = Record<string, string | string[] | undefined>;

const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const RETRY_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
const SECONDARY_MESSAGE = /secondary rate limit|abuse detection/i;

/** A rate limit by GitHub's rules, or undefined (a 403 without these signs is about permissions). */
export function rateLimitOf(status: number, headers: Headers, message?: string): RateLimit | undefined {
  if (status !== 403 && status !== 429) return undefined;
  if (header(headers, "x-ratelimit-remaining") === "0") {
    const reset = Number(header(headers, "x-ratelimit-reset"));
    // One second past the reset, which GitHub gives in whole seconds.
    return { kind: "primary", waitMs: Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now() + 1000) : undefined };
  }
  const retryAfter = retryAfterMs(header(headers, "retry-after"));
  if (retryAfter !== undefined) return { kind: "secondary", waitMs: retryAfter };
  if (status === 429 || (message !== undefined && SECONDARY_MESSAGE.test(message))) return { kind: "secondary", waitMs: undefined };
  return undefined;
}

export class RetryPolicy {
  readonly options: RetryPolicyOptions;
  private spentMs = 0;

  constructor(options: Partial<RetryPolicyOptions> = {}) {
    this.options = { ...DEFAULT_RETRY_POLICY, ...options };
  }

  /** Takes `ms` out of the budget; false (and nothing taken) when it does not fit. */
  reserve(ms: number): boolean {
    if (this.spentMs + ms > this.options.budgetMs) return false;
    this.spentMs += ms;
    return true;
  }

  /** The wait before retry number `retry` (1 for the first), or undefined for no retry. */
  waitBefore(retry: number, failure: { status?: number; code?: string; headers?: Headers }, replayable: boolean): number | undefined {
    if (retry > this.options.maxRetries) return undefined;
    const backoff = Math.min(this.options.maxDelayMs, this.options.minDelayMs * 2 ** (retry - 1));
    let wait: number | undefined;
    if (failure.status === undefined) {
      wait = replayable && RETRY_CODES.has(failure.code ?? "") ? backoff : undefined;
    } else {
      const limit = rateLimitOf(failure.status, failure.headers ?? {});
      if (limit) wait = limit.waitMs ?? this.options.secondaryLimitWaitMs;
      else if (replayable && RETRY_STATUSES.has(failure.status)) wait = retryAfterMs(header(failure.headers ?? {}, "retry-after")) ?? backoff;
    }
    return wait !== undefined && this.reserve(wait) ? wait : undefined;
  }

  /** A dispatcher that retries by this policy; `replayable` says whether 5xx and network errors may be retried. */
  dispatcher(replayable: boolean): Dispatcher {
    const retry: RetryHandler.RetryCallback = (error, { state }, callback) => {
      const failure = error as Error & { statusCode?: number; code?: string; headers?: Headers };
      const isStatus = failure.code === "UND_ERR_REQ_RETRY";
      const wait = this.waitBefore(
        state.counter,
        isStatus ? { status: failure.statusCode, headers: failure.headers ?? {} } : { ...(failure.code ? { code: failure.code } : {}) },
        replayable,
      );
      if (wait === undefined) return callback(error);
      this.options.onWait?.(isStatus ? `HTTP ${failure.statusCode}` : (failure.code ?? "network error"), wait);
      this.options.sleep(wait).then(
        () => callback(null),
        (sleepError: unknown) => callback(sleepError as Error),
      );
    };
    // throwOnError: false hands the last answer, body and all, to the caller, so GitHub's message reaches the user.
    return new RetryAgent(getGlobalDispatcher(), { throwOnError: false, retry });
  }
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
