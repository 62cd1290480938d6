/** The fix command end to end: safety checks, dry runs, listing, errors. */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRANSFORM_IDS } from "../../transforms/index.js";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-repo.js";

function gitRepoWithDemo(): string {
  const dir = tempDir("cdm-fix-e2e-");
  cpSync(join(REPO_ROOT, "fixtures", "demo-app"), dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@invalid", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "demo");
  return dir;
}

function snapshot(dir: string, files: string[]): string[] {
  return files.map((f) => readFileSync(join(dir, f), "utf8"));
}

const DEMO_FILES = ["src/lib/comfy.ts", "src/services/comfy-http.ts", ".env.example", "package.json"];

describe("fix safety", () => {
  it("refuses a dirty git tree, naming the files, unless --allow-dirty", () => {
    const dir = gitRepoWithDemo();
    writeFileSync(join(dir, "src/services/config.ts"), "// local edit\n", { flag: "a" });
    const run = runCli(["fix", dir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("uncommitted changes (src/services/config.ts)");
    expect(run.stderr).toContain("--allow-dirty");
  });

  it("refuses a directory outside git unless --allow-dirty", () => {
    const dir = tempDir("cdm-nogit-");
    writeFileSync(join(dir, "a.ts"), 'fetch("https://www.comfydeploy.com/api/run", { method: "POST" });\n');
    const run = runCli(["fix", dir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("not in a git repository");
  });

  it("--dry-run writes nothing, even on a dirty tree", () => {
    const dir = gitRepoWithDemo();
    writeFileSync(join(dir, "notes.txt"), "untracked\n");
    const before = snapshot(dir, DEMO_FILES);
    const run = runCli(["fix", dir, "--dry-run"]);
    expect([0, 1]).toContain(run.status);
    expect(run.stdout).toContain("fix (dry run) would change");
    expect(snapshot(dir, DEMO_FILES)).toEqual(before);
  });
});

describe("fix on the demo app", () => {
  it("migrates it: afterwards scan shows only review markers and what cannot be rewritten, and a second run changes nothing", () => {
    const dir = gitRepoWithDemo();
    const first = runCli(["fix", dir]);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/fix changed [1-9]\d* files?: [1-9]\d* sites? rewritten/);
    const after = JSON.parse(runCli(["scan", dir, "--format", "json", "--fail-on", "none"]).stdout) as {
      findings: Array<{ ruleId: string; fix: string }>;
    };
    expect(after.findings.filter((f) => f.ruleId !== "review-marker" && f.fix !== "manual")).toEqual([]);
    // fix adds the compat module: commit it with the rest.
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@invalid", "commit", "-qm", "migrated"], { cwd: dir });
    const second = runCli(["fix", dir]);
    expect(second.stdout).toContain("fix changed 0 files");
  });
});

describe("fix usage", () => {
  it("--list-transforms lists every transform with what it rewrites and marks", () => {
    const run = runCli(["fix", "--list-transforms"]);
    expect(run.status).toBe(0);
    for (const id of TRANSFORM_IDS) expect(run.stdout).toMatch(new RegExp(`^${id}: `, "m"));
  });

  it.each([
    [["fix", ".", "--node-ref", "v2.0.0"], /older than v2.1.0/],
    [["fix", ".", "--transform", "nope"], /Invalid values|Choices/],
    [["fix", "no/such/dir"], /path not found/],
  ])("%j exits 2 with one line", (args, message) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("--help explains the options with examples", () => {
    const run = runCli(["fix", "--help"]);
    for (const option of ["--dry-run", "--transform", "--list-transforms", "--allow-dirty", "--node-ref"])
      expect(run.stdout).toContain(option);
    expect(run.stdout).toContain("Examples:");
  });
});
