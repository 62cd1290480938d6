/**
 * Terminal conventions end to end: colour (NO_COLOR, FORCE_COLOR, --color,
 * a real TTY), usage errors with "did you mean", output options, linters'
 * flags (--quiet, --max-warnings, --rule), unused ignore comments in CI, and
 * the next step each command ends with.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/cli.js";

const ERROR_LINE = 'export const BASE = "https://www.comfydeploy.com/api";\n';
const WARNING_LINE = "See https://www.comfydeploy.com/api for the old API.\n"; // prose: a warning
const ESC = "\x1b[";
/** A colour or style sequence (SGR), not the line clearing progress uses. */
const SGR = /\x1b\[\d+(;\d+)*m/;

/** No colour hints from the machine running the tests: each test sets what it means. */
const PLAIN_ENV = { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: "xterm" };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "cdm-term-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

/** Runs the CLI with stdout on a pseudo-terminal (util-linux `script`). */
function runOnTty(args: string[], env: NodeJS.ProcessEnv): string {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(" ");
  const result = spawnSync("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, ...PLAIN_ENV, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return result.stdout;
}

describe("colour", () => {
  it("is off when stdout is not a terminal, on with FORCE_COLOR or --color, and --no-color wins over FORCE_COLOR", () => {
    const dir = tree({ "a.ts": ERROR_LINE });
    expect(runCli(["scan", dir], { env: PLAIN_ENV }).stdout).not.toContain(ESC);
    expect(runCli(["scan", dir], { env: { ...PLAIN_ENV, FORCE_COLOR: "1" } }).stdout).toContain(ESC);
    expect(runCli(["scan", dir, "--color"], { env: { ...PLAIN_ENV, NO_COLOR: "1" } }).stdout).toContain(ESC);
    expect(runCli(["scan", dir, "--no-color"], { env: { ...PLAIN_ENV, FORCE_COLOR: "1" } }).stdout).not.toContain(ESC);
  });

  it("applies to fix's diff too, and never to a report written to a file", () => {
    const dir = tree({ "a.ts": ERROR_LINE });
    expect(runCli(["fix", dir, "--dry-run", "--color"]).stdout).toContain(ESC);
    expect(
      runCli(["fix", dir, "--dry-run", "--no-color"], { env: { ...PLAIN_ENV, FORCE_COLOR: "1" } }).stdout,
    ).not.toContain(ESC);
    runCli(["scan", dir, "--color", "-o", join(dir, "report.txt")]);
    expect(readFileSync(join(dir, "report.txt"), "utf8")).not.toContain(ESC);
  });

  it.skipIf(!hasScript)("on a terminal it is on, unless NO_COLOR has a non-empty value", () => {
    const dir = tree({ "a.ts": ERROR_LINE });
    expect(runOnTty(["scan", dir], {})).toMatch(SGR);
    expect(runOnTty(["scan", dir], { NO_COLOR: "1" })).not.toMatch(SGR);
    expect(runOnTty(["scan", dir], { NO_COLOR: "" })).toMatch(SGR);
    expect(runOnTty(["scan", dir, "--no-color"], {})).not.toMatch(SGR);
  });
});

describe("usage errors: the whole yargs message, a suggestion, exit 2", () => {
  it.each([
    [["scan", ".", "--formt", "json"], "Unknown argument: formt (--formt: did you mean --format?)"],
    [["scan", ".", "--no-colr"], "Unknown argument: colr (--no-colr: did you mean --no-color?)"],
    [["fix", ".", "--dry-rn"], "Unknown argument: dry-rn (--dry-rn: did you mean --dry-run?)"],
    [
      ["scan", ".", "--format", "jsn"],
      /Invalid values: Argument: format, Given: "jsn", Choices: "text", "json", .* \(did you mean json\?\)$/,
    ],
    [
      ["scan", ".", "--fail-on", "warnings"],
      'Argument: fail-on, Given: "warnings", Choices: "error", "warning", "info", "none" (did you mean warning?)',
    ],
    [["scan", ".", "--rule", "review-markers"], "(did you mean review-marker?)"],
    [["scna", "."], "Unknown command: scna (did you mean scan?)"],
    [
      ["scan", ".", "--max-warnings", "many"],
      'Invalid values: Argument: max-warnings, Given: "many": --max-warnings needs a number',
    ],
    [["check", "--deployment-id", "x", "--wait=soon"], 'Given: "soon": --wait needs a number'],
    [["scan", ".", "--max-warnings", "1.5"], "--max-warnings must be a whole number, 0 or more, got 1.5"],
    [["scan", ".", "--json"], "--json needs a file name; for the report on stdout use --format json"],
    [["scan", ".", "--sarif", "--fail-on", "none"], "--sarif needs a file name"],
  ])("%j", (args, message: string | RegExp) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    const [first, ...rest] = run.stderr.trimEnd().split("\n");
    if (typeof message === "string") expect(first).toContain(message);
    else expect(first).toMatch(message);
    // Commands are printed as the tool was started: here `node dist/src/cli.js` from the repository.
    expect(rest).toEqual(["Run 'node dist/src/cli.js --help' for usage."]);
  });
});

describe("output options", () => {
  it("--format json with no --output writes the JSON report to stdout", () => {
    const run = runCli(["scan", tree({ "a.ts": ERROR_LINE }), "--format", "json"]);
    expect(JSON.parse(run.stdout).findings).toHaveLength(1);
  });

  it("--json FILE writes the JSON report beside the text on stdout", () => {
    const dir = tree({ "a.ts": ERROR_LINE });
    const run = runCli(["scan", dir, "--json", join(dir, "out", "r.json"), "--fail-on", "none"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("1 finding in 1 file");
    expect(JSON.parse(readFileSync(join(dir, "out", "r.json"), "utf8")).findings).toHaveLength(1);
  });
});

describe("linters' flags", () => {
  const files = { "a.ts": ERROR_LINE, "docs/a.md": WARNING_LINE, "docs/b.md": WARNING_LINE };
  const json = (args: string[]) => {
    const run = runCli(["scan", ...args, "--format", "json"]);
    return {
      status: run.status,
      stderr: run.stderr,
      findings: JSON.parse(run.stdout).findings as Array<{ severity: string; ruleId: string }>,
    };
  };

  it("--quiet reports errors only", () => {
    const dir = tree(files);
    expect(
      json([dir])
        .findings.map((f) => f.severity)
        .sort(),
    ).toEqual(["error", "warning", "warning"]);
    expect(json([dir, "--quiet"]).findings.map((f) => f.severity)).toEqual(["error"]);
    expect(json([dir, "-q", "--fail-on", "warning"]).status).toBe(1);
  });

  it("--max-warnings N exits 1 when warnings exceed N, counting warnings --quiet hides", () => {
    const dir = tree({ "docs/a.md": WARNING_LINE, "docs/b.md": WARNING_LINE });
    expect(json([dir, "--max-warnings", "2"]).status).toBe(0);
    const over = json([dir, "--max-warnings", "1", "--quiet"]);
    expect(over.status).toBe(1);
    expect(over.findings).toEqual([]);
    expect(over.stderr).toBe("comfydeploy-migrate: 2 warnings, more than --max-warnings 1\n");
  });

  it("--rule reports one rule only", () => {
    const dir = tree({ "a.ts": `${ERROR_LINE}fetch(BASE + "/run?run_id=" + id);\n` });
    expect(json([dir, "--rule", "legacy-get-run"]).findings.map((f) => f.ruleId)).toEqual(["legacy-get-run"]);
  });
});

describe("unused ignore comments", () => {
  const files = {
    "a.ts": `${ERROR_LINE.trim()} // comfydeploy-migrate-ignore legacy-base-url -- proxied\nconst x = 1; // comfydeploy-migrate-ignore legacy-get-run\n`,
    "README.md": "Write `// comfydeploy-migrate-ignore <rule>` after the line.\n",
  };
  const rules = (args: string[], env: NodeJS.ProcessEnv) =>
    (
      JSON.parse(runCli(["scan", ...args, "--format", "json"], { env }).stdout).findings as Array<{
        ruleId: string;
        file: string;
        line: number;
      }>
    ).map((f) => `${f.file}:${f.line}:${f.ruleId}`);

  it("are reported by default in CI (CI=true), and not elsewhere", () => {
    const dir = tree(files);
    expect(rules([dir], { CI: "true" })).toEqual(["a.ts:2:unused-ignore"]);
    expect(rules([dir], { CI: undefined })).toEqual([]);
  });

  it("--report-unused-ignores and --no-report-unused-ignores override the default", () => {
    const dir = tree(files);
    expect(rules([dir, "--report-unused-ignores"], { CI: undefined })).toEqual(["a.ts:2:unused-ignore"]);
    expect(rules([dir, "--no-report-unused-ignores"], { CI: "true" })).toEqual([]);
  });
});

describe("commands end with the next step", () => {
  it("scan: preview the fix", () => {
    const dir = tree({ "a.ts": ERROR_LINE });
    // The command names the directory as briefly as it can from where the user stands.
    expect(
      runCli(["scan", dir], { cwd: dirname(dir) })
        .stdout.trimEnd()
        .split("\n")
        .pop(),
    ).toBe(`Next: preview the rewrite of 1 finding with \`node ${CLI} fix ${basename(dir)} --dry-run\``);
    expect(runCli(["scan", dir, "--format", "json"]).stdout).not.toContain("Next:");
  });

  it("fix: review the markers with scan --rule review-marker, which lists exactly them", () => {
    const dir = tree({
      "a.ts":
        'import { ComfyDeployClient } from "comfydeploy";\nconst client = new ComfyDeployClient({ apiToken: "t" });\nexport const run = () => client.runSync({ deployment_id: "d" });\n',
    });
    const dry = runCli(["fix", dir, "--dry-run"]);
    expect(dry.stdout.trimEnd().split("\n").pop()).toBe(`Next: apply it with \`node dist/src/cli.js fix ${dir}\``);
    const fixed = runCli(["fix", dir, "--allow-dirty"]);
    const next = fixed.stdout.trimEnd().split("\n").pop()!;
    const match = /^Next: review the (\d+) markers?: `node dist\/src\/cli\.js (scan .* --rule review-marker)`$/.exec(
      next,
    );
    expect(match, next).not.toBeNull();
    const listed = runCli([...match![2]!.split(" "), "--format", "json"]);
    const findings = JSON.parse(listed.stdout).findings as Array<{ ruleId: string }>;
    expect(findings.length).toBe(Number(match![1]));
    expect(new Set(findings.map((f) => f.ruleId))).toEqual(new Set(["review-marker"]));
  });
});
