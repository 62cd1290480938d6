/**
 * fix on files the AST codemods cannot take, generated here: a 5,000-deep
 * expression, a 5,000-term string concatenation, a minified 1 MB one-line
 * bundle, and smaller ones the scan reads but Babel cannot (300 nested
 * brackets; a 2,000-term chain). fix must finish, leave each of them byte for
 * byte with an unreadable-file warning when it had findings, and fix the rest.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const V1 =
  'const api = "https://www.comfydeploy.com/api";\nexport const status = (id) => fetch(`${api}/run?run_id=${id}`);\n';

function chain(terms: number, separator: string): string {
  return Array.from({ length: terms }, (_, i) => `"p${i}"`).join(separator);
}

function minified(bytes: number): string {
  let text = 'var a="https://www.comfydeploy.com/api";function s(i){return fetch(a+"/run?run_id="+i)}';
  for (let i = 0; text.length < bytes; i++) text += `function f${i}(x){return x*2+${i}}var v${i}={k:[1,2,3],s:"abc"};`;
  return `${text}\n`;
}

const HARD: Record<string, string> = {
  "src/deep-5000.js": `${V1}export const deep = ${"(".repeat(5000)}1${")".repeat(5000)};\n`,
  "src/concat-5000.js": `${V1}export const long =\n  ${chain(5000, " +\n  ")};\n`,
  "src/concat-5000-one-line.js": `${V1}export const long = ${chain(5000, " + ")};\n`,
  "src/bundle.min.js": minified(1_000_000),
  "src/brackets-300.js": `${V1}export const deep = ${"[".repeat(300)}${"]".repeat(300)};\n`,
  "src/concat-2000.js": `${V1}export const long =\n  ${chain(2000, " +\n  ")};\n`,
};

describe("fix on files the parsers cannot take", () => {
  let dir: string;
  let run: CliResult;
  let scanned: Set<string>;

  beforeAll(() => {
    dir = tempRepo({ ...HARD, "src/ok.js": V1, "package.json": '{ "name": "bad-input" }\n' }, "cdm-fix-robust-");
    const git = (...args: string[]): string => execFileSync("git", args, { cwd: dir, encoding: "utf8" });
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "corpus");
    const scan = runCli(["scan", dir, "--format", "json", "--fail-on", "none"]);
    scanned = new Set((JSON.parse(scan.stdout) as { findings: Array<{ file: string }> }).findings.map((f) => f.file));
    run = runCli(["fix", dir, "--fail-on", "none"]);
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finishes without an internal error and fixes the other files", () => {
    expect(run.stderr).not.toMatch(/internal error|Maximum call stack|\n\s+at /);
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "src/ok.js"), "utf8")).toContain("https://api.comfydeploy.com/api");
  });

  it.each(Object.keys(HARD))(
    "leaves %s byte for byte, with an unreadable-file warning when it had findings",
    (file) => {
      expect(readFileSync(join(dir, file), "utf8")).toBe(HARD[file]);
      if (scanned.has(file))
        expect(run.stdout).toMatch(new RegExp(`unreadable-file\\s+${file.replace(/[.]/g, "\\.")}: `));
    },
  );

  it("warns for the files it reads but cannot parse (the scan finds their V1 use today)", () => {
    for (const file of ["src/bundle.min.js", "src/brackets-300.js", "src/concat-2000.js"]) {
      expect(scanned.has(file)).toBe(true);
      expect(run.stdout).toMatch(new RegExp(`unreadable-file\\s+${file.replace(/[.]/g, "\\.")}: `));
    }
  });
});
