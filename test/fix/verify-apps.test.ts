/**
 * fix --verify: the project's own checks run on the files fix changed, with
 * the project's own TypeScript and dependencies, and say plainly when they
 * cannot run. The TypeScript app is type-checked against the real V2 SDK.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { verifyChanges } from "../../src/fix/verify.js";
import { verificationMarkdown } from "../../src/fix/verify-report.js";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const APP = {
  "package.json": `{ "name": "app", "private": true, "dependencies": { "comfydeploy": "^0.0.19" } }\n`,
  "tsconfig.json": `{ "compilerOptions": { "strict": true, "module": "esnext", "moduleResolution": "bundler", "target": "es2022", "noEmit": true, "skipLibCheck": true }, "include": ["src"] }\n`,
  ".gitignore": "node_modules\n",
  "src/comfy.ts": [
    `import { ComfyDeployClient } from "comfydeploy";`,
    ``,
    `declare const API_KEY: string;`,
    `const client = new ComfyDeployClient({ apiToken: API_KEY });`,
    ``,
    `export async function start(deploymentId: string) {`,
    `  const run = await client.run({ deployment_id: deploymentId, inputs: { prompt: "a cat" } });`,
    `  return run?.run_id;`,
    `}`,
    ``,
    `export async function status(runId: string) {`,
    `  return client.getRun(runId);`,
    `}`,
    ``,
  ].join("\n"),
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A committed copy of the app; `installed` maps a package name to the folder of this repository's node_modules it resolves to. */
function app(installed: Record<string, string>, extra: Record<string, string> = {}): string {
  const dir = tempRepo({ ...APP, ...extra }, "cdm-verify-");
  dirs.push(dir);
  mkdirSync(join(dir, "node_modules"));
  for (const [name, target] of Object.entries(installed))
    symlinkSync(join(REPO_ROOT, "node_modules", target), join(dir, "node_modules", name), "dir");
  const git = (...args: string[]): void => void execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "app");
  return dir;
}

const V2_INSTALLED = { typescript: "typescript", comfydeploy: "comfydeploy", zod: "zod" };

describe("fix --verify on a TypeScript app", () => {
  it("type-checks the migrated app with its own tsc against the V2 SDK it now depends on", () => {
    const dir = app(V2_INSTALLED);
    const run = runCli(["fix", "--verify"], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}passed +npx tsc --noEmit -p tsconfig\.json$/m);
    expect(readFileSync(join(dir, "src/comfy.ts"), "utf8")).toContain("new ComfyDeploy(");
  });

  it("reports an error in a changed file as verify-failed with its line, and exits 1", () => {
    const broken = APP["src/comfy.ts"].replace(
      "  return run?.run_id;",
      "  const id: number = run?.run_id;\n  return id;",
    );
    const dir = app(V2_INSTALLED, { "src/comfy.ts": broken });
    const run = runCli(["fix", "--verify"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/FAILED +npx tsc --noEmit -p tsconfig\.json: 1 error in files fix changed/);
    const line = Number(/src\/comfy\.ts:(\d+): tsc: TS2322 /.exec(run.stdout)?.[1]);
    expect(readFileSync(join(dir, "src/comfy.ts"), "utf8").split("\n")[line - 1]).toContain("const id: number");
  });

  it("passes when the only errors are in files fix did not change, and says so", () => {
    const dir = app(V2_INSTALLED, { "src/other.ts": `export const count: number = "three";\n` });
    const run = runCli(["fix", "--verify"], { cwd: dir });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /passed +npx tsc --noEmit -p tsconfig\.json: \(errors only in files fix did not change\)/,
    );
  });

  it("does not blame the rewrite while node_modules still holds the V1 SDK: not run, and why", () => {
    const dir = app({ typescript: "typescript", comfydeploy: "comfydeploy-v1", zod: "zod" });
    const run = runCli(["fix", "--verify"], { cwd: dir });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /not run +npx tsc --noEmit -p tsconfig\.json: node_modules does not match the package\.json fix changed: comfydeploy 0\.0\.19 is installed \(package\.json now asks for 2\.0\.0-beta\.69\)/,
    );
    expect(run.stdout).not.toContain("verify-failed");
  });

  it("says the check could not run when the project's dependencies are not installed", () => {
    const dir = app({});
    const run = runCli(["fix", "--verify"], { cwd: dir });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /not run +npx tsc --noEmit -p tsconfig\.json: the project's dependencies are not installed/,
    );
  });

  it("runs nothing in a dry run, and says so", () => {
    const dir = app(V2_INSTALLED);
    const run = runCli(["fix", "--verify", "--dry-run"], { cwd: dir });
    expect(run.stdout).toContain(
      "--verify runs the project's checks on written files: it does nothing with --dry-run.",
    );
    expect(run.stdout).not.toContain("Verification");
  });
});

