/** CI gating end to end: exit-code matrix, baselines across moved lines, suppressions and expiry, --since. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { meetsThreshold } from "../../src/platform/config.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, tempRepo as repo } from "../helpers/temp-repo.js";

const ERROR_LINE = 'export const BASE = "https://www.comfydeploy.com/api";\n';
const WARNING_LINE = "// see https://www.comfydeploy.com/api/run for the old endpoint\n";

describe("exit-code matrix", () => {
  it.each([
    ["error", "error", true],
    ["error", "warning", false],
    ["warning", "error", true],
    ["warning", "warning", true],
    ["warning", "info", false],
    ["info", "info", true],
    ["none", "error", false],
  ] as const)("--fail-on %s with a%s finding fails: %s", (failOn, severity, fails) => {
    expect(meetsThreshold(severity, failOn)).toBe(fails);
  });

  it.each([
    [ERROR_LINE, "error", 1],
    [ERROR_LINE, "none", 0],
    [WARNING_LINE, "error", 0],
    [WARNING_LINE, "warning", 1],
    ["export const fine = 1;\n", "info", 0],
  ])("a file %j with --fail-on %s exits %i", (content, failOn, code) => {
    const dir = repo({ "src/a.ts": content });
    expect(runCli(["scan", dir, "--fail-on", failOn]).status).toBe(code);
  });
});

describe("baseline", () => {
  it("recognises findings after their lines move, and fails only on new ones", () => {
    const dir = repo({ "src/config.ts": ERROR_LINE, "docs/api.md": "POST https://www.comfydeploy.com/api/run\n" });
    const baseline = join(tempDir("cdm-baseline-"), "baseline.json");
    expect(runCli(["scan", dir, "--format", "json", "-o", baseline, "--fail-on", "none"]).status).toBe(0);

    // The same uses, moved down by new lines above them.
    writeFileSync(join(dir, "src/config.ts"), `// header\nimport x from "./x";\n\n${ERROR_LINE}`);
    writeFileSync(join(dir, "docs/api.md"), `# API\n\nSome text.\n\nPOST https://www.comfydeploy.com/api/run\n`);
    const unchanged = runCli(["scan", dir, "--baseline", baseline, "--format", "json"]);
    expect(unchanged.status).toBe(0);
    const quiet = JSON.parse(unchanged.stdout);
    expect(quiet.findings).toEqual([]);
    expect(quiet.summary.baselined).toBe(3);

    writeFileSync(join(dir, "src/client.ts"), 'fetch("https://www.comfydeploy.com/api/run?run_id=" + id);\n');
    const fresh = runCli(["scan", dir, "--baseline", baseline, "--format", "json"]);
    expect(fresh.status).toBe(1);
    expect(JSON.parse(fresh.stdout).findings.map((f: { file: string }) => f.file)).toEqual([
      "src/client.ts",
      "src/client.ts",
    ]);
  });

  it("rejects a file that is not a JSON report with exit 2", () => {
    const dir = repo({ "a.ts": "export {};\n", "bad.json": "[1, 2]" });
    const run = runCli(["scan", dir, "--baseline", join(dir, "bad.json")]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("is not a comfydeploy-migrate JSON report");
  });
});

describe("suppressions", () => {
  const today = new Date().toISOString().slice(0, 10);
  const nextYear = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;

  it("suppress on the same line or the line above, are listed, and never fail the run", () => {
    const dir = repo({
      "src/a.ts": `${ERROR_LINE.trim()} // comfydeploy-migrate-ignore legacy-base-url -- proxied by our gateway\n`,
      "src/b.py": `# comfydeploy-migrate-ignore legacy-base-url until ${nextYear} -- moving in Q3\nBASE = "https://www.comfydeploy.com/api"\n`,
      "config/app.yaml":
        "# comfydeploy-migrate-ignore legacy-get-run -- wrong rule, does not apply\napi: https://www.comfydeploy.com/api\n",
    });
    const run = runCli(["scan", dir, "--format", "json", "--no-report-unused-ignores"]);
    const report = JSON.parse(run.stdout);
    expect(report.findings.map((f: { file: string }) => f.file)).toEqual(["config/app.yaml"]);
    expect(
      report.suppressed.map((f: { file: string; suppression: { reason: string } }) => [f.file, f.suppression.reason]),
    ).toEqual([
      ["src/a.ts", "proxied by our gateway"],
      ["src/b.py", "moving in Q3"],
    ]);
    expect(report.summary.suppressed).toBe(2);
    expect(run.status).toBe(1); // only the yaml finding counts
  });

  it("expire: after the date the finding comes back, with a note", () => {
    const dir = repo({
      "src/a.ts": `/* comfydeploy-migrate-ignore legacy-base-url until 2024-01-31 -- temporary */\n${ERROR_LINE}`,
    });
    const run = runCli(["scan", dir, "--format", "json"]);
    expect(run.status).toBe(1);
    const [finding] = JSON.parse(run.stdout).findings;
    expect(finding.message).toContain("suppression expired on 2024-01-31");
    expect(finding.suppression).toEqual({ reason: "temporary", line: 1, until: "2024-01-31", expired: true });
  });
});

describe("--since", () => {
  it("scans only files changed since the ref, plus untracked ones", () => {
    const dir = repo({ "old.ts": ERROR_LINE, "changed.ts": "export const x = 1;\n" });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@invalid", ...args], { cwd: dir, stdio: "pipe" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "base");
    writeFileSync(join(dir, "changed.ts"), ERROR_LINE);
    writeFileSync(join(dir, "new.ts"), ERROR_LINE);
    const files = JSON.parse(runCli(["scan", dir, "--since", "HEAD", "--format", "json"]).stdout).findings.map(
      (f: { file: string }) => f.file,
    );
    expect(files.sort()).toEqual(["changed.ts", "new.ts"]);
    const bad = runCli(["scan", dir, "--since", "no-such-ref"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown git ref "no-such-ref"');
  });
});

describe("several outputs in one run", () => {
  it("writes SARIF, Markdown and JSON files and the text report on stdout", () => {
    const dir = repo({ "src/a.ts": ERROR_LINE });
    const out = tempDir("cdm-multi-");
    const run = runCli([
      "scan",
      dir,
      "--sarif",
      join(out, "r.sarif"),
      "--markdown",
      join(out, "r.md"),
      "--json",
      join(out, "r.json"),
      "--fail-on",
      "none",
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("src/a.ts");
    expect(JSON.parse(readFileSync(join(out, "r.sarif"), "utf8")).version).toBe("2.1.0");
    expect(readFileSync(join(out, "r.md"), "utf8")).toContain("## ComfyDeploy V1 → V2 migration report");
    expect(JSON.parse(readFileSync(join(out, "r.json"), "utf8")).summary.total).toBe(1);
  });
});
