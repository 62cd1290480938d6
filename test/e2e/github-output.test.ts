/**
 * CI-native output: `--format github` workflow commands (the default on
 * GitHub Actions), and the Markdown job summary that scan, fix and check
 * append to $GITHUB_STEP_SUMMARY.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type ServeProcess, startServe } from "../helpers/cli.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "cdm-gh-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const APP = {
  "src/a,b:c.ts": 'export const u = "https://www.comfydeploy.com/api";\n',
  "docs/notes.md": "We used to call https://www.comfydeploy.com/api/run?run_id=1 here.\n",
};

describe("--format github", () => {
  it("prints one workflow command per finding, escaped, then a summary line", () => {
    const run = runCli(["scan", scratch(APP), "--format", "github"]);
    expect(run.status).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toContain(
      "::error file=src/a%2Cb%3Ac.ts,line=1,col=18,endLine=1,endColumn=51,title=legacy-base-url%3A V1 API host::V1 API host in https://www.comfydeploy.com/api: use https://api.comfydeploy.com/api. [fix: auto]",
    );
    expect(lines.filter((l) => l.startsWith("::warning file=docs/notes.md,")).length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^\d+ findings in 2 files \(1 error, \d+ warnings?, 0 info\)\./);
  });

  it("is the default when GITHUB_ACTIONS=true and no --format is given", () => {
    const dir = scratch(APP);
    const onActions = runCli(["scan", dir], { env: { GITHUB_ACTIONS: "true" } });
    expect(onActions.stdout).toMatch(/^::error file=src\/a%2Cb%3Ac\.ts,/m);
    const asked = runCli(["scan", dir, "--format", "json"], { env: { GITHUB_ACTIONS: "true" } });
    expect(JSON.parse(asked.stdout).summary.total).toBeGreaterThan(0);
    expect(runCli(["scan", dir]).stdout).not.toContain("::error");
    const toFile = join(scratch(), "report.txt");
    runCli(["scan", dir, "--output", toFile], { env: { GITHUB_ACTIONS: "true" } });
    expect(readFileSync(toFile, "utf8")).toMatch(/^src\/a,b:c\.ts$/m);
  });
});

describe("job summary ($GITHUB_STEP_SUMMARY)", () => {
  it("scan appends its Markdown report", () => {
    const summary = join(scratch({ "summary.md": "earlier step\n" }), "summary.md");
    const run = runCli(["scan", scratch(APP), "--format", "json"], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(JSON.parse(run.stdout).summary.total).toBeGreaterThan(0);
    const text = readFileSync(summary, "utf8");
    expect(text.startsWith("earlier step\n## ComfyDeploy V1 → V2 migration report\n")).toBe(true);
    expect(text).toContain("<summary><code>src/a,b:c.ts</code> (1)</summary>");
  });

  it("scan warns on stderr, and still succeeds, when the summary cannot be written", () => {
    const run = runCli(["scan", scratch(APP), "--fail-on", "none"], {
      env: { GITHUB_STEP_SUMMARY: join(scratch(), "no", "such", "dir", "s.md") },
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("comfydeploy-migrate: cannot write the step summary (GITHUB_STEP_SUMMARY): ENOENT\n");
  });

  it("fix appends what it would change, then what it changed, with paths from the repository root", () => {
    const repo = scratch({ "web/src/client.ts": 'export const API = "https://www.comfydeploy.com/api";\n' });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@invalid", ...args], { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "base");
    const summary = join(scratch(), "summary.md");
    expect(runCli(["fix", "web", "--dry-run"], { cwd: repo, env: { GITHUB_STEP_SUMMARY: summary } }).status).toBe(0);
    const dry = readFileSync(summary, "utf8");
    expect(dry).toContain("## ComfyDeploy V1 → V2 fix (dry run)");
    expect(dry).toContain("**fix would change 1 file**: 1 site rewritten, 0 review markers added.");
    expect(dry).toContain("| <code>web/src/client.ts</code> | 1 | 0 |");

    expect(runCli(["fix", "web"], { cwd: repo, env: { GITHUB_STEP_SUMMARY: summary } }).status).toBe(0);
    const after = readFileSync(summary, "utf8");
    expect(after.startsWith(dry)).toBe(true);
    expect(after.slice(dry.length)).toContain("**fix changed 1 file**");
    expect(after).toContain("After the fix, a scan finds no V1 use.");
  });

  describe("check", () => {
    const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
    const TOKEN = "cd_live_summary_token_5e6f7a";
    let server: ServeProcess;
    let baseUrl = "";
    beforeAll(async () => {
      server = await startServe(["--token", TOKEN, "--step-ms", "20", "-d", DEPLOYMENT]);
      baseUrl = server.baseUrl;
    });
    afterAll(() => server?.stop());

    it("appends the live check's verdict, without the token", () => {
      const summary = join(scratch(), "summary.md");
      const run = runCli(["check", "--deployment-id", DEPLOYMENT, "--base-url", baseUrl, "--format", "json"], {
        env: { COMFYDEPLOY_API_KEY: TOKEN, GITHUB_STEP_SUMMARY: summary },
      });
      expect(run.status).toBe(0);
      const text = readFileSync(summary, "utf8");
      expect(text).toContain("### Live V2 check: ✅");
      expect(text).toContain(DEPLOYMENT);
      expect(text).not.toContain(TOKEN);
    });
  });
});
