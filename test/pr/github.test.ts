/**
 * `pr`'s GitHub client against a fake API on 127.0.0.1: retries on 5xx and
 * rate limits (Retry-After, x-ratelimit-reset, secondary limits) within a
 * bounded total, and the advice each failure gets. Waits are recorded and
 * shrunk (a second of GitHub's is a millisecond here), so nothing here
 * depends on the clock.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RuntimeFailure, UsageError } from "../../src/core/errors.js";
import { GitHubClient, type GitHubClientOptions } from "../../src/pr/github.js";

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Reset the connection instead of answering. */
  reset?: boolean;
  /** Send these bytes as they are instead of `body` as JSON. */
  raw?: string;
}

const TOKEN = "ghs_fakeRetryToken0123456789";
const REPO = { default_branch: "main" };
const PULL = {
  number: 7,
  html_url: "https://github.example/acme/app/pull/7",
  title: "t",
  body: "b",
  base: { ref: "main" },
  draft: false,
};
const SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A fake API that plays `script` in order (then repeats its last answer) and records each request. */
async function fakeGitHub(script: Answer[]): Promise<{ url: string; calls: Array<{ method: string; path: string }> }> {
  const calls: Array<{ method: string; path: string }> = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      calls.push({ method: req.method!, path: req.url! });
      const answer = script[Math.min(calls.length, script.length) - 1]!;
      if (answer.reset) return req.socket.resetAndDestroy();
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(answer.raw ?? (answer.body === undefined ? "" : JSON.stringify(answer.body)));
    });
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, calls };
}

function client(apiUrl: string, waits: number[], options: Partial<GitHubClientOptions> = {}): GitHubClient {
  return new GitHubClient({
    apiUrl,
    token: TOKEN,
    owner: "acme",
    name: "app",
    timeUnitMs: 1,
    onWait: (_reason, ms) => waits.push(ms),
    ...options,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  if (!outcome) throw new Error("expected a failure");
  return outcome;
}

describe("retries", () => {
  it("retries 502 and 503 on a read with growing back-off, then succeeds", async () => {
    const api = await fakeGitHub([{ status: 502 }, { status: 503 }, { status: 200, body: REPO }]);
    const waits: number[] = [];
    expect(await client(api.url, waits).defaultBranch()).toBe("main");
    expect(api.calls).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
  });

  it("retries a connection reset on a read", async () => {
    const api = await fakeGitHub([
      { status: 0, reset: true },
      { status: 200, body: REPO },
    ]);
    expect(await client(api.url, []).defaultBranch()).toBe("main");
    expect(api.calls).toHaveLength(2);
  });

  it("429 with GitHub's secondary-limit message waits as long as Retry-After says", async () => {
    const api = await fakeGitHub([
      { status: 429, headers: { "retry-after": "7" }, body: { message: SECONDARY } },
      { status: 200, body: REPO },
    ]);
    const waits: number[] = [];
    expect(await client(api.url, waits).defaultBranch()).toBe("main");
    expect(waits).toEqual([7000]);
  });

  it("a used-up primary limit waits until x-ratelimit-reset", async () => {
    const reset = Math.ceil(Date.now() / 1000) + 30;
    const api = await fakeGitHub([
      {
        status: 403,
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
        body: { message: "API rate limit exceeded" },
      },
      { status: 200, body: REPO },
    ]);
    const waits: number[] = [];
    expect(await client(api.url, waits).defaultBranch()).toBe("main");
    expect(waits).toHaveLength(1);
    expect(waits[0]!).toBeGreaterThan(28_000);
    expect(waits[0]!).toBeLessThanOrEqual(32_000);
  });

  it("a primary limit that resets after the budget fails at once: exit 3, with when to rerun, not the permissions advice", async () => {
    const reset = Math.ceil(Date.now() / 1000) + 3600;
    const api = await fakeGitHub([
      {
        status: 403,
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
        body: { message: "API rate limit exceeded" },
      },
    ]);
    const waits: number[] = [];
    const error = await failureOf(client(api.url, waits).defaultBranch());
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error.message).toContain("rate limit is used up");
    expect(error.message).toContain(`rerun after ${new Date(reset * 1000 + 1000).toISOString().slice(0, 16)}`);
    expect(error.message).not.toContain("contents: write");
    expect([waits, api.calls.length]).toEqual([[], 1]);
  });

  it("labels and reviewer requests are retried on 5xx (asking twice changes nothing)", async () => {
    const api = await fakeGitHub([{ status: 502 }, { status: 200, body: [{ name: "migration" }] }]);
    await client(api.url, []).addLabels(7, ["migration"]);
    expect(api.calls.map((c) => c.method)).toEqual(["POST", "POST"]);
  });

  it("creating a pull request is not replayed on 5xx: GitHub may have created it", async () => {
    const api = await fakeGitHub([{ status: 502 }, { status: 201, body: PULL }]);
    const error = await failureOf(
      client(api.url, []).createPull({ head: "fix", base: "main", title: "t", body: "b", draft: false }),
    );
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error.message).toContain("HTTP 502");
    expect(api.calls).toHaveLength(1);
  });

  it("creating a pull request is retried after a rate limit (GitHub did nothing)", async () => {
    const api = await fakeGitHub([
      { status: 429, headers: { "retry-after": "2" }, body: { message: SECONDARY } },
      { status: 201, body: PULL },
    ]);
    const waits: number[] = [];
    const pull = await client(api.url, waits).createPull({
      head: "fix",
      base: "main",
      title: "t",
      body: "b",
      draft: false,
    });
    expect(pull.number).toBe(7);
    expect(waits).toEqual([2000]);
  });

  it("the total is bounded: a 5xx that never ends stops after the last retry, within the budget", async () => {
    const api = await fakeGitHub([{ status: 503, body: { message: "Service Unavailable" } }]);
    const waits: number[] = [];
    const error = await failureOf(client(api.url, waits, { budgetMs: 60_000, maxRetries: 4 }).defaultBranch());
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error.message).toContain("HTTP 503");
    expect(api.calls.length).toBeLessThanOrEqual(5);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
  });

  it("the budget is shared by every call of one run", async () => {
    const api = await fakeGitHub([{ status: 429, headers: { "retry-after": "40" }, body: { message: SECONDARY } }]);
    const waits: number[] = [];
    const github = client(api.url, waits, { budgetMs: 100_000 });
    await failureOf(github.defaultBranch());
    await failureOf(github.defaultBranch());
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100_000);
    expect(waits).toEqual([40_000, 40_000]);
  });
});

