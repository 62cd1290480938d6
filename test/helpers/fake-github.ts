/**
 * A fake GitHub REST API on 127.0.0.1 for end-to-end tests: repositories,
 * pull requests (create, list by head and state, read one, update, labels,
 * reviewers, assignees), an organisation's repository listing with Link-header pages,
 * repository search by topic, and a pull request's checks (commit statuses,
 * check runs) and reviews. Every call is recorded; `failures` make chosen
 * routes answer with an error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  authorized: boolean;
}

export interface FakeRepository {
  owner: string;
  name: string;
  defaultBranch?: string;
  /** What the listing answers as clone_url (tests point it at a bare repository on disk). */
  cloneUrl?: string;
  topics?: string[];
  archived?: boolean;
}

export interface FakePull {
  /** owner/name of the repository the pull request belongs to. */
  repo: string;
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  labels: string[];
  reviewers: string[];
  assignees: string[];
  /** Submitted reviews, oldest first, as GitHub lists them. */
  reviews?: Array<{ user: string; state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" }> | undefined;
}

/** What GitHub knows of a commit's checks: commit statuses and check runs. */
export interface FakeChecks {
  statuses: Array<{ context: string; state: "success" | "failure" | "error" | "pending" }>;
  runs: Array<{ name: string; status: "queued" | "in_progress" | "completed"; conclusion?: string }>;
}

export interface Failure {
  method: string;
  pattern: RegExp;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Answer this many times, then let requests through (default: always). */
  times?: number;
  /** Do what the request asks first, then answer the failure: GitHub did the work, but its answer was an error. */
  after?: boolean;
}

export class FakeGitHub {
  calls: RecordedCall[] = [];
  pulls: FakePull[] = [];
  failures: Failure[] = [];
  /** Checks per "owner/name@ref" (a branch name or a commit). */
  checks = new Map<string, FakeChecks>();
  /** Repositories per page of the organisation listing and search. */
  pageSize = 100;
  url = "";
  private server: Server | undefined;
  private readonly repositories: FakeRepository[] = [];

  constructor(readonly token: string) {}

