/**
 * Every JS/TS rule fixture: the findings on each line equal the line's
 * `@expect` annotations, and files without annotations yield nothing.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsAnalyzer } from "../../../src/scan/js/analyze.js";
import { scan } from "../../../src/scan/engine.js";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { actualKeys, expectedKeys } from "../../helpers/annotations.js";
import { readFileSync } from "node:fs";

const ROOT = join(import.meta.dirname, "..", "..", "..", "fixtures", "rules", "js");
const RULE_DIRS = readdirSync(ROOT).filter((d) => d !== "crossfile");

describe.each(RULE_DIRS)("rule fixtures: %s", (dir) => {
  const files = readdirSync(join(ROOT, dir)).sort();
  it.each(files)("%s", (name) => {
    const path = join(ROOT, dir, name);
    const analyzer = new JsAnalyzer(join(ROOT, dir), new Set([name]), DEFAULT_HOSTS);
    const { findings } = analyzer.analyze(name, readFileSync(path, "utf8"));
    expect(actualKeys(findings)).toEqual(expectedKeys(path));
    if (name.startsWith("neg-")) expect(findings).toEqual([]);
  });
});

describe("cross-file fixtures", () => {
  const dir = join(ROOT, "crossfile");
  const files = readdirSync(dir).sort();
  it("follows constants, singletons and factories through imports", async () => {
    const result = await scan({ root: dir, hosts: DEFAULT_HOSTS, workers: false });
    for (const name of files) {
      expect({ name, keys: actualKeys(result.findings, name) }).toEqual({ name, keys: expectedKeys(join(dir, name)) });
    }
  });
});
