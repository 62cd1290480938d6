/**
 * `fix` on the scenario apps (fixtures/scenarios): the expected migration,
 * reached in one run, with every site fix claims either rewritten or marked.
 * UPDATE_GOLDEN=1 rewrites the expected diffs in fixtures/scenario-fixes.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixedRepo, fixRepository, unmarkedFindings } from "./helpers/scenario-fix.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const SCENARIOS = join(FIXTURES, "scenarios");
const EXPECTED = join(FIXTURES, "scenario-fixes");

describe.each(readdirSync(SCENARIOS).sort())("fix on scenario %s", (name) => {
  let fixed: FixedRepo;
  beforeAll(async () => {
    fixed = await fixRepository(join(SCENARIOS, name));
  }, 120_000);
  afterAll(() => fixed?.remove());

  it("makes the expected changes", () => {
    const expectedFile = join(EXPECTED, `${name}.diff`);
    if (process.env.UPDATE_GOLDEN || !existsSync(expectedFile)) writeFileSync(expectedFile, fixed.diff);
    expect(fixed.diff).toBe(readFileSync(expectedFile, "utf8"));
  });

  it("reaches its fixed point in one run: a second run changes no byte", () => {
    expect(fixed.second.changes.map((c) => c.file)).toEqual([]);
  });

  it("leaves no site it claims unrewritten and unmarked", () => {
    expect(unmarkedFindings(fixed.after)).toEqual([]);
  });
});
