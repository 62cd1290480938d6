/**
 * action.yml: valid for action-validator; the inputs users of
 * create-pull-request expect and the findings, errors and report-path outputs;
 * and its steps run with bash as a runner runs them, their environment built
 * from action.yml's own `env:` blocks and input defaults. `setup` installs and
 * builds a fresh copy of this repository, as `uses: …@<ref>` downloads it;
 * `run` maps the inputs to scan, fix and pr, against real git and a fake
 * GitHub API on 127.0.0.1.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/cli.js";
import { FakeGitHub } from "../helpers/fake-github.js";
import { demoRepository, git } from "../helpers/git-repo.js";
import { tempDir } from "../helpers/temp-repo.js";

const require = createRequire(import.meta.url);
const VALIDATOR = join(require.resolve("@action-validator/cli/package.json"), "..", "cli.mjs");
const ACTION_FILE = join(REPO_ROOT, "action.yml");
const TOKEN = "ghs_actionTestFakeToken0123456789";

interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(ACTION_FILE, "utf8")) as Action;

interface StepRun {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs one of the action's steps as the runner would: its env from action.yml, inputs given or defaulted. */
function runStep(
  id: string,
  options: { inputs?: Record<string, string>; cwd: string; actionPath?: string; env?: NodeJS.ProcessEnv },
): Promise<StepRun> {
  const step = action.runs.steps.find((s) => s.id === id)!;
  const actionPath = options.actionPath ?? REPO_ROOT;
  const expand = (value: string): string =>
    value
      .replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) =>
        expand(options.inputs?.[name] ?? action.inputs[name]?.default ?? ""),
      )
      .replace(/\$\{\{\s*github\.action_path\s*\}\}/g, actionPath)
      .replace(/\$\{\{\s*github\.token\s*\}\}/g, TOKEN);
  const scratch = tempDir("cdm-action-runner-");
  const files = { GITHUB_OUTPUT: join(scratch, "output"), GITHUB_STEP_SUMMARY: join(scratch, "summary.md") };
  for (const file of Object.values(files)) writeFileSync(file, "");
  // npx would fetch a registry copy of the tool: the action must never call it.
  const bin = join(scratch, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "npx"), "#!/bin/sh\necho 'npx must not be called' >&2\nexit 127\n");
  chmodSync(join(bin, "npx"), 0o755);
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(GITHUB_|GH_|CDM_|RUNNER_)/.test(key)),
  );
  const child = spawn("bash", ["-e", "-c", step.run!], {
    cwd: step["working-directory"] ? expand(step["working-directory"]) : options.cwd,
    env: {
      ...inherited,
      PATH: `${bin}:${process.env.PATH}`,
      NO_COLOR: "1",
      RUNNER_TEMP: scratch,
      ...files,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value)])),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on("close", (status) => {
      const lines = readFileSync(files.GITHUB_OUTPUT, "utf8").split("\n").filter(Boolean);
      const outputs = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
      resolve({ status, stdout, stderr, outputs, summary: readFileSync(files.GITHUB_STEP_SUMMARY, "utf8") });
    }),
  );
}

/** A clone of the demo app with a bare origin beside it, as actions/checkout leaves a repository. */
function demoCheckout(): { work: string; origin: string } {
  return demoRepository(tempDir("cdm-action-repo-"));
}

function reportTotal(path: string): { total: number; errors: number } {
  const summary = (
    JSON.parse(readFileSync(path, "utf8")) as { summary: { total: number; bySeverity: { error: number } } }
  ).summary;
  return { total: summary.total, errors: summary.bySeverity.error };
}

