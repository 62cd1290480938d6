/**
 * The GitHub REST calls a campaign makes beyond `pr`'s: list an
 * organisation's repositories (optionally by topic) and read a pull
 * request's state. Answers are paged with the Link header; the token is
 * masked in every message. A refused token or an unknown organisation is a
 * usage error, anything else a runtime failure, as for `pr`.
 */
import { request } from "undici";
import { RuntimeFailure, UsageError } from "../core/errors.js";
import { maskKnownSecrets } from "../core/redact.js";
import { TOOL } from "../platform/tool-info.js";

/** At most this many pages of 100 are read (search stops at 1,000 results anyway). */
const MAX_PAGES = 50;

/** A failure with the HTTP status GitHub answered, so callers can tell a refused token from one missing repository. */
export function httpStatusOf(error: unknown): number | undefined {
  return (error as { httpStatus?: number } | undefined)?.httpStatus;
}

function withStatus<E extends Error>(error: E, status: number): E {
  return Object.assign(error, { httpStatus: status });
}

export interface OrgRepository {
  owner: string;
  name: string;
  cloneUrl: string;
  defaultBranch?: string;
  archived: boolean;
}

export interface PullState {
  number: number;
  url: string;
  state: "open" | "closed" | "merged";
}

export class CampaignGitHub {
  constructor(private readonly options: { apiUrl: string; token: string; timeoutMs?: number }) {}

  /** The organisation's repositories (by topic through the search API), sorted by name. */
  async listRepositories(org: string, topic: string | undefined, includeArchived: boolean): Promise<OrgRepository[]> {
    const first = topic
      ? `/search/repositories?${new URLSearchParams({ q: `org:${org} topic:${topic}`, per_page: "100" })}`
      : `/orgs/${encodeURIComponent(org)}/repos?${new URLSearchParams({ type: "all", per_page: "100" })}`;
    const what = topic ? `searching ${org}'s repositories with topic ${topic}` : `listing ${org}'s repositories`;
    const repos: OrgRepository[] = [];
    let next: string | undefined = `${this.options.apiUrl}${first}`;
    for (let page = 0; next && page < MAX_PAGES; page++) {
      const answer = await this.get(next, what);
      const items = topic ? (answer.json as { items?: unknown })?.items : answer.json;
      if (!Array.isArray(items)) throw new RuntimeFailure(`GitHub API: ${what} did not answer a list`);
      for (const item of items) {
        const repo = repositoryOf(item);
        if (repo && (includeArchived || !repo.archived)) repos.push(repo);
      }
      next = nextPage(answer.link);
      // The token goes only to the API it was given for.
      if (next && new URL(next).origin !== new URL(this.options.apiUrl).origin) next = undefined;
    }
    return repos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async pullRequest(owner: string, name: string, number: number): Promise<PullState> {
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls/${number}`;
    const answer = await this.get(`${this.options.apiUrl}${path}`, `reading pull request ${owner}/${name}#${number}`);
    const pull = stateOf(answer.json);
    if (!pull) throw new RuntimeFailure(`GitHub API: unexpected answer for ${owner}/${name}#${number}`);
    return pull;
  }

  /** The newest pull request from a branch of the repository itself, in any state. */
  async latestPullFrom(owner: string, name: string, branch: string): Promise<PullState | undefined> {
    const query = new URLSearchParams({ head: `${owner}:${branch}`, state: "all", sort: "created", direction: "desc", per_page: "1" });
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls?${query}`;
    const answer = await this.get(`${this.options.apiUrl}${path}`, `listing pull requests of ${owner}/${name} from ${branch}`);
    if (!Array.isArray(answer.json)) throw new RuntimeFailure(`GitHub API: listing pull requests of ${owner}/${name} did not answer a list`);
    return answer.json.length > 0 ? stateOf(answer.json[0]) : undefined;
  }

  private async get(url: string, what: string): Promise<{ json: unknown; link?: string }> {
    const timeout = this.options.timeoutMs ?? 30_000;
    let status: number;
    let text: string;
    let headers: Record<string, string | string[] | undefined>;
    try {
      const response = await request(url, {
        method: "GET",
        headers: {
          accept: "application/vnd.github+json",
          authorization: `Bearer ${this.options.token}`,
          "user-agent": `${TOOL.name}/${TOOL.version}`,
          "x-github-api-version": "2022-11-28",
        },
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      throw new RuntimeFailure(this.mask(`GitHub API at ${this.options.apiUrl} could not be reached while ${what} (${code})`));
    }
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = { message: text.slice(0, 200) };
    }
    if (status >= 200 && status < 300) {
      const link = headers.link;
      return { json, ...(typeof link === "string" ? { link } : {}) };
    }
    const said = this.mask(typeof (json as { message?: unknown })?.message === "string" ? (json as { message: string }).message : "");
    const head = `GitHub API: ${what} failed (HTTP ${status}${said ? `: ${said}` : ""})`;
    if (status === 401) throw withStatus(new UsageError(`${head}; check GITHUB_TOKEN or GH_TOKEN`), status);
    if (status === 403 && headers["x-ratelimit-remaining"] === "0") throw withStatus(new RuntimeFailure(`${head}; the rate limit is used up, try later`), status);
    if (status === 403) throw withStatus(new UsageError(`${head}; the token cannot read this`), status);
    if (status === 404) throw withStatus(new UsageError(`${head}; check the name and that the token can see it`), status);
    throw withStatus(new RuntimeFailure(head), status);
  }

  private mask(text: string): string {
    return maskKnownSecrets(text, [this.options.token]);
  }
}

function repositoryOf(value: unknown): OrgRepository | undefined {
  const repo = value as { name?: unknown; owner?: { login?: unknown }; clone_url?: unknown; default_branch?: unknown; archived?: unknown } | undefined;
  if (typeof repo?.name !== "string" || typeof repo.owner?.login !== "string" || typeof repo.clone_url !== "string") return undefined;
  return {
    owner: repo.owner.login,
    name: repo.name,
    cloneUrl: repo.clone_url,
    ...(typeof repo.default_branch === "string" ? { defaultBranch: repo.default_branch } : {}),
    archived: repo.archived === true,
  };
}

function stateOf(value: unknown): PullState | undefined {
  const pull = value as { number?: unknown; html_url?: unknown; state?: unknown; merged_at?: unknown; merged?: unknown } | undefined;
  if (typeof pull?.number !== "number" || typeof pull.html_url !== "string") return undefined;
  const merged = pull.merged === true || (typeof pull.merged_at === "string" && pull.merged_at !== "");
  return { number: pull.number, url: pull.html_url, state: merged ? "merged" : pull.state === "open" ? "open" : "closed" };
}

/** The rel="next" URL of a Link header. */
function nextPage(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}
