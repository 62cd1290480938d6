/** Repository endpoints: one repository's default branch, and an organisation's repositories (by topic through search). */
import type { GitHubClient } from "./client.js";
import { UnexpectedAnswer } from "./failure.js";
import type { RepoRef } from "./pulls.js";

export interface OrgRepository {
  owner: string;
  name: string;
  cloneUrl: string;
  defaultBranch?: string;
  archived: boolean;
}

/** At most this many pages of 100 are read (search stops at 1,000 results anyway). */
const MAX_PAGES = 50;

export async function defaultBranchOf(github: GitHubClient, repo: RepoRef): Promise<string> {
  const answer = await github.call("reading the repository", (o) =>
    o.rest.repos.get({ owner: repo.owner, repo: repo.name }),
  );
  const branch = (answer.data as { default_branch?: unknown }).default_branch;
  if (typeof branch !== "string") throw new UnexpectedAnswer("GitHub API: the repository answer has no default_branch");
  return branch;
}

/** The organisation's repositories, or those with `topic`, in the order GitHub lists them. */
export async function orgRepositories(
  github: GitHubClient,
  org: string,
  topic: string | undefined,
): Promise<OrgRepository[]> {
  const what = topic ? `searching ${org}'s repositories with topic ${topic}` : `listing ${org}'s repositories`;
  const pages = topic
    ? github.octokit.paginate.iterator(github.octokit.rest.search.repos, {
        q: `org:${org} topic:${topic}`,
        per_page: 100,
      })
    : github.octokit.paginate.iterator(github.octokit.rest.repos.listForOrg, { org, type: "all", per_page: 100 });
  const repos: OrgRepository[] = [];
  const iterator = pages[Symbol.asyncIterator]();
  for (let page = 0; page < MAX_PAGES; page++) {
    const next = await github.call(what, async () => {
      const step = await iterator.next();
      return { data: step, headers: {} };
    });
    if (next.data.done) break;
    const items: unknown = next.data.value.data;
    if (!Array.isArray(items)) throw new UnexpectedAnswer(`GitHub API: ${what} did not answer a list`);
    for (const item of items) {
      const repo = repositoryOf(item);
      if (repo) repos.push(repo);
    }
  }
  return repos;
}

function repositoryOf(value: unknown): OrgRepository | undefined {
  const repo = value as
    | { name?: unknown; owner?: { login?: unknown }; clone_url?: unknown; default_branch?: unknown; archived?: unknown }
    | undefined;
  if (typeof repo?.name !== "string" || typeof repo.owner?.login !== "string" || typeof repo.clone_url !== "string")
    return undefined;
  return {
    owner: repo.owner.login,
    name: repo.name,
    cloneUrl: repo.clone_url,
    ...(typeof repo.default_branch === "string" ? { defaultBranch: repo.default_branch } : {}),
    archived: repo.archived === true,
  };
}
