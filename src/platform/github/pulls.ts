/** Pull request endpoints: read, list by branch, create, update, labels, assignees, reviewers. */
import { type GitHubClient, ONCE } from "./client.js";
import { UnexpectedAnswer } from "./failure.js";

export interface RepoRef {
  owner: string;
  name: string;
}

export interface PullRequest {
  number: number;
  url: string;
  title: string;
  body: string;
  base: string;
  draft: boolean;
  labels: string[];
  state: "open" | "closed" | "merged";
}

const slug = (repo: RepoRef): string => `${repo.owner}/${repo.name}`;

export async function getPull(github: GitHubClient, repo: RepoRef, number: number): Promise<PullRequest> {
  const answer = await github.call(`reading pull request ${slug(repo)}#${number}`, (o) =>
    o.rest.pulls.get({ owner: repo.owner, repo: repo.name, pull_number: number }),
  );
  return pullOf(answer.data);
}

/** Pull requests from a branch of the repository itself, newest first. */
export async function pullsFrom(
  github: GitHubClient,
  repo: RepoRef,
  branch: string,
  state: "open" | "all",
  perPage = 100,
): Promise<PullRequest[]> {
  const answer = await github.call(
    `listing ${state === "open" ? "open " : ""}pull requests of ${slug(repo)} from ${branch}`,
    (o) =>
      o.rest.pulls.list({
        owner: repo.owner,
        repo: repo.name,
        head: `${repo.owner}:${branch}`,
        state,
        sort: "created",
        direction: "desc",
        per_page: perPage,
      }),
  );
  if (!Array.isArray(answer.data))
    throw new UnexpectedAnswer(`GitHub API: listing pull requests of ${slug(repo)} did not answer a list`);
  return answer.data.map(pullOf);
}

/** Not replayed on a 5xx or a dropped connection: GitHub may have created it before failing. */
export async function createPull(
  github: GitHubClient,
  repo: RepoRef,
  input: { head: string; base: string; title: string; body: string; draft: boolean },
): Promise<PullRequest> {
  const answer = await github.call("creating the pull request", (o) =>
    o.rest.pulls.create({ owner: repo.owner, repo: repo.name, ...input, ...ONCE }),
  );
  return pullOf(answer.data);
}

export async function updatePull(
  github: GitHubClient,
  repo: RepoRef,
  number: number,
  input: { title?: string; body?: string; base?: string; state?: "closed" },
): Promise<PullRequest> {
  const answer = await github.call(`updating pull request #${number}`, (o) =>
    o.rest.pulls.update({ owner: repo.owner, repo: repo.name, pull_number: number, ...input }),
  );
  return pullOf(answer.data);
}

export async function addLabels(
  github: GitHubClient,
  repo: RepoRef,
  number: number,
  labels: readonly string[],
): Promise<void> {
  await github.call(`labelling pull request #${number}`, (o) =>
    o.rest.issues.addLabels({ owner: repo.owner, repo: repo.name, issue_number: number, labels: [...labels] }),
  );
}

export async function addAssignees(
  github: GitHubClient,
  repo: RepoRef,
  number: number,
  assignees: readonly string[],
): Promise<void> {
  await github.call(`assigning pull request #${number}`, (o) =>
    o.rest.issues.addAssignees({ owner: repo.owner, repo: repo.name, issue_number: number, assignees: [...assignees] }),
  );
}

export async function requestReviewers(
  github: GitHubClient,
  repo: RepoRef,
  number: number,
  reviewers: readonly string[],
  teamReviewers: readonly string[],
): Promise<void> {
  await github.call(`requesting reviewers on pull request #${number}`, (o) =>
    o.rest.pulls.requestReviewers({
      owner: repo.owner,
      repo: repo.name,
      pull_number: number,
      reviewers: [...reviewers],
      team_reviewers: [...teamReviewers],
    }),
  );
}

function pullOf(value: unknown): PullRequest {
  const pr = value as
    | {
        number?: unknown;
        html_url?: unknown;
        title?: unknown;
        body?: unknown;
        base?: { ref?: unknown };
        draft?: unknown;
        labels?: unknown;
        state?: unknown;
        merged?: unknown;
        merged_at?: unknown;
      }
    | undefined;
  if (typeof pr?.number !== "number" || typeof pr.html_url !== "string")
    throw new UnexpectedAnswer("GitHub API: unexpected pull request answer (no number or html_url)");
  const merged = pr.merged === true || (typeof pr.merged_at === "string" && pr.merged_at !== "");
  return {
    number: pr.number,
    url: pr.html_url,
    title: typeof pr.title === "string" ? pr.title : "",
    body: typeof pr.body === "string" ? pr.body : "",
    base: typeof pr.base?.ref === "string" ? pr.base.ref : "",
    draft: pr.draft === true,
    labels: Array.isArray(pr.labels)
      ? pr.labels.map((l: { name?: unknown }) => l?.name).filter((n): n is string => typeof n === "string")
      : [],
    state: merged ? "merged" : pr.state === "open" ? "open" : "closed",
  };
}
