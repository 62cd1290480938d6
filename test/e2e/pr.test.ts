/**
 * `pr` end to end with real git and no network: a bare repository as origin,
 * a clone of the demo app, and a fake GitHub API on 127.0.0.1 that records
 * every call.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, type ServeProcess, startServe } from "../helpers/cli.js";
import { FakeGitHub } from "../helpers/fake-github.js";
import { demoRepository, git } from "../helpers/git-repo.js";

const TOKEN = "ghs_e2eFakeInstallationToken0123456789";
const OWNER = "acme";
const NAME = "demo";
const BRANCH = "comfydeploy-migrate/v2";

// ---------- repositories ----------

interface Repos {
  origin: string;
  work: string;
  output: string;
}

const tempDirs: string[] = [];

function demoRepos(): Repos {
  const dir = mkdtempSync(join(tmpdir(), "cdm-pr-e2e-"));
  tempDirs.push(dir);
  return { ...demoRepository(dir), output: join(dir, "github-output.txt") };
}

function remoteTip(repos: Repos, branch: string): string | undefined {
  const line = git(repos.work, "ls-remote", "origin", `refs/heads/${branch}`);
  return line ? line.split(/\s+/)[0] : undefined;
}

/** Where the user's checkout stands: branch, commit, dirt, local branches. */
function checkoutState(repos: Repos): { branch: string; head: string; status: string; branches: string } {
  return {
    branch: git(repos.work, "symbolic-ref", "--short", "HEAD"),
    head: git(repos.work, "rev-parse", "HEAD"),
    status: git(repos.work, "status", "--porcelain"),
    branches: git(repos.work, "for-each-ref", "--format=%(refname:short)", "refs/heads"),
  };
}

// ---------- running the CLI without blocking the fake server ----------

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

const STRIPPED_ENV = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GITHUB_REPOSITORY",
  "GITHUB_SERVER_URL",
  "GITHUB_API_URL",
  "GITHUB_OUTPUT",
  "GITHUB_SHA",
  "COMFYDEPLOY_API_KEY",
];

