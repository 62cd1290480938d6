/**
 * A repository the user does not control commits a fake TypeScript compiler
 * (node_modules/typescript/bin/tsc) and a Prettier config, both JavaScript
 * that records what it received. With tokens in the environment, `campaign
 * run --open-prs --verify` and `fix --verify --project-tsc` either never run
 * them or hand them none of the tokens; no token lands in the clone's
 * .git/config.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEstate, type Estate } from "../helpers/campaign-estate.js";
import { runCli, runCliAsync } from "../helpers/cli.js";
import { FakeGitHub } from "../helpers/fake-github.js";
import { git } from "../helpers/git-repo.js";
import { tempDir } from "../helpers/temp-repo.js";

const SENTINELS = {
  GITHUB_TOKEN: "ghs_sentinelGithubToken0123456789",
  GH_TOKEN: "ghp_sentinelGhToken0123456789abcd",
  COMFYDEPLOY_API_KEY: "cd_sentinel_api_key_0123456789",
};

/** A script that appends its argv and environment, as one JSON line, to `log`. */
const spy = (log: string, extra = "") =>
  `require("node:fs").appendFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv, env: process.env }) + "\\n");\n${extra}`;

/** Installed packages as fix leaves package.json, so verify's stale-install check lets the type-check run. */
const INSTALLED: Record<string, string> = {
  axios: "1.7.0",
  comfydeploy: "2.0.0-beta.69",
  next: "14.2.15",
  react: "18.3.1",
  "react-dom": "18.3.1",
  zod: "3.25.76",
  "@types/node": "20.16.0",
  "@types/react": "18.3.11",
  "@types/react-dom": "18.3.1",
};

function spyFiles(log: string): Record<string, string> {
  const files: Record<string, string> = {
    "node_modules/typescript/package.json": JSON.stringify({
      name: "typescript",
      version: "5.6.3",
      bin: { tsc: "bin/tsc" },
    }),
    "node_modules/typescript/bin/tsc": spy(log),
    "prettier.config.cjs": spy(log, "module.exports = {};\n"),
    ".prettierrc.cjs": spy(log, "module.exports = {};\n"),
  };
  for (const [name, version] of Object.entries(INSTALLED))
    files[`node_modules/${name}/package.json`] = JSON.stringify({ name, version });
  return files;
}

/** Commits files, ignored ones included (node_modules), and pushes them. */
function commitAll(estate: Estate, name: string, files: Record<string, string>): void {
  estate.commit(name, files);
  git(estate.work(name), "add", "-f", "-A", ".");
  git(estate.work(name), "commit", "-qm", "vendored tools");
  git(estate.work(name), "push", "-q", "origin", "HEAD:main");
}

function expectSpiesSawNoSecret(log: string): void {
  const seen = existsSync(log) ? readFileSync(log, "utf8") : "";
  for (const value of Object.values(SENTINELS)) {
    expect(seen).not.toContain(value);
    expect(seen).not.toContain(Buffer.from(`x-access-token:${value}`).toString("base64"));
  }
}

describe("a repository that ships a spying tsc and Prettier config", () => {
  const github = new FakeGitHub(SENTINELS.GITHUB_TOKEN);
  github.addRepository({ owner: "acme", name: "web-app", defaultBranch: "main" });
  beforeAll(() => github.start());
  afterAll(() => github.stop());

  it("campaign run --open-prs --verify: the spies see no token, and the clone's .git/config holds none", async () => {
    const estate = createEstate(["web-app"]);
    const log = join(tempDir("cdm-spy-log-"), "spy.jsonl");
    commitAll(estate, "web-app", spyFiles(log));
    const file = estate.campaignFile(
      "repositories:\n  - url: https://github.com/acme/web-app.git\n    github: acme/web-app\n",
    );
    const cache = join(estate.dir, "cache");
    const run = await runCliAsync(
      [
        "campaign",
        "run",
        file,
        "--out",
        join(estate.dir, "out"),
        "--cache",
        cache,
        "--open-prs",
        "--verify",
        "--api-url",
        github.url,
      ],
      {
        cwd: estate.dir,
        env: {
          ...SENTINELS,
          GITHUB_SERVER_URL: "https://github.com",
          GITHUB_API_URL: "",
          GITHUB_REPOSITORY: "",
          // Clones of https://github.com/acme/… come from the estate's origins on disk.
          GIT_CONFIG_COUNT: "1",
          GIT_CONFIG_KEY_0: `url.file://${join(estate.dir, "origins")}/.insteadOf`,
          GIT_CONFIG_VALUE_0: "https://github.com/acme/",
        },
      },
    );
    const report = JSON.parse(readFileSync(join(estate.dir, "out", "repos", "web-app.json"), "utf8")) as {
      status: string;
      pullRequest?: { state: string };
    };
    expect(report.status, run.stderr).toBe("ok");
    expect(report.pullRequest?.state, run.stderr).toBe("open");
    expectSpiesSawNoSecret(log);
    for (const clone of readdirSync(cache).filter((entry) => !entry.endsWith(".lock"))) {
      const config = readFileSync(join(cache, clone, ".git", "config"), "utf8");
      expect(config).not.toMatch(/extraheader|x-access-token|authorization/i);
      for (const value of Object.values(SENTINELS)) expect(config).not.toContain(value);
    }
  }, 120_000);

  it("fix --verify --project-tsc runs the project's tsc, with none of the tokens in its environment", () => {
    const estate = createEstate(["web-app"]);
    const log = join(tempDir("cdm-spy-log-"), "spy.jsonl");
    commitAll(estate, "web-app", spyFiles(log));
    const run = runCli(["fix", ".", "--verify", "--project-tsc"], { cwd: estate.work("web-app"), env: SENTINELS });
    expect(run.status, run.stderr).not.toBe(2);
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { argv: string[]; env: Record<string, string> });
    expect(calls.some((call) => call.argv.some((arg) => arg.endsWith("typescript/bin/tsc")))).toBe(true);
    expectSpiesSawNoSecret(log);
  });

  it("fix --verify without --project-tsc never runs the repository's tsc or Prettier config", () => {
    const estate = createEstate(["web-app"]);
    const log = join(tempDir("cdm-spy-log-"), "spy.jsonl");
    commitAll(estate, "web-app", spyFiles(log));
    const run = runCli(["fix", ".", "--verify"], { cwd: estate.work("web-app"), env: SENTINELS });
    expect(run.status, run.stderr).not.toBe(2);
    expect(run.stdout).toMatch(/(passed|failed)\s+npx tsc --noEmit -p tsconfig\.json/);
    expect(existsSync(log)).toBe(false);
  });
});

describe("the options that decide what runs", () => {
  it("--project-tsc without --verify, and campaign --verify without --open-prs, are usage errors", () => {
    const estate = createEstate(["web-app"]);
    const fix = runCli(["fix", ".", "--project-tsc"], { cwd: estate.work("web-app") });
    expect(fix.status).toBe(2);
    expect(fix.stderr.split("\n")[0]).toMatch(/--project-tsc goes with --verify/);
    expect(fix.stderr).not.toMatch(/\n\s+at /);
    const file = estate.campaignFile(`repositories:\n  - url: ${estate.origin("web-app")}\n`);
    const campaign = runCli(["campaign", "run", file, "--verify"], {
      cwd: estate.dir,
      env: { GITHUB_TOKEN: "", GH_TOKEN: "" },
    });
    expect(campaign.status).toBe(2);
    expect(campaign.stderr.split("\n")[0]).toMatch(/--verify goes with --open-prs/);
    expect(campaign.stderr).not.toMatch(/\n\s+at /);
  });
});
