/**
 * `campaign` end to end: the built CLI against real git repositories with
 * bare origins on disk (several V1 shapes, one with no V1 use, one that
 * cannot be cloned), the V2 emulator for live checks, and the fake GitHub
 * API on 127.0.0.1. No network.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDeployment } from "../../src/serve/options.js";
import type { Emulator } from "../../src/serve/server.js";
import { createEstate, type Estate, GHOST } from "../helpers/campaign-estate.js";
import { git } from "../helpers/git-repo.js";
import { type CliResult, REPO_ROOT, runCliAsync } from "../helpers/cli.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";
import { FakeGitHub } from "../helpers/fake-github.js";

const TOKEN = "ghp_campaignE2eFakeToken0123456789abcd";
const DEPLOYMENT = "5b0c1e7a-3d4f-4a2b-9c8d-7e6f5a4b3c2d";

interface Report {
  name: string;
  status: "ok" | "failed";
  failure?: { stage: string; reason: string };
  head?: string;
  path?: string;
  github?: string;
  runKey: string;
  startedAt: string;
  nodePins?: string;
  scan?: {
    summary: { total: number; bySeverity: Record<string, number>; byRule: Record<string, number> };
    findings: Array<{ file: string; ruleId: string }>;
  };
  pullRequest?: { state: string; number?: number; url?: string; operation?: string; wouldChange?: number };
  check?: { verdict: string; deploymentId: string };
}

const estates: Estate[] = [];
afterAll(() => {
  for (const estate of estates) estate.remove();
});

function newEstate(names?: string[]): Estate {
  const estate = createEstate(names);
  estates.push(estate);
  return estate;
}

/** The CLI in the estate's directory, with no token or Actions variables leaking in from the environment. */
function campaign(estate: Estate, args: string[], env: NodeJS.ProcessEnv = {}, cwd = estate.dir): Promise<CliResult> {
  return runCliAsync(["campaign", ...args], {
    cwd,
    env: {
      GITHUB_TOKEN: "",
      GH_TOKEN: "",
      GITHUB_API_URL: "",
      GITHUB_SERVER_URL: "",
      GITHUB_REPOSITORY: "",
      COMFYDEPLOY_API_KEY: "",
      GIT_CONFIG_COUNT: "",
      XDG_CACHE_HOME: join(estate.dir, "xdg-cache"),
      ...env,
    },
  });
}

function report(dir: string, name: string): Report {
  return JSON.parse(readFileSync(join(dir, "repos", `${name}.json`), "utf8")) as Report;
}

function schemaValidator(file: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, "schema", file), "utf8")));
}

function expectNoSecret(run: CliResult, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
}