describe("secondary rate limits", () => {
  it("403 with Retry-After is a rate limit: waited for and retried", async () => {
    const api = await fakeGitHub([
      { status: 403, headers: { "retry-after": "3" }, body: { message: SECONDARY } },
      { status: 200, body: REPO },
    ]);
    const waits: number[] = [];
    expect(await client(api.url, waits).defaultBranch()).toBe("main");
    expect(waits).toEqual([3000]);
  });

  it("403 with only GitHub's message waits a minute, as GitHub asks, then retries", async () => {
    const api = await fakeGitHub([
      { status: 403, body: { message: SECONDARY, documentation_url: "https://docs.github.com/rest" } },
      { status: 200, body: REPO },
    ]);
    const waits: number[] = [];
    expect(await client(api.url, waits).defaultBranch()).toBe("main");
    expect(waits).toEqual([60_000]);
  });

  it("a wait beyond the budget fails at once: runtime failure (exit 3) with rate-limit advice, not the permissions advice", async () => {
    const api = await fakeGitHub([{ status: 403, headers: { "retry-after": "86400" }, body: { message: SECONDARY } }]);
    const waits: number[] = [];
    const error = await failureOf(client(api.url, waits).findOpenPull("fix"));
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error.message).toContain("secondary rate limit");
    expect(error.message).toMatch(/rerun/i);
    expect(error.message).not.toContain("contents: write");
    expect(waits).toEqual([]);
    expect(api.calls).toHaveLength(1);
  });

  it("the message alone with too small a budget is the same runtime failure", async () => {
    const api = await fakeGitHub([{ status: 403, body: { message: SECONDARY } }]);
    const error = await failureOf(client(api.url, [], { budgetMs: 30_000 }).defaultBranch());
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error.message).not.toContain("contents: write");
  });

  it("a 403 that is not a rate limit is still the permissions advice (usage error, no retry)", async () => {
    const api = await fakeGitHub([{ status: 403, body: { message: "Resource not accessible by integration" } }]);
    const waits: number[] = [];
    const error = await failureOf(client(api.url, waits).defaultBranch());
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain("contents: write");
    expect(waits).toEqual([]);
    expect(api.calls).toHaveLength(1);
  });
});

describe("the token in GitHub's answers", () => {
  it("is masked before a non-JSON answer is cut into an excerpt (a cut token would not be recognised)", async () => {
    // An HTML error page from a proxy that echoes the request, with the token where a 200-character excerpt cuts it.
    const api = await fakeGitHub([{ status: 400, raw: `<html>${"x".repeat(200 - 6 - 10)}${TOKEN} rejected</html>` }]);
    const error = await failureOf(
      client(api.url, []).createPull({ head: "fix", base: "main", title: "t", body: "b", draft: false }),
    );
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error.message).toContain("HTTP 400");
    expect(error.message).not.toContain(TOKEN.slice(0, 10));
  });
});