describe("action.yml for action-validator", () => {
  function validate(file: string): { status: number | null; output: string } {
    const run = spawnSync(process.execPath, [VALIDATOR, file], { encoding: "utf8" });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  it("passes, and a copy with a composite output missing its value does not", () => {
    const ok = validate(ACTION_FILE);
    expect(ok.status, ok.output).toBe(0);
    const broken = join(tempDir("cdm-action-broken-"), "action.yml");
    const text = readFileSync(ACTION_FILE, "utf8");
    const withoutValue = text.replace(/^( {4}value: \$\{\{ steps\.run\.outputs\.findings \}\}\n)/m, "");
    expect(withoutValue).not.toBe(text);
    writeFileSync(broken, withoutValue);
    const result = validate(broken);
    expect(result.status).toBe(1);
    expect(result.output).toContain('"/outputs/findings/value"');
  });
});

describe("inputs and outputs", () => {
  it("takes create-pull-request's inputs, each used by the run step", () => {
    const run = action.runs.steps.find((s) => s.id === "run")!;
    const used = Object.values(run.env ?? {}).join("\n");
    for (const name of ["labels", "reviewers", "assignees", "draft", "branch", "commit-message", "title", "base"]) {
      expect(action.inputs[name], name).toBeDefined();
      expect(used, name).toContain(`\${{ inputs.${name} }}`);
    }
    expect(action.inputs.version).toBeUndefined(); // the code that runs is the ref in `uses:`
  });

  it("sets findings, errors and report-path from the run step", () => {
    for (const name of ["findings", "errors", "report-path"]) {
      expect(action.outputs[name]!.value).toBe(`\${{ steps.run.outputs.${name} }}`);
    }
  });
});

describe("setup: the action's own checkout, installed and built", () => {
  it("builds dist/ in a fresh copy of the repository (no dist/, no node_modules) and runs the copy's code", async () => {
    // What `uses: owner/comfydeploy-migrate@<ref>` downloads: the tracked files at that ref.
    const copy = join(tempDir("cdm-action-path-"), "comfydeploy-migrate");
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    })
      .split("\0")
      .filter((f) => f && existsSync(join(REPO_ROOT, f)));
    for (const file of files) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(REPO_ROOT, file), join(copy, file));
    }
    expect(existsSync(join(copy, "dist"))).toBe(false);
    const setup = await runStep("setup", {
      cwd: tempDir("cdm-action-ws-"),
      actionPath: copy,
      env: { npm_config_prefer_offline: "true" },
    });
    expect(setup.status, setup.stderr).toBe(0);
    expect(existsSync(join(copy, "dist", "src", "cli.js"))).toBe(true);

    const app = tempDir("cdm-action-app-");
    cpSync(join(REPO_ROOT, "fixtures", "demo-app"), app, { recursive: true });
    const scan = await runStep("run", { cwd: app, actionPath: copy, inputs: { "fail-on": "none" } });
    expect(scan.status, scan.stderr).toBe(0);
    expect(Number(scan.outputs.findings)).toBeGreaterThan(10);
  }, 300_000);
});

describe("run: scan and fix", () => {
  it("scan: SARIF, the step summary, and findings, errors and report-path; fails on errors", async () => {
    const { work } = demoCheckout();
    const run = await runStep("run", { cwd: work });
    expect(run.status, run.stderr).toBe(1);
    const report = run.outputs["report-path"]!;
    const { total, errors } = reportTotal(report);
    expect(total).toBeGreaterThan(10);
    expect(run.outputs).toMatchObject({
      findings: String(total),
      errors: String(errors),
      sarif: "comfydeploy-migrate.sarif",
    });
    expect(errors).toBeGreaterThan(0);
    expect(existsSync(join(work, "comfydeploy-migrate.sarif"))).toBe(true);
    expect(run.summary).toContain("legacy-create-run");
    // The CLI writes the summary itself; the action must not append the report a second time.
    const heading = run.summary.split("\n").find((line) => line.startsWith("#"))!;
    expect(run.summary.split("\n").filter((line) => line === heading)).toHaveLength(1);
  });

  it("fix: rewrites the checkout and counts what is left", async () => {
    const before = await runStep("run", { cwd: demoCheckout().work, inputs: { "fail-on": "none" } });
    const { work } = demoCheckout();
    const run = await runStep("run", { cwd: work, inputs: { mode: "fix", "fail-on": "none" } });
    expect(run.status, run.stderr).toBe(0);
    expect(git(work, "status", "--porcelain")).not.toBe("");
    const left = reportTotal(run.outputs["report-path"]!);
    expect(run.outputs.findings).toBe(String(left.total));
    expect(left.total).toBeLessThan(Number(before.outputs.findings));
  });
});

