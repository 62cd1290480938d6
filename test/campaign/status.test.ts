/**
 * `campaign status` against the fake GitHub: an open pull request's checks
 * (commit statuses and check runs) and review state go into the reports and
 * the status text; a merged one keeps none, as they would be stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignGitHub } from "../../src/campaign/github-api.js";
import type { RepoReport } from "../../src/campaign/repo-report.js";
import { refreshPullRequests, renderStatusText } from "../../src/campaign/status.js";
import { scannedReport } from "../helpers/campaign-reports.js";
import { FakeGitHub, type FakePull } from "../helpers/fake-github.js";
import { tempDir } from "../helpers/temp-repo.js";

const TOKEN = "ghs_campaignStatusToken0123456789abcdef";
const BRANCH = "comfydeploy-migrate/v2";
const github = new FakeGitHub(TOKEN);
for (const name of ["red", "green", "done"]) github.addRepository({ owner: "acme", name });
beforeAll(() => github.start());
afterAll(() => github.stop());

function pull(repo: string, extra: Partial<FakePull> = {}): FakePull {
  return {
    repo,
    number: 1,
    head: BRANCH,
    base: "main",
    title: "t",
    body: "",
    draft: false,
    state: "open",
    merged: false,
    labels: [],
    reviewers: [],
    assignees: [],
    ...extra,
  };
}

describe("campaign status reads checks and reviews", () => {
  it("records an open pull request's checks and review, and drops them once it is merged", async () => {
    github.pulls.push(
      pull("acme/red", {
        reviews: [
          { user: "ana", state: "APPROVED" },
          { user: "bo", state: "CHANGES_REQUESTED" },
        ],
      }),
      pull("acme/green", {
        reviews: [
          { user: "ana", state: "CHANGES_REQUESTED" },
          { user: "ana", state: "APPROVED" },
          { user: "cy", state: "COMMENTED" },
        ],
      }),
      pull("acme/done"),
    );
    github.checks.set(`acme/red@${BRANCH}`, {
      statuses: [{ context: "ci", state: "success" }],
      runs: [{ name: "test", status: "completed", conclusion: "failure" }],
    });
    github.checks.set(`acme/green@${BRANCH}`, {
      statuses: [{ context: "ci", state: "success" }],
      runs: [{ name: "test", status: "completed", conclusion: "success" }],
    });
    github.merge("acme/done", 1);
    const out = tempDir();
    mkdirSync(join(out, "repos"));
    for (const name of ["red", "green", "done"])
      writeFileSync(join(out, "repos", `${name}.json`), JSON.stringify(scannedReport(name, {})));
    const client = new CampaignGitHub({ apiUrl: github.url, token: TOKEN });

    const { lines } = await refreshPullRequests({ outDir: out, github: client, token: TOKEN, defaultBranch: BRANCH });
    const written = (name: string) =>
      (JSON.parse(readFileSync(join(out, "repos", `${name}.json`), "utf8")) as RepoReport).pullRequest;
    expect(written("red")).toMatchObject({
      state: "open",
      checks: "failed",
      review: "changes-requested",
      branch: BRANCH,
    });
    expect(written("green")).toMatchObject({ state: "open", checks: "passed", review: "approved" });
    expect(written("done")).toMatchObject({ state: "merged" });
    expect(written("done")).not.toHaveProperty("checks");
    // Nothing is read for the merged one.
    expect(
      github.calls.some(
        (c) => c.path.startsWith("/repos/acme/done/commits") || c.path.startsWith("/repos/acme/done/pulls/1/reviews"),
      ),
    ).toBe(false);

    const text = renderStatusText(lines);
    expect(text).toMatch(/red\s+#1 open, checks failed, changes requested/);
    expect(text).toMatch(/green\s+#1 open, checks passed, approved/);

    // Checks turn green and the reviewer approves: the next refresh says so; merged, the checks go.
    github.checks.set(`acme/red@${BRANCH}`, { statuses: [], runs: [{ name: "test", status: "in_progress" }] });
    github.pulls.find((p) => p.repo === "acme/red")!.reviews!.push({ user: "bo", state: "APPROVED" });
    await refreshPullRequests({ outDir: out, github: client, token: TOKEN, defaultBranch: BRANCH });
    expect(written("red")).toMatchObject({ checks: "pending", review: "approved" });
    github.merge("acme/red", 1);
    await refreshPullRequests({ outDir: out, github: client, token: TOKEN, defaultBranch: BRANCH });
    expect(written("red")).toMatchObject({ state: "merged" });
    expect(written("red")!.checks).toBeUndefined();
    expect(written("red")!.review).toBeUndefined();
  });
});
