/** A pull request's checks and review state, read from the fake GitHub as Batch Changes tracks them. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GitHubClient } from "../../../src/platform/github/client.js";
import { GitHubFailure } from "../../../src/platform/github/failure.js";
import { checksOf, reviewStateOf } from "../../../src/platform/github/pull-review.js";
import { type FakeChecks, FakeGitHub, type FakePull } from "../../helpers/fake-github.js";

const TOKEN = "ghs_pullReviewToken0123456789abcdef";
const REPO = { owner: "acme", name: "app" };
const github = new FakeGitHub(TOKEN);
github.addRepository({ owner: "acme", name: "app" });
beforeAll(() => github.start());
afterAll(() => github.stop());
beforeEach(() => github.reset());

const client = (): GitHubClient => new GitHubClient({ apiUrl: github.url, token: TOKEN, timeUnitMs: 1 });

function pull(reviews: FakePull["reviews"]): void {
  github.pulls.push({
    repo: "acme/app",
    number: 1,
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
    reviews,
  });
}

describe("checksOf", () => {
  const cases: Array<[string, Partial<FakeChecks>, string]> = [
    ["nothing reported", {}, "none"],
    [
      "all statuses and runs green",
      {
        statuses: [{ context: "ci", state: "success" }],
        runs: [{ name: "test", status: "completed", conclusion: "success" }],
      },
      "passed",
    ],
    [
      "skipped and neutral runs do not fail",
      {
        runs: [
          { name: "a", status: "completed", conclusion: "skipped" },
          { name: "b", status: "completed", conclusion: "neutral" },
        ],
      },
      "passed",
    ],
    [
      "a run still going",
      { statuses: [{ context: "ci", state: "success" }], runs: [{ name: "test", status: "in_progress" }] },
      "pending",
    ],
    ["a pending status", { statuses: [{ context: "ci", state: "pending" }] }, "pending"],
    [
      "a failed status outranks a pending run",
      { statuses: [{ context: "ci", state: "error" }], runs: [{ name: "test", status: "queued" }] },
      "failed",
    ],
    ["a timed-out run", { runs: [{ name: "test", status: "completed", conclusion: "timed_out" }] }, "failed"],
  ];
  for (const [what, checks, expected] of cases) {
    it(`${what}: ${expected}`, async () => {
      github.checks.set("acme/app@fix", { statuses: [], runs: [], ...checks });
      expect(await checksOf(client(), REPO, "fix")).toBe(expected);
    });
  }
});

describe("reviewStateOf", () => {
  it("no decision yet is review required; a comment changes nothing", async () => {
    pull([{ user: "ann", state: "COMMENTED" }]);
    expect(await reviewStateOf(client(), REPO, 1)).toBe("review-required");
  });

  it("approved when every reviewer's latest decision is an approval", async () => {
    pull([
      { user: "ann", state: "CHANGES_REQUESTED" },
      { user: "bob", state: "APPROVED" },
      { user: "ann", state: "APPROVED" },
      { user: "ann", state: "COMMENTED" },
    ]);
    expect(await reviewStateOf(client(), REPO, 1)).toBe("approved");
  });

  it("one reviewer still asking for changes outranks approvals; a dismissal withdraws a decision", async () => {
    pull([
      { user: "ann", state: "APPROVED" },
      { user: "bob", state: "CHANGES_REQUESTED" },
    ]);
    expect(await reviewStateOf(client(), REPO, 1)).toBe("changes-requested");
    github.reset();
    pull([
      { user: "bob", state: "CHANGES_REQUESTED" },
      { user: "bob", state: "DISMISSED" },
    ]);
    expect(await reviewStateOf(client(), REPO, 1)).toBe("review-required");
  });

  it("a failure is one masked line", async () => {
    const error = await reviewStateOf(client(), REPO, 99).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubFailure);
    expect((error as GitHubFailure).kind).toBe("not-found");
    expect((error as Error).message).toContain("reading the reviews of acme/app#99");
  });
});
