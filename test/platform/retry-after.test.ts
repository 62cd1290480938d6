/** Reading how long GitHub asks to wait: Retry-After in both forms, the primary limit's reset, and what is not a rate limit. */
import { describe, expect, it } from "vitest";
import { rateLimitOf, retryAfterMs } from "../../src/platform/retry-after.js";

const NOW = Date.parse("2030-01-01T12:00:00Z");

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, never a negative wait", () => {
    expect(retryAfterMs("7", NOW)).toBe(7000);
    expect(retryAfterMs(" 0 ", NOW)).toBe(0);
    expect(retryAfterMs("Tue, 01 Jan 2030 12:00:30 GMT", NOW)).toBe(30_000);
    expect(retryAfterMs("Tue, 01 Jan 2030 11:00:00 GMT", NOW)).toBe(0);
    expect(retryAfterMs("-5", NOW)).toBe(0);
  });

  it("is undefined for nothing or nonsense", () => {
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
    expect(retryAfterMs("", NOW)).toBeUndefined();
    expect(retryAfterMs("soon", NOW)).toBeUndefined();
  });
});

describe("rateLimitOf", () => {
  it("a used-up primary limit lasts until one second past x-ratelimit-reset", () => {
    const reset = NOW / 1000 + 60;
    expect(
      rateLimitOf(
        403,
        { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
        "API rate limit exceeded",
        NOW,
      ),
    ).toEqual({
      kind: "primary",
      waitMs: 61_000,
      resetAt: reset * 1000,
    });
    expect(rateLimitOf(429, { "x-ratelimit-remaining": "0" }, undefined, NOW)).toEqual({
      kind: "primary",
      waitMs: undefined,
    });
  });

  it("a secondary limit: Retry-After, GitHub's message, or any 429", () => {
    expect(rateLimitOf(403, { "retry-after": "3" }, undefined, NOW)).toEqual({ kind: "secondary", waitMs: 3000 });
    expect(rateLimitOf(403, {}, "You have exceeded a secondary rate limit.", NOW)).toEqual({
      kind: "secondary",
      waitMs: undefined,
    });
    expect(rateLimitOf(429, {}, "Too Many Requests", NOW)).toEqual({ kind: "secondary", waitMs: undefined });
  });

  it("a 403 without these signs is about permissions, and other statuses are never rate limits", () => {
    expect(
      rateLimitOf(403, { "x-ratelimit-remaining": "4999" }, "Resource not accessible by integration", NOW),
    ).toBeUndefined();
    expect(rateLimitOf(503, { "retry-after": "3" }, undefined, NOW)).toBeUndefined();
  });
});