describe("the smallest campaign file, exactly as the README shows it", () => {
  it("run writes one report per repository, merge writes campaign.json, campaign.md and campaign.html", async () => {
    const estate = newEstate(["web-app", "bots"]);
    // ../bots/discord-bot is a local clone; https://github.com/acme/ is rewritten by git to the bare origins on disk.
    git(estate.dir, "clone", "-q", estate.origin("bots"), join(estate.dir, "bots", "discord-bot"));
    mkdirSync(join(estate.dir, "ops"));
    // The README's example, verbatim.
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Campaigns"));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    expect(yaml).toContain("url: https://github.com/acme/web-app.git");
    expect(yaml).toContain("url: ../bots/discord-bot\n    path: packages/bot");
    expect(section).toContain("campaign run campaign.yml --out campaign-out");
    expect(section).toContain("campaign merge campaign-out");
    estate.campaignFile(yaml, join("ops", "campaign.yml"));
    const offline = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: `url.file://${join(estate.dir, "origins")}/.insteadOf`,
      GIT_CONFIG_VALUE_0: "https://github.com/acme/",
    };
    const ops = join(estate.dir, "ops");

    const run = await campaign(estate, ["run", "campaign.yml", "--out", "campaign-out"], offline, ops);
    expect(run.status, run.stderr).toBe(1); // V1 findings remain
    const out = join(ops, "campaign-out");
    expect(readdirSync(join(out, "repos")).sort()).toEqual(["discord-bot.json", "web-app.json"]);

    const web = report(out, "web-app");
    expect(web).toMatchObject({
      status: "ok",
      github: "acme/web-app",
      head: git(estate.work("web-app"), "rev-parse", "HEAD"),
    });
    expect(web.scan!.summary.bySeverity.error).toBeGreaterThan(0);
    expect(Object.keys(web.scan!.summary.byRule)).toEqual(
      expect.arrayContaining(["v1-sdk-import", "legacy-create-run"]),
    );

    // Only packages/bot was scanned: the Python bot's findings, none from the Go client at the root.
    const bot = report(out, "discord-bot");
    expect(bot).toMatchObject({ status: "ok", path: "packages/bot" });
    expect(bot.scan!.findings.map((f) => f.file)).toContain("client.py");
    expect(bot.scan!.findings.some((f) => f.file.endsWith(".go"))).toBe(false);
    expect(schemaValidator("campaign-repo-report.schema.json")(web)).toBe(true);

    rmSync(join(out, "campaign.html"));
    const merge = await campaign(estate, ["merge", "campaign-out"], {}, ops);
    expect(merge.status, merge.stderr).toBe(1);
    for (const file of ["campaign.json", "campaign.md", "campaign.html"])
      expect(existsSync(join(out, file)), file).toBe(true);
    const merged = JSON.parse(readFileSync(join(out, "campaign.json"), "utf8")) as {
      repositories: Array<{ name: string }>;
    };
    expect(schemaValidator("campaign.schema.json")(merged)).toBe(true);
    expect(merged.repositories.map((r) => r.name)).toEqual(["discord-bot", "web-app"]);
  });
});

