/**
 * The reusable campaign workflow and the action's campaign mode: both pass
 * action-validator, and their shell steps, run with bash as a runner would
 * (CDM_CLI pointing at the CLI built from this checkout, as the tool checkout
 * gives it on a runner; npx refuses to run), take an estate from plan to dashboard.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLEAN, createEstate, type Estate } from "../helpers/campaign-estate.js";
import { CLI, REPO_ROOT } from "../helpers/cli.js";

const require = createRequire(import.meta.url);
const VALIDATOR = join(require.resolve("@action-validator/cli/package.json"), "..", "cli.mjs");
const WORKFLOW = join(REPO_ROOT, ".github", "workflows", "campaign.yml");
const ACTION = join(REPO_ROOT, "action.yml");

interface Step {
  id?: string;
  "working-directory"?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  strategy?: { matrix: unknown };
  steps: Step[];
  outputs?: Record<string, string>;
}

const workflow = parse(readFileSync(WORKFLOW, "utf8")) as { on: Record<string, unknown>; jobs: Record<string, Job> };
const action = parse(readFileSync(ACTION, "utf8")) as { inputs: Record<string, unknown>; runs: { steps: Step[] } };

function validate(file: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [VALIDATOR, file], { encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("action-validator", () => {
  let estate: Estate;
  beforeAll(() => {
    estate = createEstate([]);
  });
  afterAll(() => estate.remove());

  it("accepts the reusable workflow and the action", () => {
    for (const file of [WORKFLOW, ACTION]) {
      const result = validate(file);
      expect(result.status, result.output).toBe(0);
    }
  });

  it("rejects a workflow with a mistake (so the check above means something)", () => {
    const broken = join(estate.dir, "broken.yml");
    writeFileSync(
      broken,
      readFileSync(WORKFLOW, "utf8").replace(/^ {4}runs-on: ubuntu-latest$/m, "    run-on: ubuntu-latest"),
    );
    const result = validate(broken);
    expect(result.status).toBe(1);
    expect(result.output).toContain("Additional property 'run-on' is not allowed");
  });
});

describe("the reusable workflow's shape", () => {
  it("is callable and dispatchable, with a plan job, a matrix job that uses this repository's action, and a merge job", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["workflow_call", "workflow_dispatch"]);
    expect(Object.keys(workflow.jobs)).toEqual(["plan", "shard", "merge"]);
    const shard = workflow.jobs.shard!;
    expect(shard.needs).toBe("plan");
    expect(shard.strategy?.matrix).toBe("${{ fromJSON(needs.plan.outputs.matrix) }}");
    const uses = shard.steps.find((s) => s.with?.mode === "campaign")!;
    const toolCheckout = shard.steps.find((s) => s.with?.path === ".comfydeploy-migrate-action")!;
    expect(uses.uses).toBe(`./${toolCheckout.with!.path}`);
    expect(uses.with).toMatchObject({ shard: "${{ matrix.shard }}/${{ matrix.shards }}", out: "campaign-out" });
    expect(
      shard.steps.some((s) => s.uses?.startsWith("actions/upload-artifact@") && s.with?.path === "campaign-out/repos/"),
    ).toBe(true);
    const merge = workflow.jobs.merge!;
    expect(
      merge.steps.some((s) => s.uses?.startsWith("actions/download-artifact@") && s.with?.["merge-multiple"] === true),
    ).toBe(true);
    expect(merge.steps.find((s) => s.id === "merge")!.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(merge.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!.with!.path).toContain(
      "campaign-out/campaign.html",
    );
  });

  it("runs the tool's own checked-out code in every job, never a registry copy", () => {
    expect(readFileSync(WORKFLOW, "utf8")).not.toMatch(/npx|comfydeploy-migrate@/);
    expect(readFileSync(ACTION, "utf8")).not.toMatch(/npx|comfydeploy-migrate@/);
    for (const name of ["plan", "shard", "merge"]) {
      const tool = workflow.jobs[name]!.steps.find((s) => s.with?.path === ".comfydeploy-migrate-action")!;
      expect(tool.uses, name).toMatch(/^actions\/checkout@/);
      // The action builds the code beside action.yml: a sparse checkout of action.yml alone would not do.
      expect(tool.with!["sparse-checkout"], name).toBeUndefined();
    }
    for (const name of ["plan", "merge"]) {
      const steps = workflow.jobs[name]!.steps;
      const install = steps.findIndex(
        (s) => s["working-directory"] === ".comfydeploy-migrate-action" && /^npm ci\b/.test(s.run ?? ""),
      );
      const run = steps.findIndex((s) => s.id === name);
      expect(install, name).toBeGreaterThan(-1);
      expect(install, name).toBeLessThan(run);
      expect(steps[run]!.env!.CDM_CLI).toBe(".comfydeploy-migrate-action/dist/src/cli.js");
    }
  });
});

describe("the workflow's and the action's shell steps, run as a runner would", () => {
  let estate: Estate;
  let bin: string;

  beforeAll(() => {
    estate = createEstate(["web-app", CLEAN]);
    // The steps run the CLI that CDM_CLI names; npx, which would fetch a registry copy, fails.
    bin = join(estate.dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "npx"), "#!/bin/sh\necho 'npx must not be called' >&2\nexit 127\n");
    chmodSync(join(bin, "npx"), 0o755);
    writeFileSync(
      join(estate.dir, "campaign.yml"),
      `repositories:\n  - url: ${estate.origin("web-app")}\n  - url: ${estate.origin(CLEAN)}\n`,
    );
  });
  afterAll(() => estate.remove());

  function bash(
    script: string,
    env: Record<string, string>,
    outputs: string,
  ): { status: number | null; stderr: string; outputs: Record<string, string> } {
    writeFileSync(outputs, "");
    const run = spawnSync("bash", ["-e", "-c", script], {
      cwd: estate.dir,
      encoding: "utf8",
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        HOME: estate.dir,
        XDG_CACHE_HOME: join(estate.dir, "cache"),
        RUNNER_TEMP: estate.dir,
        CDM_CLI: CLI,
        GITHUB_OUTPUT: outputs,
        GITHUB_STEP_SUMMARY: join(estate.dir, "summary.md"),
        ...env,
      },
    });
    const lines = readFileSync(outputs, "utf8").split("\n").filter(Boolean);
    return {
      status: run.status,
      stderr: run.stderr,
      outputs: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])),
    };
  }

  it("plan → one action run per shard → merge: reports, step summary, dashboard and exit status", () => {
    const plan = bash(
      workflow.jobs.plan!.steps.find((s) => s.id === "plan")!.run!,
      {
        GITHUB_TOKEN: "",
        CAMPAIGN: "campaign.yml",
        SHARDS: "2",
        ORG: "",
        TOPIC: "",
        OPEN_PRS: "false",
        DRY_RUN: "true",
      },
      join(estate.dir, "plan-output"),
    );
    expect(plan.status, plan.stderr).toBe(0);
    const matrix = JSON.parse(plan.outputs.matrix!) as { include: Array<{ shard: number; shards: number }> };
    expect(matrix.include.map((m) => `${m.shard}/${m.shards}`)).toEqual(["1/2", "2/2"]);
    expect(plan.outputs.args!.trim()).toBe("--previous campaign-state/repos");

    const script = action.runs.steps.find((s) => s.id === "run")!.run!;
    for (const { shard, shards } of matrix.include) {
      const shardDir = join(estate.dir, `runner-${shard}`);
      mkdirSync(shardDir);
      cpSync(join(estate.dir, "campaign.yml"), join(shardDir, "campaign.yml"));
      const run = spawnSync("bash", ["-c", script], {
        cwd: shardDir,
        encoding: "utf8",
        env: {
          PATH: `${bin}:${process.env.PATH}`,
          HOME: estate.dir,
          XDG_CACHE_HOME: join(estate.dir, "cache"),
          GITHUB_OUTPUT: join(shardDir, "out.txt"),
          GITHUB_STEP_SUMMARY: join(shardDir, "summary.md"),
          RUNNER_TEMP: shardDir,
          GITHUB_TOKEN: "",
          CDM_CLI: CLI,
          CDM_MODE: "campaign",
          CDM_PATH: ".",
          CDM_FAIL_ON: "none",
          CDM_CAMPAIGN: "campaign.yml",
          CDM_SHARD: `${shard}/${shards}`,
          CDM_OUT: "campaign-out",
          CDM_CAMPAIGN_ARGS: plan.outputs.args!,
        },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(existsSync(join(shardDir, "campaign-out", "campaign.html"))).toBe(false);
      cpSync(join(shardDir, "campaign-out", "repos"), join(estate.dir, "campaign-out", "repos"), { recursive: true });
    }

    const merge = bash(
      workflow.jobs.merge!.steps.find((s) => s.id === "merge")!.run!,
      { FAIL_ON: "error" },
      join(estate.dir, "merge-output"),
    );
    expect(merge.status, merge.stderr).toBe(0);
    expect(merge.outputs.status).toBe("1"); // web-app has V1 findings: the last step fails the job
    const summary = readFileSync(join(estate.dir, "summary.md"), "utf8");
    expect(summary).toContain("## ComfyDeploy V2 migration campaign");
    expect(summary).toContain("| clean-api | ✅ ready |");
    expect(existsSync(join(estate.dir, "campaign-out", "campaign.html"))).toBe(true);
    expect(existsSync(join(estate.dir, "campaign-state", "history.json"))).toBe(true);
    expect(existsSync(join(estate.dir, "campaign-state", "repos", "web-app.json"))).toBe(true);
  });
});
