/**
 * How long an HTTP API asks a client to wait, read from its answer:
 * `Retry-After` (seconds or an HTTP date) and GitHub's rate-limit headers.
 * GitHub's rules: a used-up primary limit (`x-ratelimit-remaining: 0`) lasts
 * until `x-ratelimit-reset` (epoch seconds); a secondary limit is a 403 or
 * 429 with `Retry-After`, or with GitHub's "secondary rate limit" message.
 */

export type HeaderBag = Record<string, string | number | string[] | undefined>;

export interface RateLimit {
  kind: "primary" | "secondary";
  /** How long the server asks to wait; undefined when it does not say. */
  waitMs: number | undefined;
  /** When a primary limit resets (epoch milliseconds), if GitHub said. */
  resetAt?: number;
}

const SECONDARY_MESSAGE = /secondary rate limit|abuse detection/i;

/** Retry-After in seconds or as an HTTP date, in milliseconds (never negative). */
export function retryAfterMs(value: string | number | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text === "") return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A rate limit by GitHub's rules, or undefined (a 403 without these signs is about permissions). */
export function rateLimitOf(
  status: number,
  headers: HeaderBag,
  message?: string,
  now: number = Date.now(),
): RateLimit | undefined {
  if (status !== 403 && status !== 429) return undefined;
  if (header(headers, "x-ratelimit-remaining") === "0") {
    const reset = Number(header(headers, "x-ratelimit-reset"));
    // One second past the reset, which GitHub gives in whole seconds.
    if (!(Number.isFinite(reset) && reset > 0)) return { kind: "primary", waitMs: undefined };
    return { kind: "primary", waitMs: Math.max(0, reset * 1000 - now + 1000), resetAt: reset * 1000 };
  }
  const retryAfter = retryAfterMs(header(headers, "retry-after"), now);
  if (retryAfter !== undefined) return { kind: "secondary", waitMs: retryAfter };
  if (status === 429 || (message !== undefined && SECONDARY_MESSAGE.test(message)))
    return { kind: "secondary", waitMs: undefined };
  return undefined;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return String(Array.isArray(value) ? value[0] : value);
}