function runPr(repos: Repos, args: string[], env: NodeJS.ProcessEnv = {}, apiUrl = github.url): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`build the CLI first (npm run build): ${CLI} is missing`);
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !STRIPPED_ENV.includes(key)));
  const child = spawn(process.execPath, [CLI, "pr", ".", "--repo", `${OWNER}/${NAME}`, "--api-url", apiUrl, ...args], {
    cwd: repos.work,
    env: { ...base, NO_COLOR: "1", GITHUB_TOKEN: TOKEN, GITHUB_OUTPUT: repos.output, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

function expectNoToken(run: Run): void {
  expect(run.stdout).not.toContain(TOKEN);
  expect(run.stderr).not.toContain(TOKEN);
  expect(run.stdout + run.stderr).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
}

const github = new FakeGitHub(TOKEN);
github.addRepository({ owner: OWNER, name: NAME, defaultBranch: "main" });
beforeAll(() => github.start());
afterAll(async () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  await github.stop();
});

// ---------- cases ----------

describe("pr: created, updated, unchanged", () => {
  let repos: Repos;
  let firstTip = "";
  let secondTip = "";

  beforeAll(() => {
    repos = demoRepos();
    github.reset();
  });

  it("creates the pull request: fix commit pushed to origin, labels and reviewers, JSON and step outputs", async () => {
    // The developer's own hooks must not run (nor block) the bot's checkout, commit and push.
    const hookLog = join(repos.work, "..", "hooks-ran.txt");
    for (const hook of ["pre-commit", "post-checkout", "pre-push"]) {
      writeFileSync(join(repos.work, ".git", "hooks", hook), `#!/bin/sh\necho ${hook} >> '${hookLog}'\nexit 1\n`);
      chmodSync(join(repos.work, ".git", "hooks", hook), 0o755);
    }
    const before = checkoutState(repos);
    const run = await runPr(repos, [
      "--labels",
      "migration,v2",
      "--reviewers",
      "alice",
      "--reviewers",
      "acme/platform",
    ]);
    expectNoToken(run);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      operation: "created",
      number: 1,
      url: `https://github.example/${OWNER}/${NAME}/pull/1`,
      branch: BRANCH,
      base: "main",
      pushed: true,
    });
    expect(out.changedFiles).toBeGreaterThan(0);

    // The branch on origin: one commit on top of main, by the bot, changing at least one file.
    firstTip = remoteTip(repos, BRANCH)!;
    expect(firstTip).toMatch(/^[0-9a-f]{40}$/);
    expect(out.commit).toBe(firstTip);
    git(repos.work, "fetch", "-q", "origin", BRANCH);
    expect(git(repos.work, "rev-parse", `${firstTip}^`)).toBe(before.head);
    expect(git(repos.work, "log", "-1", "--format=%an <%ae>|%cn|%s", firstTip)).toBe(
      "comfydeploy-migrate[bot] <comfydeploy-migrate[bot]@users.noreply.github.com>|comfydeploy-migrate[bot]|Migrate ComfyDeploy V1 API use to V2",
    );
    expect(
      git(repos.work, "diff", "--name-only", `${before.head}..${firstTip}`).split("\n").filter(Boolean).length,
    ).toBeGreaterThan(0);

    // The checkout is exactly as it was: same branch and commit, clean, no local fix branch.
    expect(checkoutState(repos)).toEqual(before);

    // The API: list, default branch, create, labels, reviewers; every call authorized.
    expect(github.calls.every((c) => c.authorized)).toBe(true);
    expect(github.calls.map((c) => `${c.method} ${c.path.split("?")[0]}`)).toEqual([
      `GET /repos/${OWNER}/${NAME}/pulls`,
      `GET /repos/${OWNER}/${NAME}`,
      `POST /repos/${OWNER}/${NAME}/pulls`,
      `POST /repos/${OWNER}/${NAME}/issues/1/labels`,
      `POST /repos/${OWNER}/${NAME}/pulls/1/requested_reviewers`,
    ]);
    expect(github.calls[0]!.path).toContain(`head=${encodeURIComponent(`${OWNER}:${BRANCH}`)}`);
    expect(github.calls[0]!.path).toContain("state=open");
    const created = github.calls[2]!.body as {
      head: string;
      base: string;
      title: string;
      body: string;
      draft: boolean;
    };
    expect(created).toMatchObject({
      head: BRANCH,
      base: "main",
      title: "Migrate ComfyDeploy V1 API use to V2",
      draft: false,
    });
    expect(github.calls[3]!.body).toEqual({ labels: ["migration", "v2"] });
    expect(github.calls[4]!.body).toEqual({ reviewers: ["alice"], team_reviewers: ["platform"] });

    // The body: what changed, review checklist, remaining findings, command and version, under the limit.
    expect(created.body).toContain("## What changed");
    expect(created.body).toMatch(/\*\*\d+ files? changed\*\*: \d+ sites? rewritten, \d+ review markers? added\./);
    expect(created.body).toContain("## Needs review");
    expect(created.body).toContain("## Remaining findings after the fix");
    // The demo app has no node_modules: the body says its type check did not run, and which command runs it.
    expect(created.body).toContain("## Verification");
    expect(created.body).toContain(
      "- ⚠️ not run: `npx tsc --noEmit -p tsconfig.json` — the project's dependencies are not installed",
    );
    // "Reproduce with" names the tool as it was started: here `node <path to cli.js>` from outside the repository.
    expect(created.body).toContain(`node ${CLI} pr . --repo acme/demo`);
    expect(created.body).toMatch(/Created by comfydeploy-migrate \d+\.\d+\.\d+/);
    expect(created.body.length).toBeLessThan(65_536);
    expect(created.body).not.toMatch(/\b(AI|assistant|session)\b/i);

    expect(readFileSync(repos.output, "utf8")).toBe(
      `number=1\nurl=https://github.example/${OWNER}/${NAME}/pull/1\noperation=created\n`,
    );
    expect(existsSync(hookLog)).toBe(false);
  });

  it("updates it after main gains a new V1 use: force-push, PATCH and no new pull request", async () => {
    writeFileSync(
      join(repos.work, "src/services/extra.ts"),
      'export async function queueAgain(body: unknown) {\n  return fetch("https://www.comfydeploy.com/api/run", { method: "POST", body: JSON.stringify(body) });\n}\n',
    );
    git(repos.work, "add", "-A");
    git(repos.work, "commit", "-qm", "another V1 call");
    git(repos.work, "push", "-q", "origin", "main");
    const before = checkoutState(repos);
    github.calls = [];

    const run = await runPr(repos, ["--labels", "migration"]);
    expectNoToken(run);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ operation: "updated", number: 1, pushed: true });
    expect(run.stderr).toContain("forced");

    secondTip = remoteTip(repos, BRANCH)!;
    expect(secondTip).not.toBe(firstTip);
    git(repos.work, "fetch", "-q", "origin", BRANCH);
    expect(git(repos.work, "rev-parse", `${secondTip}^`)).toBe(before.head);
    expect(git(repos.work, "diff", "--name-only", `${before.head}..${secondTip}`)).toContain("src/services/extra.ts");
    expect(checkoutState(repos)).toEqual(before);

    const writes = github.writes().map((c) => `${c.method} ${c.path}`);
    expect(writes).toContain(`PATCH /repos/${OWNER}/${NAME}/pulls/1`);
    expect(writes).not.toContain(`POST /repos/${OWNER}/${NAME}/pulls`);
    expect(writes.some((w) => w.includes("requested_reviewers"))).toBe(false);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]!.body).toContain(secondTip);
    expect(readFileSync(repos.output, "utf8").trim().split("\n").slice(-1)[0]).toBe("operation=updated");
  });

  it("leaves everything as it is when nothing is new: no push, no write, operation unchanged", async () => {
    const before = checkoutState(repos);
    github.calls = [];
    const run = await runPr(repos, ["--labels", "migration"]);
    expectNoToken(run);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      operation: "unchanged",
      number: 1,
      pushed: false,
      commit: secondTip,
    });
    expect(remoteTip(repos, BRANCH)).toBe(secondTip);
    expect(github.writes()).toEqual([]);
    expect(checkoutState(repos)).toEqual(before);
    expect(readFileSync(repos.output, "utf8").trim().split("\n").slice(-3)).toEqual([
      "number=1",
      `url=https://github.example/${OWNER}/${NAME}/pull/1`,
      "operation=unchanged",
    ]);
  });
});