describe("a campaign over an estate", () => {
  let estate: Estate;
  let emulator: Emulator;
  let out: string;
  let file: string;

  beforeAll(async () => {
    estate = newEstate();
    emulator = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    out = join(estate.dir, "out");
    file = estate.campaignFile(
      [
        "repositories:",
        `  - url: ${estate.origin("web-app")}`,
        "    name: web-app",
        `    deploymentId: ${DEPLOYMENT}`,
        `  - url: ${estate.origin("comfy-worker")}`,
        "    name: comfy-worker",
        `  - url: file://${estate.origin("py-service")}`,
        "    name: py-service",
        `  - url: origins/bots.git`,
        "    name: bots",
        "    path: packages/bot",
        `  - url: ${estate.origin("clean-api")}`,
        "    name: clean-api",
        `  - url: ${estate.origin(GHOST)}`,
        "    name: ghost",
        "",
      ].join("\n"),
    );
  });

  afterAll(async () => {
    await emulator?.close();
  });

  it("clones and scans every repository, records the one that fails, and still writes the dashboard (exit 3)", async () => {
    const run = await campaign(
      estate,
      ["run", file, "--out", out, "--concurrency", "3", "--check", "--base-url", emulator.baseUrl],
      {
        COMFYDEPLOY_API_KEY: TEST_TOKEN,
      },
    );
    expectNoSecret(run, TEST_TOKEN);
    expect(run.status, run.stderr).toBe(3);
    expect(run.stderr).toMatch(
      /ghost: FAILED at clone: git ls-remote failed: .*ghost\.git' does not appear to be a git repository/,
    );
    expect(run.stdout).toContain("6 repositories: 5 scanned, 0 updated, 0 unchanged, 1 failed");
    expect(run.stderr).not.toMatch(/\n\s+at /);

    const ghost = report(out, "ghost");
    expect(ghost).toMatchObject({ status: "failed", failure: { stage: "clone" } });
    expect(ghost.scan).toBeUndefined();

    const clean = report(out, "clean-api");
    expect(clean).toMatchObject({ status: "ok", nodePins: "none" });
    expect(clean.scan!.summary.total).toBe(0);

    const worker = report(out, "comfy-worker");
    expect(worker.nodePins).toBe("outdated");
    expect(worker.scan!.summary.byRule).toMatchObject({ "node-component-pin": 1, "worker-image": 2 });

    expect(Object.keys(report(out, "py-service").scan!.summary.byRule)).toContain("legacy-create-run");
    const bots = report(out, "bots");
    expect(bots.scan!.findings.every((f) => f.file === "client.py")).toBe(true);

    // The live check ran only where a deployment is named, against the emulator.
    expect(report(out, "web-app").check).toMatchObject({ verdict: "READY", deploymentId: DEPLOYMENT });
    expect(report(out, "py-service").check).toBeUndefined();

    const merged = JSON.parse(readFileSync(join(out, "campaign.json"), "utf8")) as {
      totals: { repositories: number; ready: number; notReady: number; failed: number; failing: number };
      repositories: Array<{ name: string; readiness: string; scanned: boolean }>;
    };
    expect(merged.totals).toMatchObject({ repositories: 6, ready: 1, notReady: 4, failed: 1 });
    expect(merged.repositories.find((r) => r.name === "clean-api")?.readiness).toBe("ready");
    expect(merged.repositories.find((r) => r.name === "ghost")).toMatchObject({ readiness: "failed", scanned: false });
    const md = readFileSync(join(out, "campaign.md"), "utf8");
    expect(md).toContain("| ghost | ⚠️ failed (clone failed: git ls-remote failed:");
    expect(md).toMatch(
      /\| web-app \| ❌ not ready \(\d+ V1 findings left\) \| \d+ \| \d+ \| 0 \| none \| – \| READY \|/,
    );
  });

  it("skips repositories whose HEAD and tool version are unchanged, and redoes only the one with a new commit", async () => {
    const before = Object.fromEntries(
      ["web-app", "comfy-worker", "py-service", "bots", "clean-api"].map((n) => [
        n,
        readFileSync(join(out, "repos", `${n}.json`), "utf8"),
      ]),
    );
    const again = await campaign(estate, ["run", file, "--out", out]);
    expect(again.status).toBe(3);
    expect(again.stdout).toContain("0 scanned, 0 updated, 5 unchanged, 1 failed");
    for (const [name, text] of Object.entries(before))
      expect(readFileSync(join(out, "repos", `${name}.json`), "utf8"), name).toBe(text);

    // A new V1 use in one repository: only that one is scanned again, and its report shows it.
    const head = estate.commit("clean-api", {
      "src/queue.ts": 'export const QUEUE = "https://www.comfydeploy.com/api/run";\n',
    });
    const third = await campaign(estate, ["run", file, "--out", out]);
    expect(third.stdout).toContain("1 scanned, 0 updated, 4 unchanged, 1 failed");
    const clean = report(out, "clean-api");
    expect(clean.head).toBe(head);
    expect(clean.scan!.summary.total).toBeGreaterThan(0);
    expect(readFileSync(join(out, "repos", "web-app.json"), "utf8")).toBe(before["web-app"]);

    // --force redoes everything; the live check's last verdict is kept without --check.
    const forced = await campaign(estate, ["run", file, "--out", out, "--force"]);
    expect(forced.stdout).toContain("5 scanned, 0 updated, 0 unchanged, 1 failed");
    expect(report(out, "web-app").check?.verdict).toBe("READY");

    // Each merged run is a point of the burn-down.
    const history = JSON.parse(readFileSync(join(out, "history.json"), "utf8")) as {
      points: Array<{ findings: { total: number } }>;
    };
    expect(history.points.length).toBe(4);
    expect(history.points[2]!.findings.total).toBeGreaterThan(history.points[1]!.findings.total);
    // Merging the same reports again replaces the last point rather than adding one.
    await campaign(estate, ["merge", out]);
    expect((JSON.parse(readFileSync(join(out, "history.json"), "utf8")) as { points: unknown[] }).points.length).toBe(
      4,
    );
  });

  it("plans shards for CI's matrix; the shards' reports merge into the same campaign", async () => {
    const plan = await campaign(estate, ["plan", file, "--shards", "4"]);
    expect(plan.status, plan.stderr).toBe(0);
    const matrix = JSON.parse(plan.stdout) as {
      include: Array<{ shard: number; shards: number; repositories: string[] }>;
    };
    expect(matrix.include).toEqual([
      { shard: 1, shards: 4, repositories: ["web-app", "clean-api"] },
      { shard: 2, shards: 4, repositories: ["comfy-worker", "ghost"] },
      { shard: 3, shards: 4, repositories: ["py-service"] },
      { shard: 4, shards: 4, repositories: ["bots"] },
    ]);
    // More shards than repositories: one repository each, no empty shard.
    const wide = JSON.parse((await campaign(estate, ["plan", file, "--shards", "50"])).stdout) as {
      include: unknown[];
    };
    expect(wide.include).toHaveLength(6);

    const merged = join(estate.dir, "sharded");
    for (const { shard, shards } of matrix.include) {
      const shardOut = join(estate.dir, `shard-${shard}`);
      const run = await campaign(estate, [
        "run",
        file,
        "--shard",
        `${shard}/${shards}`,
        "--out",
        shardOut,
        "--no-merge",
      ]);
      expect(run.status).toBe(shard === 2 ? 3 : 1);
      expect(existsSync(join(shardOut, "campaign.html"))).toBe(false);
      // What actions/download-artifact with merge-multiple does.
      cpSync(join(shardOut, "repos"), join(merged, "repos"), { recursive: true });
    }
    const merge = await campaign(estate, ["merge", merged]);
    expect(merge.status).toBe(3);
    const rows = (
      JSON.parse(readFileSync(join(merged, "campaign.json"), "utf8")) as { repositories: Array<{ name: string }> }
    ).repositories;
    expect(rows.map((r) => r.name)).toEqual(["bots", "clean-api", "comfy-worker", "ghost", "py-service", "web-app"]);
  });

  it("exits 0 when all is clean and 1 for findings at or above --fail-on", async () => {
    const clean = newEstate(["clean-api"]);
    const cleanFile = clean.campaignFile(`repositories:\n  - url: ${clean.origin("clean-api")}\n`);
    const ok = await campaign(clean, ["run", cleanFile, "--out", join(clean.dir, "out")]);
    expect(ok.status, ok.stderr).toBe(0);
    // A repository dropped from the campaign leaves the dashboard with its report.
    const gone = { ...report(join(clean.dir, "out"), "clean-api"), name: "retired-app" };
    writeFileSync(join(clean.dir, "out", "repos", "retired-app.json"), JSON.stringify(gone));
    const again = await campaign(clean, ["run", cleanFile, "--out", join(clean.dir, "out")]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain("removed the report of retired-app: the campaign no longer lists it");
    expect(readdirSync(join(clean.dir, "out", "repos"))).toEqual(["clean-api.json"]);

    const worker = newEstate(["comfy-worker"]);
    const workerFile = worker.campaignFile(
      `repositories:\n  - url: ${worker.origin("comfy-worker")}\nfailOn: warning\n`,
    );
    const workerOut = join(worker.dir, "out");
    expect((await campaign(worker, ["run", workerFile, "--out", workerOut])).status).toBe(1);
    expect((await campaign(worker, ["merge", workerOut, "--fail-on", "none"])).status).toBe(0);
    expect((await campaign(worker, ["merge", workerOut, "--fail-on", "error"])).status).toBe(1);
  });
});

describe("bad campaign files and usage: exit 2 with the key at fault named", () => {
  let estate: Estate;
  beforeAll(() => {
    estate = newEstate(["clean-api"]);
  });

  const cases: Array<[string, string, RegExp]> = [
    [
      "an unknown key in an entry",
      "repositories:\n  - url: a\n  - url: b\n    pth: x\n",
      /campaign\.yml: unknown key "repositories\[1\]\.pth" \(known: url, name, path, base, deploymentId, github\)/,
    ],
    [
      "an unknown top-level key",
      "repository:\n  - url: a\n",
      /unknown key "repository" \(known: repositories, github, failOn, legacyHosts, pullRequests\)/,
    ],
    ["a wrong type", "repositories:\n  - url: 42\n", /"repositories\[0\]\.url" must be a string/],
    ["a missing url", "repositories:\n  - path: x\n", /"repositories\[0\]\.url" must be a string \(missing\)/],
    [
      "a bad deployment id",
      "repositories:\n  - url: a\n    deploymentId: nope\n",
      /"repositories\[0\]\.deploymentId" is not a uuid/,
    ],
    ["a bad failOn", "repositories:\n  - url: a\nfailOn: loud\n", /"failOn" must be one of error, warning, info, none/],
    ["broken YAML", "repositories:\n  - url: [a\n", /campaign\.yml:\d+:\d+: not valid YAML/],
    [
      "two repositories with one name",
      "repositories:\n  - url: x/app\n  - url: y/app\n",
      /repositories\[1\]: the name "app" is already used by repositories\[0\]; give one of them a "name"/,
    ],
    [
      "a path leaving the repository",
      "repositories:\n  - url: a\n    path: ../etc\n",
      /"repositories\[0\]\.path" must be a directory inside the repository/,
    ],
    ["no repositories", "repositories: []\n", /"repositories" lists none/],
  ];
  for (const [what, yaml, message] of cases) {
    it(what, async () => {
      const file = estate.campaignFile(yaml);
      const run = await campaign(estate, ["run", file, "--out", join(estate.dir, "out")]);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr.split("\n")[0]).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(estate.dir, "out"))).toBe(false);
    });
  }

  it("usage mistakes", async () => {
    const file = estate.campaignFile(`repositories:\n  - url: ${estate.origin("clean-api")}\n`);
    const checks: Array<[string[], RegExp]> = [
      [["run", join(estate.dir, "missing.yml")], /campaign file not found/],
      [["run", file, "--shard", "3/2"], /--shard must be i\/N/],
      [["plan", file, "--shard", "1/2"], /--shard does not apply to campaign plan/],
      [["run", file, "--dry-run"], /--dry-run goes with --open-prs/],
      [["run", file, "--open-prs"], /--open-prs needs a GitHub token/],
      [["run", file, "--check"], /--check needs an API key: set COMFYDEPLOY_API_KEY/],
      [["run", file, "--legacy-host", "not a host!"], /not a host name: not a host!/],
      [["merge", join(estate.dir, "nothing-here")], /no reports: .* does not exist/],
      [["status", join(estate.dir, "nothing-here")], /set GITHUB_TOKEN or GH_TOKEN/],
      [["launch"], /Invalid values/],
    ];
    for (const [args, message] of checks) {
      const run = await campaign(estate, args);
      expect(run.status, `${args.join(" ")}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});

describe("pull requests and GitHub organisations, against the fake GitHub API", () => {
  const github = new FakeGitHub(TOKEN);
  let estate: Estate;
  let file: string;
  let out: string;

  beforeAll(async () => {
    estate = newEstate(["web-app", "py-service", "clean-api"]);
    await github.start();
    for (const name of ["web-app", "py-service", "clean-api"]) {
      github.addRepository({
        owner: "acme",
        name,
        cloneUrl: estate.origin(name),
        topics: name === "clean-api" ? [] : ["comfy"],
      });
    }
    github.addRepository({
      owner: "acme",
      name: "old-site",
      cloneUrl: estate.origin("old-site"),
      topics: ["comfy"],
      archived: true,
    });
    github.addRepository({ owner: "other", name: "elsewhere", cloneUrl: estate.origin("elsewhere") });
    out = join(estate.dir, "out");
    file = estate.campaignFile(
      [
        "repositories:",
        ...["web-app", "py-service", "clean-api"].flatMap((n) => [
          `  - url: ${estate.origin(n)}`,
          `    github: acme/${n}`,
        ]),
        "pullRequests:",
        "  labels: [migration]",
        "",
      ].join("\n"),
      "prs.yml",
    );
  });

  afterAll(async () => {
    await github.stop();
  });

  it("--open-prs --dry-run counts what fix would change and calls nothing", async () => {
    github.reset();
    const run = await campaign(estate, ["run", file, "--out", out, "--open-prs", "--dry-run"]);
    expect(run.status, run.stderr).toBe(1);
    expect(github.calls).toEqual([]);
    expect(report(out, "web-app").pullRequest).toMatchObject({ state: "planned" });
    expect(report(out, "web-app").pullRequest!.wouldChange).toBeGreaterThan(0);
    expect(report(out, "clean-api").pullRequest).toMatchObject({ state: "none", wouldChange: 0 });
    expect(git(estate.dir, "ls-remote", estate.origin("web-app"), "refs/heads/comfydeploy-migrate/v2")).toBe("");
  });

  it("--open-prs pushes each fix and opens one pull request per repository that needs it; the scan is not redone", async () => {
    const run = await campaign(estate, ["run", file, "--out", out, "--open-prs", "--api-url", github.url], {
      GITHUB_TOKEN: TOKEN,
    });
    expectNoSecret(run, TOKEN);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain("0 scanned, 3 updated, 0 unchanged, 0 failed");
    expect(github.calls.every((c) => c.authorized)).toBe(true);
    expect(github.pulls.map((p) => [p.repo, p.number, p.head, p.labels])).toEqual(
      expect.arrayContaining([
        ["acme/web-app", 1, "comfydeploy-migrate/v2", ["migration"]],
        ["acme/py-service", 1, "comfydeploy-migrate/v2", ["migration"]],
      ]),
    );
    expect(github.pulls).toHaveLength(2);
    expect(git(estate.dir, "ls-remote", estate.origin("web-app"), "refs/heads/comfydeploy-migrate/v2")).toMatch(
      /^[0-9a-f]{40}/,
    );
    expect(report(out, "web-app").pullRequest).toMatchObject({
      state: "open",
      number: 1,
      operation: "created",
      url: "https://github.example/acme/web-app/pull/1",
    });
    expect(report(out, "clean-api").pullRequest).toMatchObject({ state: "none", operation: "unchanged" });

    // Nothing new: the pull request step is not repeated.
    github.calls = [];
    const again = await campaign(estate, ["run", file, "--out", out, "--open-prs", "--api-url", github.url], {
      GITHUB_TOKEN: TOKEN,
    });
    expect(again.stdout).toContain("0 scanned, 0 updated, 3 unchanged, 0 failed");
    expect(github.calls).toEqual([]);
  });

  it("status reads the pull requests' states without scanning, and the dashboard shows them", async () => {
    github.merge("acme/web-app", 1);
    github.calls = [];
    const status = await campaign(estate, ["status", out, "--api-url", github.url], { GITHUB_TOKEN: TOKEN });
    expectNoSecret(status, TOKEN);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/web-app\s+#1 merged/);
    expect(status.stdout).toMatch(/py-service\s+#1 open/);
    expect(status.stdout).toMatch(/clean-api\s+no pull request/);
    expect(github.calls.every((c) => c.method === "GET")).toBe(true);
    expect(github.calls.map((c) => c.path.split("?")[0])).toEqual(
      expect.arrayContaining([
        "/repos/acme/web-app/pulls/1",
        "/repos/acme/py-service/pulls/1",
        "/repos/acme/clean-api/pulls",
      ]),
    );
    expect(report(out, "web-app").pullRequest).toMatchObject({ state: "merged", number: 1 });
    const merged = JSON.parse(readFileSync(join(out, "campaign.json"), "utf8")) as {
      totals: { pullRequests: Record<string, number> };
    };
    expect(merged.totals.pullRequests).toMatchObject({ merged: 1, open: 1 });
    expect(readFileSync(join(out, "campaign.html"), "utf8")).toContain(
      '<a href="https://github.example/acme/web-app/pull/1">#1</a> merged',
    );

    github.failures.push({ method: "GET", pattern: /./, status: 401, body: { message: "Bad credentials" } });
    const refused = await campaign(estate, ["status", out, "--api-url", github.url], { GITHUB_TOKEN: TOKEN });
    github.failures = [];
    expectNoSecret(refused, TOKEN);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/HTTP 401: Bad credentials\); check GITHUB_TOKEN or GH_TOKEN/);
  });

  it("--github-org lists an organisation's repositories page by page, by topic, without archived ones", async () => {
    github.pageSize = 2;
    const org = estate.campaignFile("github:\n  org: acme\n", "org.yml");
    const plan = await campaign(estate, ["plan", org, "--api-url", github.url, "--shards", "2"], { GH_TOKEN: TOKEN });
    expect(plan.status, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toEqual({
      include: [
        { shard: 1, shards: 2, repositories: ["clean-api", "web-app"] },
        { shard: 2, shards: 2, repositories: ["py-service"] },
      ],
    });
    expect(github.calls.filter((c) => c.path.startsWith("/orgs/acme/repos"))).toHaveLength(2);

    const byTopic = await campaign(
      estate,
      ["plan", "--github-org", "acme", "--github-topic", "comfy", "--api-url", github.url],
      { GITHUB_TOKEN: TOKEN },
    );
    expect(JSON.parse(byTopic.stdout).include[0].repositories).toEqual(["py-service", "web-app"]);

    // The listed repositories are cloned and scanned like listed ones.
    const orgOut = join(estate.dir, "org-out");
    const run = await campaign(
      estate,
      ["run", "--github-org", "acme", "--github-topic", "comfy", "--api-url", github.url, "--out", orgOut],
      { GITHUB_TOKEN: TOKEN },
    );
    expectNoSecret(run, TOKEN);
    expect(run.status, run.stderr).toBe(1);
    expect(report(orgOut, "web-app")).toMatchObject({ status: "ok", github: "acme/web-app" });

    const noToken = await campaign(estate, ["plan", org, "--api-url", github.url]);
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain("needs a GitHub token: set GITHUB_TOKEN or GH_TOKEN");
    const unknown = await campaign(
      estate,
      ["plan", "--github-org", "nobody", "--github-topic", "x", "--api-url", github.url],
      { GITHUB_TOKEN: TOKEN },
    );
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("lists none");
    github.pageSize = 100;
  });
});

describe("the clone cache", () => {
  it("keeps one shallow clone per URL and fetches only the new tip", async () => {
    const estate = newEstate(["clean-api"]);
    const file = estate.campaignFile(`repositories:\n  - url: ${estate.origin("clean-api")}\n`);
    const cache = join(estate.dir, "cache");
    await campaign(estate, ["run", file, "--out", join(estate.dir, "out"), "--cache", cache]);
    const [clone] = readdirSync(cache);
    expect(clone).toMatch(/^clean-api-[0-9a-f]{12}$/);
    expect(git(join(cache, clone!), "rev-parse", "--is-shallow-repository")).toBe("true");
    estate.commit("clean-api", { "NOTES.md": "one\n" });
    const head = estate.commit("clean-api", { "NOTES.md": "two\n" });
    await campaign(estate, ["run", file, "--out", join(estate.dir, "out"), "--cache", cache]);
    expect(readdirSync(cache)).toEqual([clone]);
    expect(git(join(cache, clone!), "rev-parse", "HEAD")).toBe(head);
    expect(
      execFileSync("git", ["rev-list", "--count", "HEAD"], { cwd: join(cache, clone!), encoding: "utf8" }).trim(),
    ).toBe("1");
  });

  it("scans the entry's base branch, and records a base that does not exist as a failed clone", async () => {
    const estate = newEstate(["clean-api"]);
    const work = estate.work("clean-api");
    git(work, "checkout", "-q", "-b", "develop");
    writeFileSync(join(work, "next.ts"), 'export const API = "https://www.comfydeploy.com/api";\n');
    git(work, "add", "-A");
    git(work, "commit", "-qm", "next");
    git(work, "push", "-q", "origin", "develop");
    const develop = git(work, "rev-parse", "HEAD");
    const file = estate.campaignFile(
      `repositories:\n  - url: ${estate.origin("clean-api")}\n    name: on-develop\n    base: develop\n  - url: ${estate.origin("clean-api")}\n    name: on-release\n    base: release\n  - url: ${estate.origin("clean-api")}\n    name: on-default\n`,
    );
    const out = join(estate.dir, "out");
    const run = await campaign(estate, ["run", file, "--out", out]);
    expect(run.status).toBe(3);
    expect(report(out, "on-develop")).toMatchObject({ status: "ok", branch: "develop", head: develop });
    expect(report(out, "on-develop").scan!.summary.total).toBeGreaterThan(0);
    expect(report(out, "on-default")).toMatchObject({ status: "ok", branch: "main" });
    expect(report(out, "on-default").scan!.summary.total).toBe(0);
    expect(report(out, "on-release")).toMatchObject({
      status: "failed",
      failure: { stage: "clone", reason: expect.stringContaining("branch release not found") },
    });
  });
});
