/**
 * Command-line conventions shared with linters: FORCE_COLOR=0, control
 * characters from files shown as escapes, counts with their nouns, `scan -`,
 * `help <command>`, --print-config.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const ERROR_LINE = 'export const BASE = "https://www.comfydeploy.com/api";\n';
const PLAIN_ENV = { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: "xterm" };
/** What `scan --print-config` prints: each setting with where its value came from. */
type PrintedConfig = Record<string, unknown> & { legacyHosts: Array<{ value: string; from: string }> };

describe("colour", () => {
  it("is off with FORCE_COLOR=0", () => {
    const dir = tempRepo({ "a.ts": ERROR_LINE });
    const run = runCli(["scan", dir], { env: { ...PLAIN_ENV, FORCE_COLOR: "0" } });
    expect(run.stdout).toContain("legacy-base-url");
    expect(run.stdout).not.toContain("\x1b[");
  });
});

describe("control characters from scanned files", () => {
  it("reach the text report as escapes, in excerpts and in file names", () => {
    const dir = tempRepo({
      "title.ts": `export const BASE = "https://www.comfydeploy.com/api"; // \x1b]0;owned\x07 \x1b[2J\n`,
      "we\x1b[31mird.ts": ERROR_LINE,
    });
    const run = runCli(["scan", dir, "--fail-on", "none"], { env: { FORCE_COLOR: "0" } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("legacy-base-url");
    expect(run.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(run.stdout).toContain("\\x1b]0;owned\\x07");
    expect(run.stdout).toContain("we\\x1b[31mird.ts");
  });
});

describe("counts", () => {
  it("say 1 error, 1 file and 1 candidate, not 1 errors", () => {
    const dir = tempRepo({ "a.ts": ERROR_LINE });
    const run = runCli(["scan", dir]);
    expect(run.stdout).toContain("1 finding in 1 file (1 error, 0 warnings, 0 info)");
    expect(run.stdout).toMatch(/Scanned 1 file, 1 candidate\./);
    expect(run.stdout).not.toMatch(/\b1 (errors|warnings|files|candidates)\b/);
  });
});

describe("a lone '-'", () => {
  it("is a usage error, not a scan of the working directory", () => {
    const dir = tempRepo({ "a.ts": ERROR_LINE });
    const run = runCli(["scan", "-"], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")[0]).toMatch(/^comfydeploy-migrate: '-' is not read as stdin/);
  });
});

describe("help <command>", () => {
  it("prints what <command> --help prints, and refuses an unknown command with exit 2", () => {
    const viaHelp = runCli(["help", "scan"]);
    expect(viaHelp.status).toBe(0);
    expect(viaHelp.stdout).toBe(runCli(["scan", "--help"]).stdout);
    expect(viaHelp.stdout).toContain("--print-config");
    expect(runCli(["help"]).stdout).toBe(runCli(["--help"]).stdout);
    const unknown = runCli(["help", "scna"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toContain("help takes one command name (scan, fix");
  });
});

describe("scan --print-config", () => {
  it("prints each resolved value with where it came from, and scans nothing", () => {
    const dir = tempRepo({
      ".comfydeploy-migrate.json": JSON.stringify({
        failOn: "warning",
        exclude: ["docs/**"],
        legacyHosts: ["comfy.corp.example"],
      }),
      "a.ts": ERROR_LINE,
    });
    const run = runCli(["scan", ".", "--print-config", "--exclude", "vendor/**", "--max-warnings", "3"], {
      cwd: dir,
      env: { CI: undefined },
    });
    expect(run.status, run.stderr).toBe(0);
    const config = JSON.parse(run.stdout) as PrintedConfig;
    expect(config.configFile).toBe(".comfydeploy-migrate.json");
    expect(config.failOn).toEqual({ value: "warning", from: ".comfydeploy-migrate.json" });
    expect(config.maxWarnings).toEqual({ value: 3, from: "--max-warnings" });
    expect(config.quiet).toEqual({ value: false, from: "default" });
    expect(config.exclude).toEqual([
      { value: "docs/**", from: ".comfydeploy-migrate.json" },
      { value: "vendor/**", from: "--exclude" },
    ]);
    expect(config.legacyHosts).toContainEqual({ value: "comfy.corp.example", from: ".comfydeploy-migrate.json" });
    expect(config.legacyHosts.some((h) => h.from === "default")).toBe(true);
    const flagWins = JSON.parse(
      runCli(["scan", ".", "--print-config", "--fail-on", "none"], { cwd: dir }).stdout,
    ) as PrintedConfig;
    expect(flagWins.failOn).toEqual({ value: "none", from: "--fail-on" });
  });
});

describe("scan --format compact", () => {
  it("prints one file:line:col: severity rule message line per finding", () => {
    const dir = tempRepo({
      "src/a.ts": `// x\n${ERROR_LINE}`,
      "b.md": "See https://www.comfydeploy.com/api for the old API.\n",
    });
    const run = runCli(["scan", dir, "--format", "compact", "--fail-on", "none"]);
    expect(run.status, run.stderr).toBe(0);
    const json = JSON.parse(runCli(["scan", dir, "--format", "json", "--fail-on", "none"]).stdout) as {
      findings: Array<{
        file: string;
        line: number;
        column: number;
        severity: string;
        ruleId: string;
        message: string;
      }>;
    };
    expect(json.findings.length).toBeGreaterThan(1);
    expect(run.stdout).toBe(
      json.findings.map((f) => `${f.file}:${f.line}:${f.column}: ${f.severity} ${f.ruleId} ${f.message}\n`).join(""),
    );
    expect(run.stdout).toMatch(/^src\/a\.ts:2:\d+: error legacy-base-url /m);
  });
});