describe("pr --close-if-clean", () => {
  beforeEach(() => github.reset());

  it("closes the open pull request once the base branch has the fix, and only when asked", async () => {
    const repos = demoRepos();
    const created = await runPr(repos, []);
    expect(created.status, created.stderr).toBe(0);
    // The fix lands on main: a further fix has nothing left to change.
    git(repos.work, "fetch", "-q", "origin", BRANCH);
    git(repos.work, "merge", "-q", "--ff-only", "FETCH_HEAD");
    const before = checkoutState(repos);
    github.calls = [];

    const kept = await runPr(repos, []);
    expect(kept.status, kept.stderr).toBe(0);
    expect(JSON.parse(kept.stdout)).toMatchObject({
      operation: "unchanged",
      number: 1,
      pushed: false,
      changedFiles: 0,
    });
    expect(github.writes()).toEqual([]);

    const closed = await runPr(repos, ["--close-if-clean"]);
    expectNoToken(closed);
    expect(closed.status, closed.stderr).toBe(0);
    expect(JSON.parse(closed.stdout)).toMatchObject({ operation: "closed", number: 1 });
    expect(github.writes().map((c) => [c.method, c.path, c.body])).toEqual([
      ["PATCH", `/repos/${OWNER}/${NAME}/pulls/1`, { state: "closed" }],
    ]);
    expect(checkoutState(repos)).toEqual(before);
  });
});

describe("pr --deployment-id", () => {
  const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
  const API_KEY = "cd_live_pr_e2e_key_5d4c3b";
  let emulator: ServeProcess;
  let baseUrl = "";

  beforeAll(async () => {
    emulator = await startServe(["--token", API_KEY, "--step-ms", "20", "-d", DEPLOYMENT]);
    baseUrl = emulator.baseUrl;
    github.reset();
  });

  afterAll(() => emulator?.stop());

  it("puts the live check's verdict in the body, and neither key in any output", async () => {
    const repos = demoRepos();
    const run = await runPr(repos, ["--deployment-id", DEPLOYMENT, "--base-url", baseUrl], {
      COMFYDEPLOY_API_KEY: API_KEY,
    });
    expectNoToken(run);
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
    expect(run.status, run.stderr).toBe(0);
    const body = (github.calls.find((c) => c.method === "POST" && c.path.endsWith("/pulls"))!.body as { body: string })
      .body;
    expect(body).toContain("## Live check");
    expect(body).toContain("READY");
    expect(body).toContain(DEPLOYMENT);
    expect(body).not.toContain(API_KEY);
  });
});

