/**
 * Renderers on the demo repository (golden files; UPDATE_GOLDEN=1 rewrites
 * them), SARIF schema validation, the Markdown size cap, and the cutoff line.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../../src/core/finding.js";
import { cutoffStatus } from "../../src/knowledge/cutoff.js";
import { renderJson } from "../../src/report/json.js";
import { GITHUB_BODY_LIMIT, renderMarkdown } from "../../src/report/markdown.js";
import { buildReport, type Report } from "../../src/report/model.js";
import { renderSarif } from "../../src/report/sarif.js";
import { renderText } from "../../src/report/text.js";
import { scan } from "../../src/scan/engine.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";

const REPO = join(import.meta.dirname, "..", "..");
const DEMO = join(REPO, "fixtures", "demo-app");
const GOLDEN = join(import.meta.dirname, "..", "golden");
const NOW = new Date("2025-03-01T12:00:00Z");
const COMMAND = "npx comfydeploy-migrate scan fixtures/demo-app";

let report: Report;
beforeAll(async () => {
  const result = await scan({ root: DEMO, hosts: DEFAULT_HOSTS, workers: false, now: NOW });
  // The demo app stands for a repository of its own (acme/demo-app), checked out at a fixed commit.
  report = buildReport(result, {
    command: COMMAND,
    now: NOW,
    repo: { url: "https://github.com/acme/demo-app", commit: "abc123" },
    repoRoot: {
      top: DEMO,
      prefix: "",
      provenance: { repositoryUri: "https://github.com/acme/demo-app.git", revisionId: "abc123", branch: "main" },
    },
  });
});

/** Machine-specific parts (absolute root, tool version) are replaced so the golden files are portable. */
function portable(text: string): string {
  return text
    .split(DEMO)
    .join("<root>")
    .replace(/"(version|semanticVersion)": "\d+\.\d+\.\d+[^"]*"/g, '"$1": "<version>"')
    .replace(/comfydeploy-migrate \d+\.\d+\.\d+\S*/g, "comfydeploy-migrate <version>");
}

function checkGolden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  const text = portable(actual);
  if (process.env.UPDATE_GOLDEN || !existsSync(path)) writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, "utf8"));
}

describe("golden reports on the demo app", () => {
  it("text", () => checkGolden("demo-app.txt", renderText(report, { color: false })));
  it("json", () => checkGolden("demo-app.json", renderJson(report)));
  it("markdown", () => checkGolden("demo-app.md", renderMarkdown(report)));
  it("sarif", () => checkGolden("demo-app.sarif", renderSarif(report)));
});

describe("text renderer", () => {
  it("colours only when asked", () => {
    expect(renderText(report, { color: true })).toContain("\x1b[");
    expect(renderText(report, { color: false })).not.toContain("\x1b[");
  });

  it("shows excerpts and the cutoff line", () => {
    const text = renderText(report, { color: false });
    expect(text).toContain("> const res = await fetch(`${COMFY_API_BASE}/run`, {");
    expect(text).toContain("45 days left until the V1 cutoff on 2025-04-15");
  });
});

describe("SARIF", () => {
  const schema = JSON.parse(
    readFileSync(
      join(REPO, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json"),
      "utf8",
    ),
  );
  // The official schema is draft-04, which Ajv 8 reads through ajv-draft-04 (a CommonJS class export).
  const AjvDraft04 = createRequire(import.meta.url)("ajv-draft-04") as typeof Ajv;
  const validate = new AjvDraft04({
    allErrors: true,
    strict: false,
    validateFormats: false,
    unicodeRegExp: false,
  }).compile(schema);

  it("validates against the official SARIF 2.1.0 schema", () => {
    const log = JSON.parse(renderSarif(report));
    validate(log);
    expect(validate.errors ?? []).toEqual([]);
  });

  it("carries catalog rules with help URIs, locations and fingerprints", () => {
    const log = JSON.parse(renderSarif(report));
    const run = log.runs[0];
    expect(run.tool.driver.rules.every((r: { helpUri?: string }) => r.helpUri?.startsWith("https://"))).toBe(true);
    expect(run.results).toHaveLength(report.findings.length);
    for (const r of run.results) {
      expect(r.locations[0].physicalLocation.region.startLine).toBeGreaterThan(0);
      expect(r.partialFingerprints["comfydeployMigrate/v1"]).toMatch(/^[0-9a-f]{32}$/);
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    }
  });

  it("lists suppressed findings as suppressions and baselined ones as unchanged", () => {
    const [first, second, ...rest] = report.findings as [Finding, Finding, ...Finding[]];
    const suppressed = { ...first, suppression: { reason: "tracked in JIRA-1", line: first.line, expired: false } };
    const log = JSON.parse(renderSarif({ ...report, findings: rest, suppressed: [suppressed], baselined: [second] }));
    validate(log);
    expect(validate.errors ?? []).toEqual([]);
    const results = log.runs[0].results as Array<{ ruleId: string; suppressions?: unknown[]; baselineState?: string }>;
    expect(results.filter((r) => r.suppressions).map((r) => r.suppressions)).toEqual([
      [{ kind: "inSource", status: "accepted", justification: "tracked in JIRA-1" }],
    ]);
    expect(results.filter((r) => r.baselineState === "unchanged")).toHaveLength(1);
    expect(results.filter((r) => r.baselineState === "new")).toHaveLength(rest.length);
  });
});

describe("Markdown", () => {
  it("links file lines when the repository is known", () => {
    expect(renderMarkdown(report)).toContain(
      "(https://github.com/acme/demo-app/blob/abc123/src/services/comfy-http.ts#L24)",
    );
  });

  it("stays under GitHub's body limit by summarising", () => {
    const template = report.findings[0]!;
    const many: Finding[] = Array.from({ length: 6000 }, (_, i) => ({
      ...template,
      file: `packages/pkg-${i % 900}/src/module-${i}.ts`,
      line: (i % 300) + 1,
      message: `${template.message} (${"x".repeat(80)})`,
    }));
    const big = renderMarkdown({ ...report, findings: many });
    expect(big.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(big).toMatch(/more files? not detailed/);
    expect(big).toContain("Reproduce with:");
    expect(big).toContain(COMMAND);
  });

  it("says so when nothing was found", () => {
    expect(renderMarkdown({ ...report, findings: [] })).toContain("**No V1 usage found**");
  });
});

describe("cutoff", () => {
  it("counts days left, the day itself, and days since", () => {
    expect(cutoffStatus(new Date("2025-04-14T23:00:00Z")).daysLeft).toBe(1);
    expect(cutoffStatus(new Date("2025-04-15T08:00:00Z")).summary).toContain("is today");
    const after = cutoffStatus(new Date("2026-11-21T00:00:00Z"));
    expect(after.passed).toBe(true);
    expect(after.summary).toContain("passed 585 days ago");
  });
});
