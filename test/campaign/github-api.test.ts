/**
 * The campaign's GitHub calls against the fake GitHub: a secondary rate limit
 * is waited for and retried, and one that does not end is a runtime failure
 * with rate-limit advice, never "the token cannot read this" (a usage error).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CampaignGitHub } from "../../src/campaign/github-api.js";
import { RuntimeFailure } from "../../src/core/errors.js";
import { FakeGitHub } from "../helpers/fake-github.js";

const TOKEN = "ghs_campaignApiToken0123456789abcdef";
const github = new FakeGitHub(TOKEN);
github.addRepository({ owner: "acme", name: "web-app" });
github.addRepository({ owner: "acme", name: "api" });
beforeAll(() => github.start());
afterAll(() => github.stop());
beforeEach(() => github.reset());

describe("campaign and GitHub's secondary rate limit", () => {
  it("listing an organisation waits as Retry-After says and goes on", async () => {
    github.secondaryRateLimit(/^\/orgs\/acme\/repos$/, 1, 1);
    const repos = await new CampaignGitHub({ apiUrl: github.url, token: TOKEN }).listRepositories(
      "acme",
      undefined,
      false,
    );
    expect(repos.map((r) => r.name)).toEqual(["api", "web-app"]);
    expect(github.calls.filter((c) => c.path.startsWith("/orgs/acme/repos"))).toHaveLength(2);
  });

  it("reading a pull request's state is retried the same way", async () => {
    github.pulls.push({
      repo: "acme/api",
      number: 3,
      head: "fix",
      base: "main",
      title: "t",
      body: "",
      draft: false,
      state: "open",
      merged: false,
      labels: [],
      reviewers: [],
      assignees: [],
    });
    github.secondaryRateLimit(/\/pulls\/3$/, 1, 1);
    const pull = await new CampaignGitHub({ apiUrl: github.url, token: TOKEN }).pullRequest("acme", "api", 3);
    expect(pull).toMatchObject({ number: 3, state: "open" });
  });

  it("a limit that outlasts the wait it may take is a runtime failure with when to rerun, not a refused token", async () => {
    github.secondaryRateLimit(/./, 3600);
    const error = await new CampaignGitHub({ apiUrl: github.url, token: TOKEN })
      .listRepositories("acme", undefined, false)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error).toBeInstanceOf(RuntimeFailure);
    expect(error!.message).toContain("secondary rate limit");
    expect(error!.message).toMatch(/rerun after/);
    expect(error!.message).not.toContain("cannot read");
    expect(github.calls).toHaveLength(1);
  });
});