describe("pr --dry-run", () => {
  beforeEach(() => github.reset());

  it("prints the plan and the body and touches nothing: no branch, no commit, no push, no API call", async () => {
    const repos = demoRepos();
    const before = checkoutState(repos);
    const run = await runPr(repos, ["--dry-run", "--labels", "migration"], { GITHUB_TOKEN: "" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("pr --dry-run: nothing is written");
    expect(run.stdout).toContain(`branch      ${BRANCH}`);
    expect(run.stdout).toContain("base        main");
    expect(run.stdout).toMatch(/fix {9}would change \d+ files?/);
    expect(run.stdout).toContain("----- pull request body");
    expect(run.stdout).toContain("## What changed");
    expect(run.stdout).toContain("run the project's own checks on the changed files");
    expect(github.calls).toEqual([]);
    expect(remoteTip(repos, BRANCH)).toBeUndefined();
    expect(checkoutState(repos)).toEqual(before);
    expect(existsSync(repos.output)).toBe(false);

    const unverified = await runPr(repos, ["--dry-run", "--no-verify"], { GITHUB_TOKEN: "" });
    expect(unverified.status, unverified.stderr).toBe(0);
    expect(unverified.stdout).not.toContain("run the project's own checks");
  });
});

describe("pr failures leave the checkout as it was", () => {
  beforeEach(() => github.reset());

  it("a push the remote rejects: one clear line, non-zero exit, original branch, no stray branch, clean tree", async () => {
    const repos = demoRepos();
    const hook = join(repos.origin, "hooks", "pre-receive");
    writeFileSync(hook, "#!/bin/sh\necho 'error: branch is protected by policy' >&2\nexit 1\n");
    chmodSync(hook, 0o755);
    const before = checkoutState(repos);
    const run = await runPr(repos, []);
    expectNoToken(run);
    expect(run.status).toBe(3);
    const error = run.stderr.trim().split("\n").slice(-1)[0]!;
    expect(error).toMatch(/git push of comfydeploy-migrate\/v2 to origin was rejected/);
    expect(error).toContain("pre-receive hook declined");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(checkoutState(repos)).toEqual(before);
    expect(remoteTip(repos, BRANCH)).toBeUndefined();
    expect(github.writes()).toEqual([]);
    expect(existsSync(repos.output)).toBe(false);
  });

  it("a token GitHub refuses (401): usage error before anything is written", async () => {
    const repos = demoRepos();
    github.failures.push({ method: "*", pattern: /./, status: 401, body: { message: "Bad credentials" } });
    const before = checkoutState(repos);
    const run = await runPr(repos, []);
    expectNoToken(run);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/HTTP 401: Bad credentials/);
    expect(run.stderr).toContain("GITHUB_TOKEN");
    expect(checkoutState(repos)).toEqual(before);
    expect(remoteTip(repos, BRANCH)).toBeUndefined();
  });

  it("GitHub rejecting the pull request (422): GitHub's reason in one line, checkout restored", async () => {
    const repos = demoRepos();
    github.failures.push({
      method: "POST",
      pattern: /\/pulls$/,
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [
          { resource: "PullRequest", code: "custom", message: "No commits between main and comfydeploy-migrate/v2" },
        ],
      },
    });
    const before = checkoutState(repos);
    const run = await runPr(repos, []);
    expectNoToken(run);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain(
      "creating the pull request failed (HTTP 422: Validation Failed: No commits between main and comfydeploy-migrate/v2)",
    );
    expect(checkoutState(repos)).toEqual(before);
    expect(github.pulls).toEqual([]);
  });

  it("refuses a dirty tree and a missing token with exit 2", async () => {
    const repos = demoRepos();
    writeFileSync(join(repos.work, "src/services/config.ts"), "// local edit\n", { flag: "a" });
    const dirty = await runPr(repos, []);
    expect(dirty.status).toBe(2);
    expect(dirty.stderr).toContain("uncommitted changes (src/services/config.ts)");
    git(repos.work, "checkout", "--", ".");
    const noToken = await runPr(repos, [], { GITHUB_TOKEN: "" });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain("GITHUB_TOKEN or GH_TOKEN");
    expect(github.calls).toEqual([]);
  });
});

