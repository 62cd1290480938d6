/**
 * The shared GitHub client against servers on 127.0.0.1 that misbehave:
 * one that never answers, one that sends headers and then stalls, one that
 * times out once, and a Link header that points elsewhere. Waits are shrunk
 * (a second of GitHub's is a millisecond here).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GitHubClient } from "../../../src/platform/github/client.js";
import { GitHubFailure } from "../../../src/platform/github/failure.js";
import { pullsFrom } from "../../../src/platform/github/pulls.js";
import { defaultBranchOf, orgRepositories } from "../../../src/platform/github/repos.js";

const TOKEN = "ghp_platformClientToken0123456789abcd";
const REPO = { owner: "acme", name: "app" };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, count: number) => void,
): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res, requests.length);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

async function failureOf(promise: Promise<unknown>): Promise<GitHubFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GitHubFailure)) throw new Error(`expected a GitHubFailure, got ${String(error)}`);
  return error;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
};

describe("time", () => {
  it("a server that never answers is given up on when the budget runs out, not later", async () => {
    const api = await serve(() => undefined);
    const client = new GitHubClient({
      apiUrl: api.url,
      token: TOKEN,
      budgetMs: 1500,
      attemptTimeoutMs: 30_000,
      timeUnitMs: 1,
    });
    const started = Date.now();
    const failure = await failureOf(defaultBranchOf(client, REPO));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(failure.kind).toBe("budget");
    expect(failure.message).toContain("no answer within the 2s budget");
  });

  it("headers and then a stalled body count as no answer", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"default_branch":');
    });
    const client = new GitHubClient({ apiUrl: api.url, token: TOKEN, budgetMs: 1000, timeUnitMs: 1 });
    expect((await failureOf(defaultBranchOf(client, REPO))).kind).toBe("budget");
  });

  it("an attempt that times out is retried within the budget, and said before the wait", async () => {
    const api = await serve((_req, res, count) =>
      count === 1 ? undefined : json(res, 200, { default_branch: "trunk" }),
    );
    const waits: string[] = [];
    const client = new GitHubClient({
      apiUrl: api.url,
      token: TOKEN,
      attemptTimeoutMs: 300,
      timeUnitMs: 1,
      onWait: (reason) => waits.push(reason),
    });
    expect(await defaultBranchOf(client, REPO)).toBe("trunk");
    expect(api.requests).toHaveLength(2);
    expect(waits).toEqual(["nothing in time"]);
  });

  it("with no retries left, a time-out is a failure of its own kind", async () => {
    const api = await serve(() => undefined);
    const client = new GitHubClient({ apiUrl: api.url, token: TOKEN, attemptTimeoutMs: 200, maxRetries: 0 });
    const failure = await failureOf(defaultBranchOf(client, REPO));
    expect(failure.kind).toBe("timeout");
    expect(failure.message).toContain("no answer within 200ms");
  });
});

describe("the token", () => {
  it("is sent as a bearer token to the API, and masked in what GitHub echoes back", async () => {
    const api = await serve((_req, res) => json(res, 422, { message: `Validation Failed for ${TOKEN}` }));
    const client = new GitHubClient({ apiUrl: api.url, token: TOKEN });
    const failure = await failureOf(pullsFrom(client, REPO, "fix", "open"));
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(failure.kind).toBe("http");
    expect(failure.message).toContain("HTTP 422");
    expect(failure.message).not.toContain(TOKEN);
  });

  it("never follows a Link header to another origin", async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, []));
    const api = await serve((_req, res) =>
      json(res, 200, [{ name: "a", owner: { login: "acme" }, clone_url: "https://example.test/a.git" }], {
        link: `<${elsewhere.url}/orgs/acme/repos?page=2>; rel="next"`,
      }),
    );
    const client = new GitHubClient({ apiUrl: api.url, token: TOKEN });
    const failure = await failureOf(orgRepositories(client, "acme", undefined));
    expect(failure.message).toContain(`refused to send the token to ${elsewhere.url}`);
    expect(elsewhere.requests).toEqual([]);
  });
});

describe("rate limits", () => {
  it("a 403 secondary limit is waited for as long as Retry-After says, then retried", async () => {
    const api = await serve((_req, res, count) =>
      count === 1
        ? json(res, 403, { message: "You have exceeded a secondary rate limit." }, { "retry-after": "5" })
        : json(res, 200, { default_branch: "main" }),
    );
    const waits: Array<[string, number]> = [];
    const client = new GitHubClient({
      apiUrl: api.url,
      token: TOKEN,
      timeUnitMs: 1,
      onWait: (reason, ms) => waits.push([reason, ms]),
    });
    expect(await defaultBranchOf(client, REPO)).toBe("main");
    expect(waits).toEqual([["with its secondary rate limit", 5000]]);
  });

  it("a limit that outlasts the retries is a rate-limit failure, never 'forbidden'", async () => {
    const api = await serve((_req, res) =>
      json(res, 403, { message: "You have exceeded a secondary rate limit." }, { "retry-after": "1" }),
    );
    const client = new GitHubClient({ apiUrl: api.url, token: TOKEN, timeUnitMs: 1, maxRetries: 2 });
    const failure = await failureOf(defaultBranchOf(client, REPO));
    expect(failure.kind).toBe("rate-limit");
    expect(failure.rateLimit).toEqual({ kind: "secondary", waitMs: 1000 });
    expect(api.requests).toHaveLength(3);
  });
});

describe("paging", () => {
  it("an organisation's repositories by topic come from every page of the search API", async () => {
    const item = (name: string) => ({ name, owner: { login: "acme" }, clone_url: `https://example.test/${name}.git` });
    const api = await serve((req, res) => {
      const page = new URL(req.url!, "http://x").searchParams.get("page") ?? "1";
      const next =
        page === "1"
          ? { link: `<http://${req.headers.host}/search/repositories?q=org%3Aacme&per_page=1&page=2>; rel="next"` }
          : undefined;
      json(res, 200, { total_count: 2, incomplete_results: false, items: [item(page === "1" ? "one" : "two")] }, next);
    });
    const repos = await orgRepositories(new GitHubClient({ apiUrl: api.url, token: TOKEN }), "acme", "comfy");
    expect(repos.map((r) => r.name)).toEqual(["one", "two"]);
    expect(new URL(api.requests[0]!.url!, "http://x").searchParams.get("q")).toBe("org:acme topic:comfy");
  });
});
