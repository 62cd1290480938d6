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