describe("verifyChanges on JavaScript and Python", () => {
  function scratch(files: Record<string, string>): string {
    const dir = tempRepo(files, "cdm-verify-");
    dirs.push(dir);
    return dir;
  }

  it("node --check finds a syntax error in a changed .js file, with its line; .jsx is left to fix's own parser", async () => {
    const dir = scratch({
      "ok.mjs": "export const a = 1;\n",
      "bad.js": "const a = 1;\nconst b = ;\n",
      "view.jsx": "export const V = () => <p />;\n",
    });
    const result = await verifyChanges(dir, ["ok.mjs", "bad.js", "view.jsx"]);
    expect(result.checks.map((c) => [c.command, c.status])).toEqual([
      ["node --check ok.mjs", "passed"],
      ["node --check bad.js", "failed"],
    ]);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ ruleId: "verify-failed", file: "bad.js", line: 2, severity: "error" });
  });

  it("a Python syntax error is a finding at its line; a good file passes; no bytecode is written", async () => {
    const dir = scratch({ "good.py": "x = 1\n", "bad.py": "def f(:\n    pass\n" });
    const result = await verifyChanges(dir, ["good.py", "bad.py"]);
    expect(result.checks).toEqual([expect.objectContaining({ status: "failed", reason: "1 file does not compile" })]);
    expect(result.findings).toEqual([expect.objectContaining({ file: "bad.py", line: 1 })]);
    expect(() => readFileSync(join(dir, "__pycache__"))).toThrow();
  });

  it("TypeScript with no tsconfig above it is not type-checked, and the report says so", async () => {
    const dir = scratch({ "lone.ts": "export const a: number = 1;\n" });
    const result = await verifyChanges(dir, ["lone.ts"]);
    expect(result.checks).toEqual([
      {
        command: "npx tsc --noEmit",
        status: "not-run",
        reason: expect.stringContaining("no tsconfig.json above lone.ts"),
      },
    ]);
  });
});

describe("the verification section of a pull request body", () => {
  it("lists each check with its state, links errors, and escapes the compiler's text", () => {
    const markdown = verificationMarkdown(
      {
        checks: [
          { command: "npx tsc --noEmit -p tsconfig.json", status: "failed", reason: "1 error in files fix changed" },
          { command: "node --check a.js", status: "passed" },
          {
            command: "npx tsc --noEmit -p web/tsconfig.json",
            status: "not-run",
            reason: "the project's dependencies are not installed",
          },
        ],
        findings: [
          {
            ruleId: "verify-failed",
            severity: "error",
            file: "src/a.ts",
            line: 3,
            column: 1,
            message: "tsc: TS2322 Type '<T>' is not assignable to `x`",
          } as never,
        ],
      },
      (file, line) => `[${file}:${line}](u#L${line})`,
    );
    expect(markdown).toContain("## Verification");
    expect(markdown).toContain("- ❌ `npx tsc --noEmit -p tsconfig.json` — 1 error in files fix changed");
    expect(markdown).toContain("- ✅ `node --check a.js`");
    expect(markdown).toContain("- ⚠️ not run: `npx tsc --noEmit -p web/tsconfig.json`");
    expect(markdown).toContain("- [src/a.ts:3](u#L3): tsc: TS2322 Type '\\<T\\>' is not assignable to \\`x\\`");
    expect(markdown).toContain("Checks that did not run here should run in this branch's CI");
  });
});
