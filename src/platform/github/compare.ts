/** The compare endpoint: where `head` stands relative to `base` in a repository. */
import type { GitHubClient } from "./client.js";
import { GitHubFailure, UnexpectedAnswer } from "./failure.js";

/** The compare `status` (ahead, behind, identical, diverged), or "not-found" when the repository has no such commit. */
export async function compareStatus(
  github: GitHubClient,
  repository: string,
  base: string,
  head: string,
): Promise<string> {
  const [owner, repo] = repository.split("/") as [string, string];
  try {
    const answer = await github.call(`comparing ${base}...${head} in ${repository}`, (o) =>
      o.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: 1 }),
    );
    const status = (answer.data as { status?: unknown }).status;
    if (typeof status !== "string")
      throw new UnexpectedAnswer(`GitHub compare API answered without a status for ${head}`);
    return status;
  } catch (error) {
    if (error instanceof GitHubFailure && error.kind === "not-found") return "not-found";
    throw error;
  }
}
