/**
 * What campaign reads from disk or from a server is not trusted with paths:
 * it removes only reports it wrote, never writes where a report's fields
 * point, refuses organisation listings with impossible names and repository
 * paths that are links out of the clone, and refuses timestamps that are not
 * dates, naming the file, without writing half a dashboard.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CampaignGitHub } from "../../src/campaign/github-api.js";
import { mergeCampaign } from "../../src/campaign/merge.js";
import type { RepoReport } from "../../src/campaign/repo-report.js";
import { pruneReports } from "../../src/campaign/run.js";
import { refreshPullRequests } from "../../src/campaign/status.js";
import { resolveTargets, type Target } from "../../src/campaign/targets.js";
import { UsageError } from "../../src/core/errors.js";
import { repoReport } from "../helpers/campaign-reports.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

function outWith(files: Record<string, unknown>): string {
  const out = tempDir();
  mkdirSync(join(out, "repos"));
  for (const [name, value] of Object.entries(files))
    writeFileSync(join(out, "repos", name), typeof value === "string" ? value : JSON.stringify(value));
  return out;
}

const target = (name: string): Target => ({ name, url: name, source: name, local: false });

describe("campaign run removes only its own reports", () => {
  it("keeps other JSON in repos/, and removes reports of repositories the campaign no longer lists", async () => {
    const out = outWith({
      "kept.json": repoReport("kept"),
      "gone.json": repoReport("gone"),
      "package.json": { name: "someone-elses", version: "1.0.0" },
      "renamed.json": repoReport("other-name"),
    });
    const removed = await pruneReports(join(out, "repos"), [target("kept")]);
    expect(removed).toEqual(["gone"]);
    expect(existsSync(join(out, "repos", "package.json"))).toBe(true);
    expect(existsSync(join(out, "repos", "renamed.json"))).toBe(true);
    expect(existsSync(join(out, "repos", "kept.json"))).toBe(true);
  });
});

describe("a report's fields never name a path", () => {
  it("status refuses a report whose name is not its file's (../../x), and writes nothing outside <out>", async () => {
    const parent = tempDir();
    const out = join(parent, "campaign", "out");
    mkdirSync(join(out, "repos"), { recursive: true });
    writeFileSync(join(out, "repos", "evil.json"), JSON.stringify(repoReport("../../../escaped")));
    const github = {
      latestPullFrom: async () => undefined,
      pullRequest: async () => undefined,
    } as unknown as CampaignGitHub;
    const refused = refreshPullRequests({ outDir: out, github, token: "t", defaultBranch: "migrate" });
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/evil\.json/);
    expect(existsSync(join(parent, "escaped.json"))).toBe(false);
    expect(existsSync(join(out, "..", "..", "escaped.json"))).toBe(false);
  });

  it("a name that matches its file but holds a path is refused as well", async () => {
    const out = outWith({ "a.json": repoReport("a/../../b") });
    await expect(mergeCampaign({ outDir: out, failOn: "error" })).rejects.toThrow(
      /a\.json is not a campaign repository report/,
    );
  });
});

describe("names from an organisation listing", () => {
  it("are refused when they are not an owner/name GitHub allows", () => {
    for (const name of ["..", "../../x", "a/b", ""]) {
      expect(
        () =>
          resolveTargets({}, "/srv", [
            { owner: "acme", name, cloneUrl: "https://github.com/acme/x.git", archived: false },
          ]),
        name,
      ).toThrow(/not a valid owner\/name/);
    }
    expect(() =>
      resolveTargets({}, "/srv", [
        { owner: "..", name: "app", cloneUrl: "https://github.com/acme/x.git", archived: false },
      ]),
    ).toThrow(/not a valid owner\/name/);
    expect(
      resolveTargets({}, "/srv", [
        { owner: "acme", name: "app.v2", cloneUrl: "https://github.com/acme/app.v2.git", archived: false },
      ])[0]!.name,
    ).toBe("app.v2");
  });
});

describe("timestamps that are not dates", () => {
  it("in a report: exit 2 naming the file, and no dashboard file written", () => {
    const out = outWith({ "a.json": repoReport("a", { startedAt: "yesterday-ish" }) });
    const result = runCli(["campaign", "merge", out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(join(out, "repos", "a.json"));
    expect(result.stderr.trim().split("\n")[0]).not.toMatch(/internal error/);
    for (const file of ["campaign.json", "campaign.md", "campaign.html", "history.json"])
      expect(existsSync(join(out, file)), file).toBe(false);
  });

  it("in the history file: exit 2 naming it, and no dashboard file written", () => {
    const out = outWith({ "a.json": repoReport("a") });
    writeFileSync(
      join(out, "history.json"),
      JSON.stringify({
        schemaVersion: 1,
        points: [
          {
            at: "not a date",
            digest: "x",
            repositories: 1,
            ready: 0,
            failed: 0,
            findings: { total: 0, error: 0, warning: 0, info: 0 },
          },
        ],
      }),
    );
    const result = runCli(["campaign", "merge", out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(join(out, "history.json"));
    for (const file of ["campaign.json", "campaign.md", "campaign.html"])
      expect(existsSync(join(out, file)), file).toBe(false);
  });
});

describe("a repository path that is a link out of the clone", () => {
  it("is not scanned: the repository fails at scan, saying why", () => {
    const outside = tempRepo({ "app.ts": 'fetch("https://www.comfydeploy.com/api/run", { method: "POST" });\n' });
    const repo = tempRepo({ "README.md": "hi\n" });
    symlinkSync(outside, join(repo, "pkg"));
    const git = (...args: string[]) =>
      spawnSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], {
        cwd: repo,
      });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "link");
    const dir = tempDir();
    writeFileSync(join(dir, "campaign.yml"), `repositories:\n  - url: ${repo}\n    name: linked\n    path: pkg\n`);
    runCli(["campaign", "run", join(dir, "campaign.yml"), "--out", join(dir, "out"), "--cache", join(dir, "cache")], {
      env: { GITHUB_TOKEN: "", GH_TOKEN: "" },
    });
    const written = JSON.parse(readFileSync(join(dir, "out", "repos", "linked.json"), "utf8")) as RepoReport;
    expect(written.status).toBe("failed");
    expect(written.failure).toEqual({
      stage: "scan",
      reason: expect.stringContaining("symbolic link that leads out of"),
    });
    expect(written.scan).toBeUndefined();
  });
});