  addRepository(repository: FakeRepository): void {
    this.repositories.push(repository);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((done) => this.server!.listen(0, "127.0.0.1", done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }

  /** GitHub's secondary rate limit as it answers it: 403, its message, and Retry-After; `times` answers, then requests pass. */
  secondaryRateLimit(pattern: RegExp, retryAfterSeconds: number, times?: number): void {
    this.failures.push({
      method: "*",
      pattern,
      status: 403,
      headers: { "retry-after": String(retryAfterSeconds) },
      body: {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        documentation_url: "https://docs.github.com/rest",
      },
      ...(times !== undefined ? { times } : {}),
    });
  }

  /** Forgets calls, pull requests and failures; repositories stay. */
  reset(): void {
    this.calls = [];
    this.pulls = [];
    this.failures = [];
    this.checks.clear();
  }

  writes(): RecordedCall[] {
    return this.calls.filter((c) => c.method !== "GET");
  }

  /** What a merge on GitHub does to a pull request. */
  merge(repo: string, number: number): void {
    const pull = this.pulls.find((p) => p.repo === repo && p.number === number);
    if (!pull) throw new Error(`no pull request ${repo}#${number}`);
    Object.assign(pull, { state: "closed", merged: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    const url = new URL(req.url!, this.url);
    const method = req.method!;
    this.calls.push({
      method,
      path: `${url.pathname}${url.search}`,
      body,
      authorized: req.headers.authorization === `Bearer ${this.token}`,
    });
    const send = (status: number, json: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(json));
    };
    const failure = this.failures.find(
      (f) => (f.method === "*" || f.method === method) && f.pattern.test(url.pathname) && f.times !== 0,
    );
    if (failure) {
      if (failure.times !== undefined) failure.times--;
      if (!failure.after) return send(failure.status, failure.body, failure.headers);
      // The work is done, and its answer replaced by the failure.
      return this.route(req, url, body, () => send(failure.status, failure.body, failure.headers));
    }
    return this.route(req, url, body, send);
  }

  private route(
    req: IncomingMessage,
    url: URL,
    body: Record<string, unknown> | undefined,
    send: (status: number, json: unknown, headers?: Record<string, string>) => void,
  ): void {
    const method = req.method!;
    if (req.headers.authorization !== `Bearer ${this.token}`) return send(401, { message: "Bad credentials" });

    if (method === "GET" && /^\/orgs\/[^/]+\/repos$/.test(url.pathname)) {
      const org = decodeURIComponent(url.pathname.split("/")[2]!);
      return this.sendPage(
        url,
        this.repositories.filter((r) => r.owner === org),
        false,
        send,
      );
    }
    if (method === "GET" && url.pathname === "/search/repositories") {
      const q = url.searchParams.get("q") ?? "";
      const org = /(?:^|\s)org:(\S+)/.exec(q)?.[1];
      const topic = /(?:^|\s)topic:(\S+)/.exec(q)?.[1];
      return this.sendPage(
        url,
        this.repositories.filter((r) => (!org || r.owner === org) && (!topic || (r.topics ?? []).includes(topic))),
        true,
        send,
      );
    }

    const repoMatch = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!repoMatch) return send(404, { message: `Not Found: ${method} ${url.pathname}` });
    const slug = `${decodeURIComponent(repoMatch[1]!)}/${decodeURIComponent(repoMatch[2]!)}`;
    const repository = this.repositories.find((r) => `${r.owner}/${r.name}` === slug);
    if (!repository) return send(404, { message: "Not Found" });
    const rest = repoMatch[3] ?? "";
    const pullJson = (p: FakePull) => ({
      number: p.number,
      html_url: `https://github.example/${p.repo}/pull/${p.number}`,
      title: p.title,
      body: p.body,
      draft: p.draft,
      state: p.state,
      merged: p.merged,
      merged_at: p.merged ? "2025-03-01T12:00:00Z" : null,
      head: { ref: p.head },
      base: { ref: p.base },
      labels: p.labels.map((name) => ({ name })),
    });
    const ofRepo = this.pulls.filter((p) => p.repo === slug);

    if (method === "GET" && rest === "")
      return send(200, { full_name: slug, default_branch: repository.defaultBranch ?? "main" });
    if (method === "GET" && rest === "/pulls") {
      const head = url.searchParams.get("head");
      const state = url.searchParams.get("state") ?? "open";
      const found = ofRepo.filter(
        (p) => `${repository.owner}:${p.head}` === head && (state === "all" || p.state === state),
      );
      if (url.searchParams.get("direction") === "desc") found.sort((a, b) => b.number - a.number);
      const perPage = Number(url.searchParams.get("per_page") ?? 30);
      return send(200, found.slice(0, perPage).map(pullJson));
    }
    if (method === "POST" && rest === "/pulls") {
      const b = body as { head: string; base: string; title: string; body: string; draft?: boolean };
      const pull: FakePull = {
        repo: slug,
        number: ofRepo.length + 1,
        head: b.head,
        base: b.base,
        title: b.title,
        body: b.body,
        draft: Boolean(b.draft),
        state: "open",
        merged: false,
        labels: [],
        reviewers: [],
        assignees: [],
      };
      this.pulls.push(pull);
      return send(201, pullJson(pull));
    }
    const commit = /^\/commits\/([^/]+)\/(status|check-runs)$/.exec(rest);
    if (method === "GET" && commit) {
      const checks = this.checks.get(`${slug}@${decodeURIComponent(commit[1]!)}`) ?? { statuses: [], runs: [] };
      if (commit[2] === "check-runs")
        return send(200, {
          total_count: checks.runs.length,
          check_runs: checks.runs.map((r) => ({ conclusion: null, ...r })),
        });
      const states = checks.statuses.map((x) => x.state);
      const state = states.some((x) => x === "failure" || x === "error")
        ? "failure"
        : states.every((x) => x === "success") && states.length > 0
          ? "success"
          : "pending";
      return send(200, { state, total_count: checks.statuses.length, statuses: checks.statuses });
    }
    const one = /^\/(pulls|issues)\/(\d+)(\/labels|\/requested_reviewers|\/assignees|\/reviews)?$/.exec(rest);
    const pull = one ? ofRepo.find((p) => p.number === Number(one[2])) : undefined;
    if (one && !pull) return send(404, { message: "Not Found" });
    if (method === "GET" && one?.[1] === "pulls" && !one[3]) return send(200, pullJson(pull!));
    if (method === "PATCH" && one?.[1] === "pulls" && !one[3]) {
      const b = body as Partial<FakePull>;
      Object.assign(pull!, {
        ...(b.title ? { title: b.title } : {}),
        ...(b.body !== undefined ? { body: b.body } : {}),
        ...(b.state ? { state: b.state } : {}),
      });
      return send(200, pullJson(pull!));
    }
    if (method === "GET" && one?.[3] === "/reviews") {
      return send(
        200,
        (pull!.reviews ?? []).map((r, i) => ({
          id: i + 1,
          user: { login: r.user },
          state: r.state,
          submitted_at: "2025-03-01T12:00:00Z",
        })),
      );
    }
    if (method === "POST" && one?.[3] === "/labels") {
      pull!.labels.push(...((body as { labels: string[] }).labels ?? []));
      return send(
        200,
        pull!.labels.map((name) => ({ name })),
      );
    }
    if (method === "POST" && one?.[3] === "/assignees") {
      pull!.assignees.push(...((body as { assignees: string[] }).assignees ?? []));
      return send(201, pullJson(pull!));
    }
    if (method === "POST" && one?.[3] === "/requested_reviewers") {
      pull!.reviewers.push(...((body as { reviewers: string[] }).reviewers ?? []));
      return send(201, pullJson(pull!));
    }
    return send(404, { message: `Not Found: ${method} ${url.pathname}` });
  }

  /** One page of repositories, with a Link header to the next one as GitHub sends it. */
  private sendPage(
    url: URL,
    repos: FakeRepository[],
    search: boolean,
    send: (status: number, json: unknown, headers?: Record<string, string>) => void,
  ): void {
    const perPage = Math.min(this.pageSize, Number(url.searchParams.get("per_page") ?? 30));
    const page = Number(url.searchParams.get("page") ?? 1);
    const items = repos.slice((page - 1) * perPage, page * perPage).map((r) => ({
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      owner: { login: r.owner },
      clone_url: r.cloneUrl ?? `https://github.example/${r.owner}/${r.name}.git`,
      default_branch: r.defaultBranch ?? "main",
      archived: r.archived ?? false,
      topics: r.topics ?? [],
    }));
    const headers: Record<string, string> = {};
    if (page * perPage < repos.length) {
      const next = new URL(url.toString());
      next.searchParams.set("page", String(page + 1));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    send(200, search ? { total_count: repos.length, incomplete_results: false, items } : items, headers);
  }
}
