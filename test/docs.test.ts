/** The README's rule reference is generated from the catalog; this keeps them in step. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withRulesSection } from "../src/docs/rules-markdown.js";
import { RULE_IDS } from "../src/rules/catalog.js";

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

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
});
