/**
 * Recall of the scanner against hand-marked truth.
 * - Always on: the corpus's own health (every truth.json in fixtures/real-shapes
 *   points at lines that exist, names known rules and shapes, lists nothing
 *   twice; every shape class has positives and look-alikes) and the matching
 *   rules that bench/recall.mjs and the recall check share.
 * - The recall check: the built scanner on fixtures/real-shapes and on the
 *   existing fixtures with expectations (npm run bench:recall prints the same
 *   figures per shape class). In each corpus at least 98% of the marked V1
 *   uses are reported on their line with their rule, and nothing unmarked is.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RULE_IDS } from "../src/rules/catalog.js";
import {
  type CaseResult,
  existingCases,
  judgedFindings,
  judgeCases,
  matchFindings,
  NEW_RULE_IDS,
  RECALL_TARGET,
  realShapesCases,
  readTruth,
  recallOf,
  SHAPES,
  summarise,
  type TruthEntry,
  validateTruth,
} from "../bench/recall-lib.mjs";
import { CLI, REPO_ROOT } from "./helpers/cli.js";
import { tempRepo } from "./helpers/temp-repo.js";

const KNOWN_RULES: ReadonlySet<string> = new Set([...RULE_IDS, ...NEW_RULE_IDS]);
const cases = realShapesCases(REPO_ROOT);

describe("the real-shapes corpus", () => {
  it("holds at least 12 repositories", () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: truth.json matches its files", (_name, testCase) => {
    const problems = validateTruth(testCase.dir, readTruth(join(testCase.dir, "truth.json")), KNOWN_RULES);
    expect(problems).toEqual([]);
    expect(testCase.truth.length).toBeGreaterThan(0);
    expect(testCase.negatives.length).toBeGreaterThan(0);
  });

  it("has positives and look-alikes for every shape class", () => {
    const positives = new Set(cases.flatMap((c) => c.truth.map((t) => t.shape)));
    const negatives = new Set(cases.flatMap((c) => c.negatives.map((n) => n.shape)));
    const uncovered = Object.keys(SHAPES).filter((shape) => !positives.has(shape) || !negatives.has(shape));
    expect(uncovered).toEqual([]);
  });

  it("uses each new rule id somewhere", () => {
    const rules = new Set(cases.flatMap((c) => c.truth.map((t) => t.rule)));
    expect(NEW_RULE_IDS.filter((rule) => !rules.has(rule))).toEqual([]);
  });
});

describe("truth validation", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reports missing files, lines outside the file, blank lines, unknown rules and shapes, duplicates", () => {
    dir = tempRepo({ "src/a.ts": "const a = 1;\n\nexport default a;\n" });
    const entry = (line: number, rule = "legacy-base-url", shape = "direct-endpoint", file = "src/a.ts"): TruthEntry => ({
      file,
      line,
      rule,
      shape,
      note: "n",
    });
    const problems = validateTruth(
      dir,
      {
        findings: [entry(1), entry(1), entry(2), entry(9), entry(3, "no-such-rule"), entry(3, "v1-sdk-type", "no-such-shape"), entry(1, "legacy-get-run", "direct-endpoint", "src/b.ts")],
        negatives: [{ file: "src/a.ts", line: 1, shape: "direct-endpoint", note: "look-alike" }],
      },
      KNOWN_RULES,
    );
    expect(problems).toEqual([
      "src/a.ts:1:legacy-base-url: listed twice",
      "src/a.ts:2:legacy-base-url: the line is blank",
      "src/a.ts:9:legacy-base-url: line 9 is outside 1..3",
      "src/a.ts:3:no-such-rule: unknown rule",
      'src/a.ts:3:v1-sdk-type: unknown shape "no-such-shape"',
      "src/b.ts:1:legacy-get-run: file does not exist",
      "negative src/a.ts:1: the line is also in findings",
    ]);
  });
});

describe("matching findings to truth", () => {
  const truth = (file: string, line: number, rule: string, shape = "direct-endpoint"): TruthEntry => ({ file, line, rule, shape });

  it("ignores info findings and review markers, and counts a finding once", () => {
    const judged = judgedFindings([
      { file: "a.ts", line: 1, ruleId: "legacy-base-url", severity: "error" },
      { file: "a.ts", line: 1, ruleId: "legacy-base-url", severity: "error" },
      { file: "a.ts", line: 2, ruleId: "review-marker", severity: "warning" },
      { file: "a.ts", line: 3, ruleId: "legacy-get-run", severity: "info" },
    ]);
    expect(judged).toEqual([{ file: "a.ts", line: 1, rule: "legacy-base-url" }]);
  });

  it("separates exact matches, rule mismatches, misses and false positives", () => {
    const expected = [truth("a.ts", 1, "legacy-base-url"), truth("a.ts", 1, "legacy-get-run"), truth("a.ts", 5, "v1-sdk-type"), truth("b.ts", 2, "legacy-create-run")];
    const result = matchFindings(expected, [
      { file: "a.ts", line: 1, rule: "legacy-base-url" },
      { file: "a.ts", line: 5, rule: "v1-sdk-import" },
      { file: "b.ts", line: 3, rule: "legacy-create-run" },
    ]);
    expect(result.matched).toEqual([expected[0]]);
    expect(result.ruleMismatches).toEqual([{ truth: expected[2], finding: { file: "a.ts", line: 5, rule: "v1-sdk-import" } }]);
    expect(result.missed).toEqual([expected[1], expected[3]]);
    expect(result.falsePositives).toEqual([{ file: "b.ts", line: 3, rule: "legacy-create-run" }]);
  });

  it("sums per shape and charges a false positive to the negative it hit", () => {
    const expected = [truth("a.ts", 1, "legacy-base-url", "config-prose"), truth("a.ts", 4, "v1-sdk-type", "type-reference")];
    const findings = [
      { file: "a.ts", line: 1, rule: "legacy-base-url" },
      { file: "a.ts", line: 7, rule: "legacy-base-url" },
      { file: "a.ts", line: 9, rule: "v1-sdk-call" },
    ];
    const result: CaseResult = {
      corpus: "real-shapes",
      name: "x",
      dir: "/x",
      exclude: [],
      truth: expected,
      negatives: [{ file: "a.ts", line: 7, shape: "config-prose", note: "pricing link" }],
      ...matchFindings(expected, findings),
    };
    const { rows, total } = summarise([result]);
    expect(rows).toEqual([
      { shape: "type-reference", expected: 1, found: 0, ruleMismatch: 0, missed: 1, falsePositives: 0 },
      { shape: "config-prose", expected: 1, found: 1, ruleMismatch: 0, missed: 0, falsePositives: 1 },
      { shape: "unclassified", expected: 0, found: 0, ruleMismatch: 0, missed: 0, falsePositives: 1 },
    ]);
    expect(total).toEqual({ shape: "total", expected: 2, found: 1, ruleMismatch: 0, missed: 1, falsePositives: 2 });
  });
});

const CORPORA = ["real-shapes", "existing"] as const;

describe("scan recall on the real-shapes corpus and the existing fixtures", () => {
  let results: CaseResult[] = [];

  beforeAll(async () => {
    results = await judgeCases(CLI, [...realShapesCases(REPO_ROOT), ...existingCases(REPO_ROOT)]);
  }, 300_000);

  it.each(CORPORA)(`%s: at least ${RECALL_TARGET * 100}% of the marked V1 uses are found`, (corpus) => {
    const selected = results.filter((r) => r.corpus === corpus);
    expect(selected.length).toBeGreaterThan(0);
    const unmatched = selected.flatMap((r) => [
      ...r.missed.map((m) => `${r.name}: missed ${m.file}:${m.line}:${m.rule}`),
      ...r.ruleMismatches.map(({ truth, finding }) => `${r.name}: ${truth.file}:${truth.line} reported ${finding.rule}, expected ${truth.rule}`),
    ]);
    expect(recallOf(summarise(selected).total), unmatched.join("\n")).toBeGreaterThanOrEqual(RECALL_TARGET);
  });

  it.each(CORPORA)("%s: nothing unmarked is reported", (corpus) => {
    const selected = results.filter((r) => r.corpus === corpus);
    const falsePositives = selected.flatMap((r) => r.falsePositives.map((f) => `${r.name}: ${f.file}:${f.line}:${f.rule}`));
    expect(falsePositives).toEqual([]);
  });
});
