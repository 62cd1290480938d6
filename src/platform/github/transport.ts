/**
 * What every GitHub API request goes through before Octokit sees an answer:
 * one time budget shared by all requests of a client, a time-out per
 * attempt, the whole answer read within it (a server that sends headers and
 * then stalls is abandoned too), and the token sent only to the API's own
 * origin (a Link header cannot lead it elsewhere), added here and nowhere else.
 */

/** Milliseconds spent on the API (attempts as they took, waits as asked) against one total. */
export class ApiBudget {
  private spentMs = 0;

  constructor(readonly totalMs: number) {}

  get remainingMs(): number {
    return this.totalMs - this.spentMs;
  }

  spend(ms: number): void {
    this.spentMs += ms;
  }

  /** Takes `ms` out of the budget; false (and nothing taken) when it does not fit. */
  reserve(ms: number): boolean {
    if (this.spentMs + ms > this.totalMs) return false;
    this.spentMs += ms;
    return true;
  }
}

/**
 * A request given up on purpose: the budget ran out, or the URL leaves the
 * API. Named AbortError so that Octokit neither wraps nor retries it.
 */
export class GaveUp extends Error {
  override readonly name = "AbortError";

  constructor(
    readonly reason: "budget" | "origin",
    message: string,
  ) {
    super(message);
  }
}

export function gaveUpOf(error: unknown): GaveUp | undefined {
  return error instanceof GaveUp ? error : undefined;
}

/** One attempt ran out of time. */
export class AttemptTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${seconds(ms)}`);
  }
}

/** Thrown as fetch throws a dropped connection, so that Octokit reports it as one and the retry plugin may retry it. */
function attemptTimedOut(ms: number): TypeError {
  return new TypeError("fetch failed", { cause: new AttemptTimeout(ms) });
}

export interface TransportOptions {
  apiOrigin: string;
  budget: ApiBudget;
  attemptTimeoutMs: number;
  /** Sent as a bearer token (Octokit's own auth would say "token" for some kinds). */
  token?: string;
  fetch?: typeof globalThis.fetch;
}

/** A fetch for Octokit's `request.fetch` that applies the limits above. */
export function limitedFetch(options: TransportOptions): typeof globalThis.fetch {
  const fetch = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== options.apiOrigin)
      throw new GaveUp(
        "origin",
        `refused to send the token to ${url.origin}, which is not the API at ${options.apiOrigin}`,
      );
    const left = options.budget.remainingMs;
    if (left <= 0)
      throw new GaveUp("budget", `the ${seconds(options.budget.totalMs)} budget for GitHub API calls is used up`);
    const limit = Math.min(options.attemptTimeoutMs, left);
    const byBudget = limit === left;
    const started = Date.now();
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(limit)])
      : AbortSignal.timeout(limit);
    try {
      const headers = new Headers(init?.headers);
      headers.set("x-github-api-version", "2022-11-28");
      if (options.token) headers.set("authorization", `Bearer ${options.token}`);
      const response = await fetch(url, { ...init, headers, signal });
      // Read here, within the time-out: Octokit would otherwise wait on a stalled body for ever.
      const body = await response.arrayBuffer();
      const empty = response.status === 204 || response.status === 205 || response.status === 304;
      const read = new Response(empty ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      // Octokit's paging reads the answer's URL, which a constructed Response would not have.
      return Object.defineProperty(read, "url", { value: response.url });
    } catch (error) {
      if (!signal.aborted || init?.signal?.aborted) throw error;
      if (byBudget)
        throw new GaveUp(
          "budget",
          `no answer within the ${seconds(options.budget.totalMs)} budget for GitHub API calls`,
        );
      throw attemptTimedOut(limit);
    } finally {
      options.budget.spend(Date.now() - started);
    }
  };
}

export function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)}s` : `${ms}ms`;
}
