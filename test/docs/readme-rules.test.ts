/** The README's rule reference is generated from the catalog; this keeps them in step. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withRulesSection } from "../../src/docs/rules-markdown.js";
import { REPOSITORY_URL } from "../../src/knowledge/migration.js";
import { renderSarif } from "../../src/report/sarif.js";
import type { Report } from "../../src/report/model.js";
import { RULE_IDS } from "../../src/rules/catalog.js";

const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
  repository?: string | { url?: string };
};

describe("README", () => {
  it("has an up-to-date rule reference (run `npm run docs` after changing the catalog)", () => {
    expect(withRulesSection(readme)).toBe(readme);
  });

  it("documents every rule with an anchor", () => {
    for (const id of RULE_IDS) expect(readme).toContain(`<a id="rule-${id}"></a>`);
  });

  it("has a two-command Quick start", () => {
    const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## `scan`"));
    expect(quickStart).toContain("npm ci && npm run demo");
    expect(quickStart).toContain("npm test");
  });

  it("is where every rule's SARIF helpUri points: the repository page, at the rule's anchor in this README", () => {
    const report = {
      tool: { name: "t", version: "0.0.0" },
      root: "/r",
      findings: [],
      suppressed: [],
      baselined: [],
      skipped: [],
      command: "x",
      cutoff: { summary: "" },
    };
    const rules = JSON.parse(renderSarif(report as unknown as Report)).runs[0].tool.driver.rules as Array<{
      id: string;
      helpUri: string;
    }>;
    expect(rules.map((r) => r.id)).toEqual([...RULE_IDS]);
    for (const rule of rules) {
      expect(rule.helpUri).toBe(`${REPOSITORY_URL}#rule-${rule.id}`);
      expect(readme).toContain(`<a id="rule-${rule.id}"></a>`);
    }
  });

  it.runIf(pkg.repository !== undefined)("names the repository package.json declares", () => {
    const url = typeof pkg.repository === "string" ? pkg.repository : (pkg.repository?.url ?? "");
    expect(url.replace(/^git\+/, "").replace(/\.git$/, "")).toBe(REPOSITORY_URL);
  });
});