describe("pr against a GitHub that fails for a while", () => {
  beforeEach(() => github.reset());

  it("a 502 on a read is retried and the run goes on", async () => {
    const repos = demoRepos();
    github.failures.push({
      method: "GET",
      pattern: /\/pulls$/,
      status: 502,
      body: { message: "Server Error" },
      times: 1,
    });
    const run = await runPr(repos, []);
    expectNoToken(run);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ operation: "created", number: 1 });
    expect(
      github.calls.filter((c) => c.method === "GET" && c.path.startsWith(`/repos/${OWNER}/${NAME}/pulls?`)),
    ).toHaveLength(2);
    expect(run.stderr).toContain("GitHub API answered HTTP 502; asking again in 1s");
  });

  it("a secondary rate limit beyond the retry budget: exit 3 with rate-limit advice (not the permissions advice), nothing written", async () => {
    const repos = demoRepos();
    github.failures.push({
      method: "*",
      pattern: /./,
      status: 403,
      headers: { "retry-after": "86400" },
      body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." },
    });
    const before = checkoutState(repos);
    const run = await runPr(repos, []);
    expectNoToken(run);
    expect(run.status).toBe(3);
    const error = run.stderr.trim().split("\n").slice(-1)[0]!;
    expect(error).toContain("secondary rate limit");
    expect(error).toMatch(/rerun/i);
    expect(error).not.toContain("contents: write");
    expect(github.calls).toHaveLength(1);
    expect(checkoutState(repos)).toEqual(before);
    expect(remoteTip(repos, BRANCH)).toBeUndefined();
  });

  it("a GitHub that never answers is given up on within --api-budget: exit 3, one line saying so, nothing written", async () => {
    const repos = demoRepos();
    const hanging = createServer(() => undefined); // takes every request and never answers
    await new Promise<void>((done) => hanging.listen(0, "127.0.0.1", done));
    try {
      const before = checkoutState(repos);
      const started = Date.now();
      const run = await runPr(
        repos,
        ["--api-budget", "3"],
        {},
        `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
      );
      const seconds = (Date.now() - started) / 1000;
      expectNoToken(run);
      expect(run.status).toBe(3);
      const lines = run.stderr.trim().split("\n");
      expect(lines.filter((line) => line.includes("budget"))).toHaveLength(1);
      expect(lines.at(-1)).toMatch(/no answer within the 3s budget/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      // Node's start-up and the scan's own work come on top of the 3 s the API may take.
      expect(seconds).toBeLessThan(15);
      expect(checkoutState(repos)).toEqual(before);
      expect(remoteTip(repos, BRANCH)).toBeUndefined();
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((done) => hanging.close(() => done()));
    }
  });

  it("creating the pull request fails after the push: the error says so, and a rerun opens it", async () => {
    const repos = demoRepos();
    github.failures.push({ method: "POST", pattern: /\/pulls$/, status: 502, body: { message: "Server Error" } });
    const failed = await runPr(repos, []);
    expectNoToken(failed);
    expect(failed.status).toBe(3);
    expect(failed.stderr.trim().split("\n").slice(-1)[0]).toContain("the branch is pushed; rerun to open the PR");
    const pushed = remoteTip(repos, BRANCH);
    expect(pushed).toMatch(/^[0-9a-f]{40}$/);
    expect(github.pulls).toEqual([]);

    github.failures = [];
    const rerun = await runPr(repos, []);
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ operation: "created", number: 1, pushed: false, commit: pushed });
    expect(github.pulls).toHaveLength(1);
  });

  it("GitHub creates the pull request but answers 502: no second one, and the rerun finds it and adds the labels it missed", async () => {
    const repos = demoRepos();
    github.failures.push({
      method: "POST",
      pattern: /\/pulls$/,
      status: 502,
      body: { message: "Server Error" },
      after: true,
      times: 1,
    });
    const failed = await runPr(repos, ["--labels", "migration"]);
    expectNoToken(failed);
    expect(failed.status).toBe(3);
    expect(failed.stderr.trim().split("\n").slice(-1)[0]).toContain("the branch is pushed; rerun to open the PR");
    // Creating is not replayed: GitHub may have done it, as it did here.
    expect(github.calls.filter((c) => c.method === "POST" && c.path.endsWith("/pulls"))).toHaveLength(1);
    expect(github.pulls.map((p) => p.labels)).toEqual([[]]);

    const rerun = await runPr(repos, ["--labels", "migration"]);
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ operation: "updated", number: 1, pushed: false });
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]!.labels).toEqual(["migration"]);
  });

  it.each(["Q", "Q7", "Q7z"])("a %j GitHub token is masked wherever GitHub echoes it", async (token) => {
    const repos = demoRepos();
    github.failures.push({
      method: "*",
      pattern: /./,
      status: 401,
      body: { message: `Bad credentials: ${token} is not a token` },
    });
    const run = await runPr(repos, [], { GITHUB_TOKEN: token });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Bad credentials: *** is not a token");
    expect(run.stdout + run.stderr).not.toMatch(new RegExp(`(^|[^A-Za-z0-9])${token}([^A-Za-z0-9]|$)`));
  });
});
