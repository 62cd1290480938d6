/** The scan command end to end: exit codes, JSON contract, errors, skipping and redaction. */
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { RULE_IDS } from "../../src/rules/catalog.js";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "schema", "scan-report.schema.json"), "utf8"));
const validate = new Ajv({ allErrors: true }).compile(schema);

interface Report {
  summary: { total: number; bySeverity: Record<string, number> };
  findings: Array<{ file: string; line: number; ruleId: string; severity: string; excerpt?: string; message: string }>;
  skipped: Array<{ file: string; reason: string }>;
}

function scanJson(args: string[]): { status: number | null; report: Report; stderr: string } {
  const result = runCli(["scan", ...args, "--format", "json"]);
  return { status: result.status, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

describe("the published report schema", () => {
  it("names exactly the catalog's rule ids", () => {
    const enums: string[][] = [];
    JSON.stringify(schema, (key, value: unknown) => {
      if (key === "enum" && Array.isArray(value) && value.includes("review-marker")) enums.push(value as string[]);
      return value;
    });
    expect(enums).toEqual([[...RULE_IDS]]);
  });
});

describe("scan on the demo app", () => {
  let result: ReturnType<typeof scanJson>;
  beforeAll(() => {
    result = scanJson(["fixtures/demo-app"]);
  });

  it("reports every planted V1 use and no look-alike", () => {
    const expected = JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "demo-app.expected.json"), "utf8")) as Array<{
      file: string;
      line: number;
      ruleId: string;
    }>;
    const key = (f: { file: string; line: number; ruleId: string }): string => `${f.file}:${f.line}:${f.ruleId}`;
    // Paths are relative to the repository root this fixture sits in.
    expect(result.report.findings.map(key).sort()).toEqual(
      expected.map((f) => key({ ...f, file: `fixtures/demo-app/${f.file}` })).sort(),
    );
  });

  it("exits 1 because errors were found, and prints nothing on stderr without a TTY", () => {
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("");
  });

  it("follows the published JSON schema", () => {
    const ok = validate(result.report);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("exits 0 with --fail-on none, and 1 with --fail-on warning", () => {
    expect(runCli(["scan", "fixtures/demo-app", "--fail-on", "none"]).status).toBe(0);
    expect(runCli(["scan", "fixtures/demo-app", "--fail-on", "warning"]).status).toBe(1);
  });

  it("writes the report to --output and nothing to stdout", () => {
    const out = join(tempDir("cdm-out-"), "nested", "report.json");
    const run = runCli(["scan", "fixtures/demo-app", "--format", "json", "--output", out, "--fail-on", "none"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    expect((JSON.parse(readFileSync(out, "utf8")) as Report).summary.total).toBe(result.report.summary.total);
  });

  it("prints a text report grouped by file with counts by rule and fix class", () => {
    const text = runCli(["scan", "fixtures/demo-app"]).stdout;
    expect(text).toContain("\nfixtures/demo-app/src/services/comfy-http.ts\n");
    expect(text).toMatch(/By rule:\n(.|\n)*legacy-create-run\s+2/);
    expect(text).toMatch(/By fix class:\n\s+auto\s+\d+/);
    expect(text).not.toContain("\x1b[");
  });
});

describe("schema and catalog agree", () => {
  it("lists exactly the catalog's rule ids", () => {
    expect(schema.definitions.ruleId.enum).toEqual([...RULE_IDS]);
  });
});

describe("usage errors", () => {
  it.each([
    [["scan", "does/not/exist"], /path not found: does\/not\/exist/],
    [["scan", "src", "does/not/exist"], /path not found: does\/not\/exist/],
    [["scan", ".", "--format", "xml"], /Invalid values|Choices/],
    [["scan", ".", "--no-such-flag"], /Unknown argument/],
    [["frobnicate"], /Unknown argument|Unknown command/],
    [[], /Name a command/],
  ])("%j exits 2 with one clear line", (args, message) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("rejects a malformed config file with exit 2", () => {
    const dir = tempRepo({ "comfydeploy-migrate.config.json": '{ "legacyHosts": "nope" }' });
    const run = runCli(["scan", dir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('comfydeploy-migrate.config.json: "legacyHosts" must be an array');
  });
});

describe("help and version", () => {
  it("--version names the tool, jscodeshift and TypeScript versions", () => {
    const run = runCli(["--version"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^comfydeploy-migrate \d+\.\d+\.\d+\njscodeshift \d+\.\d+\.\d+\ntypescript \d+\.\d+\.\d+/,
    );
  });

  it("scan --help explains every option with examples", () => {
    const run = runCli(["scan", "--help"]);
    expect(run.status).toBe(0);
    for (const option of [
      "--format",
      "--output",
      "--fail-on",
      "--include",
      "--exclude",
      "--legacy-host",
      "--config",
      "--progress",
    ]) {
      expect(run.stdout).toContain(option);
    }
    expect(run.stdout).toContain("Examples:");
  });
});

describe("scanning arbitrary trees", () => {
  it("finds nothing and exits 0 in a tree with no V1 use", () => {
    const dir = tempRepo({
      "src/a.ts": 'fetch("https://api.comfydeploy.com/api/run/deployment/queue", { method: "POST" });\n',
    });
    const run = runCli(["scan", dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("No V1 usage found");
  });

  it("skips large, binary and out-of-tree linked files, and says so", () => {
    const outside = tempRepo({ "secret.ts": 'const u = "https://www.comfydeploy.com/api";\n' });
    const dir = tempRepo({
      "big.txt": `${"x".repeat(5 * 1024 * 1024)}\nhttps://www.comfydeploy.com/api\n`,
      "image.bin": Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from("https://www.comfydeploy.com/api")]),
      "ok.ts": 'export const u = "https://www.comfydeploy.com/api";\n',
    });
    symlinkSync(join(outside, "secret.ts"), join(dir, "linked.ts"));
    const { report } = scanJson([dir]);
    expect(report.findings.map((f) => f.file)).toEqual(["ok.ts"]);
    expect(report.skipped).toEqual([
      { file: "big.txt", reason: "larger than 5 MB" },
      { file: "image.bin", reason: "binary" },
      { file: "linked.ts", reason: "symbolic link that leaves the scanned directory" },
    ]);
  });

  it("honours .gitignore outside git, and --include / --exclude", () => {
    const dir = tempRepo({
      ".gitignore": "generated/\n",
      "generated/a.ts": 'export const u = "https://www.comfydeploy.com/api";\n',
      "src/b.ts": 'export const u = "https://www.comfydeploy.com/api";\n',
      "docs/c.md": "Call https://www.comfydeploy.com/api/run?run_id=1\n",
    });
    expect(
      scanJson([dir])
        .report.findings.map((f) => f.file)
        .sort(),
    ).toEqual(["docs/c.md", "docs/c.md", "src/b.ts"]);
    expect(scanJson([dir, "--exclude", "docs/**"]).report.findings.map((f) => f.file)).toEqual(["src/b.ts"]);
    expect(scanJson([dir, "--include", "docs/**"]).report.findings.every((f) => f.file === "docs/c.md")).toBe(true);
  });

  it("never prints tokens that sit next to a finding", () => {
    const dir = tempRepo({
      "client.ts":
        'fetch("https://www.comfydeploy.com/api/run", { method: "POST", headers: { Authorization: "Bearer cd_live_9f8e7d6c5b4a" } });\n',
      ".env": "COMFY_API_KEY=cd_live_9f8e7d6c5b4a\nCOMFY_API=https://www.comfydeploy.com/api # cd_live_9f8e7d6c5b4a\n",
    });
    for (const format of ["json", "text"]) {
      const run = runCli(["scan", dir, "--format", format]);
      expect(run.stdout).toContain("www.comfydeploy.com");
      expect(run.stdout).not.toContain("cd_live_9f8e7d6c5b4a");
    }
  });

  it("treats hosts from the config file as V1 hosts", () => {
    const dir = tempRepo({
      "comfydeploy-migrate.config.json": JSON.stringify({ legacyHosts: ["https://comfy.internal.example/api"] }),
      "src/run.ts": 'fetch("https://comfy.internal.example/api/run", { method: "POST" });\n',
    });
    const rules = scanJson([dir])
      .report.findings.map((f) => f.ruleId)
      .sort();
    expect(rules).toEqual(["legacy-base-url", "legacy-create-run"]);
    const viaFlag = tempRepo({ "src/run.ts": 'fetch("https://comfy.other.example/api/run?run_id=" + id);\n' });
    expect(scanJson([viaFlag, "--legacy-host", "comfy.other.example"]).report.findings.map((f) => f.ruleId)).toContain(
      "legacy-get-run",
    );
  });
});