describe("run: the args input", () => {
  it("passes more options to scan, split as a shell would, with nothing expanded or run", async () => {
    const { work } = demoCheckout();
    mkdirSync(join(work, "with space"));
    writeFileSync(join(work, "with space", "old.ts"), 'export const BASE = "https://www.comfydeploy.com/api";\n');
    const args = `--rule legacy-create-run --rule "legacy-base-url" --exclude 'with space/**' --exclude '$(touch pwned)' --exclude \`touch pwned2\``;
    const run = await runStep("run", { cwd: work, inputs: { "fail-on": "none", args } });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(run.outputs["report-path"]!, "utf8")) as {
      findings: Array<{ ruleId: string; file: string }>;
    };
    expect(report.findings.length).toBeGreaterThan(0);
    expect(new Set(report.findings.map((f) => f.ruleId))).toEqual(new Set(["legacy-create-run", "legacy-base-url"]));
    expect(report.findings.filter((f) => f.file.startsWith("with space/"))).toEqual([]);
    expect(existsSync(join(work, "pwned"))).toBe(false);
    expect(existsSync(join(work, "pwned2"))).toBe(false);
  });

  it("passes more options to fix (--dry-run leaves the checkout as it was), and refuses an unmatched quote", async () => {
    const { work } = demoCheckout();
    const run = await runStep("run", { cwd: work, inputs: { mode: "fix", "fail-on": "none", args: "--dry-run" } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("(dry run)");
    expect(git(work, "status", "--porcelain")).toBe("");
    const broken = await runStep("run", { cwd: work, inputs: { args: "--since 'main" } });
    expect(broken.status).toBe(2);
    expect(broken.stdout).toContain("::error::args: unmatched quote");
  });
});

describe("run: pr, with create-pull-request's inputs", () => {
  const github = new FakeGitHub(TOKEN);
  github.addRepository({ owner: "acme", name: "demo", defaultBranch: "main" });
  beforeAll(() => github.start());
  afterAll(() => github.stop());

  const env = (): NodeJS.ProcessEnv => ({
    GITHUB_REPOSITORY: "acme/demo",
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: "https://github.example",
  });

  it("opens the pull request with the title, base, branch, draft, labels, reviewers, assignees and commit message given", async () => {
    const { work, origin } = demoCheckout();
    git(work, "push", "-q", "origin", "main:release");
    const run = await runStep("run", {
      cwd: work,
      env: env(),
      inputs: {
        mode: "pr",
        title: "Move to the V2 API",
        "commit-message": "chore: migrate to ComfyDeploy V2\n\nGenerated fix.",
        branch: "deps/comfydeploy-v2",
        base: "release",
        labels: "migration\ncomfydeploy",
        reviewers: "alice, acme/platform",
        assignees: "bob\ncarol\n",
        draft: "true",
      },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);

    const pull = github.pulls.at(-1)!;
    expect(pull).toMatchObject({
      head: "deps/comfydeploy-v2",
      base: "release",
      title: "Move to the V2 API",
      draft: true,
    });
    expect(pull.labels).toEqual(["migration", "comfydeploy"]);
    expect(pull.reviewers).toEqual(["alice"]);
    expect(github.calls.find((c) => c.path.endsWith("/requested_reviewers"))!.body).toMatchObject({
      team_reviewers: ["platform"],
    });
    expect(pull.assignees).toEqual(["bob", "carol"]);
    expect(git(origin, "log", "-1", "--format=%B", "deps/comfydeploy-v2")).toBe(
      "chore: migrate to ComfyDeploy V2\n\nGenerated fix.",
    );

    expect(run.outputs).toMatchObject({ operation: "created", number: String(pull.number) });
    expect(run.outputs.url).toContain(`/pull/${pull.number}`);
    const { total, errors } = reportTotal(run.outputs["report-path"]!);
    expect(run.outputs).toMatchObject({ findings: String(total), errors: String(errors) });
    expect(total).toBeGreaterThan(10);
  });

  it("leaves pr's defaults when the inputs are empty", async () => {
    github.reset();
    const { work, origin } = demoCheckout();
    const run = await runStep("run", { cwd: work, env: env(), inputs: { mode: "pr" } });
    expect(run.status, run.stderr).toBe(0);
    const pull = github.pulls.at(-1)!;
    expect(pull).toMatchObject({
      head: "comfydeploy-migrate/v2",
      base: "main",
      title: "Migrate ComfyDeploy V1 API use to V2",
      draft: false,
      labels: [],
      assignees: [],
    });
    expect(git(origin, "log", "-1", "--format=%s", "comfydeploy-migrate/v2")).toBe(
      "Migrate ComfyDeploy V1 API use to V2",
    );
  });

  it("refuses a draft that is not true or false, before anything runs", async () => {
    github.reset();
    const { work } = demoCheckout();
    const run = await runStep("run", { cwd: work, env: env(), inputs: { mode: "pr", draft: "yes" } });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain("::error::draft must be true or false, got 'yes'");
    expect(github.calls).toEqual([]);
  });
});
