/**
 * Recall of the scanner against hand-marked truth.
 * - Always on: the corpora's own health (every truth.json in fixtures/real-shapes
 *   and fixtures/real-shapes-holdout points at lines that exist, names known
 *   rules and shapes, lists nothing twice; every shape class has positives and
 *   look-alikes; the holdout covers every language and issue 23 miss class)
 *   and the matching rules that bench/recall.mjs and the recall check share.
 * - The recall check: the built scanner on both corpora and on the existing
 *   fixtures with expectations (npm run bench:recall prints the same figures
 *   per shape class and per language). In each corpus at least its target
 *   (98%; 95% on the holdout) of the marked V1 uses are reported on their line
 *   with their rule, and nothing unmarked is.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RULE_IDS } from "../src/rules/catalog.js";
import {
  type CaseResult,
  existingCases,
  holdoutCases,
  judgedFindings,
  judgeCases,
  languageOf,
  matchFindings,
  NEW_RULE_IDS,
  RECALL_TARGETS,
  readText,
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
const holdout = holdoutCases(REPO_ROOT);
/** The shape classes of issue 23's miss classes, which the holdout must cover. */
const ISSUE_23_SHAPES = [
  "v1-path-on-v2-host",
  "split-base-other-language",
  "python-fstring",
  "pin-spelling",
  "wheel-name",
  "vendored-import",
  "utf16",
];
const languagesOf = (selected: typeof cases) => new Set(selected.flatMap((c) => c.truth.map((t) => languageOf(t))));

describe.each([
  ["real-shapes", cases],
  ["real-shapes-holdout", holdout],
] as const)("the %s corpus", (_corpus, selected) => {
  it.each(selected.map((c) => [c.name, c] as const))("%s: truth.json matches its files", (_name, testCase) => {
    const problems = validateTruth(testCase.dir, readTruth(join(testCase.dir, "truth.json")), KNOWN_RULES);
    expect(problems).toEqual([]);
    // A repository with no V1 use is a look-alike: it must say which lines stay quiet.
    expect(testCase.negatives.length).toBeGreaterThan(0);
  });
});

describe("the two repository corpora together", () => {
  it("hold at least 42 repositories, at least 14 (and a third) of them aside, in at least 10 languages and configs", () => {
    expect(cases.length + holdout.length).toBeGreaterThanOrEqual(42);
    expect(holdout.length).toBeGreaterThanOrEqual(14);
    // A third, as issue 23 asks: the training set grew after the first split, so the held-aside set grew with
    // repositories written for it (moving training repositories aside would not make them unseen).
    expect(holdout.length * 3).toBeGreaterThanOrEqual(cases.length + holdout.length);
    expect(languagesOf([...cases, ...holdout]).size).toBeGreaterThanOrEqual(10);
  });

  it("hold at least 5 look-alike repositories with no V1 use", () => {
    expect([...cases, ...holdout].filter((c) => c.truth.length === 0).length).toBeGreaterThanOrEqual(5);
  });

  it("the holdout covers every language of the training set and every miss class of issue 23", () => {
    const held = languagesOf(holdout);
    expect([...languagesOf(cases)].filter((language) => !held.has(language))).toEqual([]);
    const heldShapes = new Set(holdout.flatMap((c) => c.truth.map((t) => t.shape)));
    expect(ISSUE_23_SHAPES.filter((shape) => !heldShapes.has(shape))).toEqual([]);
  });

  it("no repository is in both", () => {
    const names = new Set(cases.map((c) => c.name));
    expect(holdout.filter((c) => names.has(c.name)).map((c) => c.name)).toEqual([]);
  });
});

describe("the real-shapes corpus", () => {
  it("holds at least 12 repositories, most with V1 use", () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
    expect(cases.filter((c) => c.truth.length > 0).length).toBeGreaterThanOrEqual(12);
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
    const entry = (
      line: number,
      rule = "legacy-base-url",
      shape = "direct-endpoint",
      file = "src/a.ts",
    ): TruthEntry => ({
      file,
      line,
      rule,
      shape,
      note: "n",
    });
    const problems = validateTruth(
      dir,
      {
        findings: [
          entry(1),
          entry(1),
          entry(2),
          entry(9),
          entry(3, "no-such-rule"),
          entry(3, "v1-sdk-type", "no-such-shape"),
          entry(1, "legacy-get-run", "direct-endpoint", "src/b.ts"),
        ],
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

describe("languages and encodings", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("derives a finding's language from its file name, manifests by ecosystem, unless the entry names one", () => {
    const of = (file: string, language?: string) => languageOf({ file, language });
    expect(
      [
        "src/a.tsx",
        "app/views.py",
        "go.mod",
        "Gemfile.lock",
        "src/Main.kt",
        "lib/x.dart",
        "Api/IComfy.cs",
        "x/RunClient.java",
      ].map((f) => of(f)),
    ).toEqual(["js/ts", "python", "go", "ruby", "kotlin", "dart", "csharp", "java"]);
    expect(
      ["composer.json", "requirements-dev.txt", "pubspec.yaml", "package.json", "pom.xml"].map((f) => of(f)),
    ).toEqual(["php", "python", "dart", "js/ts", "java"]);
    expect(
      [
        "Dockerfile",
        "docker/gpu.Dockerfile",
        "bin/run.sh",
        "docs/a.mdx",
        ".env.production",
        "k8s/cm.yaml",
        "infra/prod.tfvars",
        "LICENSE",
      ].map((f) => of(f)),
    ).toEqual(["docker", "docker", "shell", "docs", "config", "config", "config", "other"]);
    expect(of("scripts/build.py", "docker")).toBe("docker");
  });

  it("reads UTF-16 files by their byte-order mark, so truth lines in them are checked", () => {
    const text = '{\n  "BaseUrl": "https://www.comfydeploy.com/api"\n}\n';
    dir = tempRepo({ "utf8.json": text });
    writeFileSync(join(dir, "le.json"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    const be = Buffer.from(text, "utf16le").swap16();
    writeFileSync(join(dir, "be.json"), Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    for (const file of ["utf8.json", "le.json", "be.json"]) expect(readText(join(dir, file))).toBe(text);
    const entry = (file: string, line: number): TruthEntry => ({
      file,
      line,
      rule: "legacy-base-url",
      shape: "utf16",
      note: "n",
    });
    expect(
      validateTruth(dir, { findings: [entry("le.json", 2), entry("be.json", 2)], negatives: [] }, KNOWN_RULES),
    ).toEqual([]);
    expect(validateTruth(dir, { findings: [entry("le.json", 4)], negatives: [] }, KNOWN_RULES)).toEqual([
      "le.json:4:legacy-base-url: line 4 is outside 1..3",
    ]);
  });
});

describe("matching findings to truth", () => {
  const truth = (file: string, line: number, rule: string, shape = "direct-endpoint"): TruthEntry => ({
    file,
    line,
    rule,
    shape,
  });

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
    const expected = [
      truth("a.ts", 1, "legacy-base-url"),
      truth("a.ts", 1, "legacy-get-run"),
      truth("a.ts", 5, "v1-sdk-type"),
      truth("b.ts", 2, "legacy-create-run"),
    ];
    const result = matchFindings(expected, [
      { file: "a.ts", line: 1, rule: "legacy-base-url" },
      { file: "a.ts", line: 5, rule: "v1-sdk-import" },
      { file: "b.ts", line: 3, rule: "legacy-create-run" },
    ]);
    expect(result.matched).toEqual([expected[0]]);
    expect(result.ruleMismatches).toEqual([
      { truth: expected[2], finding: { file: "a.ts", line: 5, rule: "v1-sdk-import" } },
    ]);
    expect(result.missed).toEqual([expected[1], expected[3]]);
    expect(result.falsePositives).toEqual([{ file: "b.ts", line: 3, rule: "legacy-create-run" }]);
  });

  it("sums per shape and charges a false positive to the negative it hit", () => {
    const expected = [
      truth("a.ts", 1, "legacy-base-url", "config-prose"),
      truth("a.ts", 4, "v1-sdk-type", "type-reference"),
    ];
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

  it("sums per language, charging a false positive to its file's language", () => {
    const expected = [
      truth("app/main.go", 3, "legacy-create-run"),
      truth("lib/api.dart", 2, "legacy-base-url"),
      truth("lib/run.dart", 9, "legacy-get-run"),
    ];
    const findings = [
      { file: "app/main.go", line: 3, rule: "legacy-create-run" },
      { file: "lib/api.dart", line: 2, rule: "legacy-base-url" },
      { file: "config/app.yaml", line: 1, rule: "legacy-base-url" },
    ];
    const result: CaseResult = {
      corpus: "real-shapes-holdout",
      name: "x",
      dir: "/x",
      exclude: [],
      truth: expected,
      negatives: [],
      ...matchFindings(expected, findings),
    };
    const { rows, total } = summarise([result], { by: "language" });
    expect(rows).toEqual([
      { shape: "config", expected: 0, found: 0, ruleMismatch: 0, missed: 0, falsePositives: 1 },
      { shape: "dart", expected: 2, found: 1, ruleMismatch: 0, missed: 1, falsePositives: 0 },
      { shape: "go", expected: 1, found: 1, ruleMismatch: 0, missed: 0, falsePositives: 0 },
    ]);
    expect(total).toEqual({ shape: "total", expected: 3, found: 2, ruleMismatch: 0, missed: 1, falsePositives: 1 });
  });
});

const CORPORA = ["real-shapes", "real-shapes-holdout", "existing"] as const;

/**
 * What the scanner reaches today, as a floor that catches any regression. The targets (RECALL_TARGETS: 98%, 95% on
 * the held-aside set) are not met on the real-shapes corpora yet; `npm run bench:recall` prints how far off they are.
 * Raise a floor whenever recall rises.
 */
const RECALL_FLOORS = {
  "real-shapes": 590 / 590,
  "real-shapes-holdout": 367 / 370,
  existing: RECALL_TARGETS.existing,
} as const;

/** False positives still open, by file:line:rule (training set) or by count (the held-aside set, whose lines stay unread). */
const KNOWN_FALSE_POSITIVES: Record<(typeof CORPORA)[number], readonly string[] | number> = {
  "real-shapes": [],
  "real-shapes-holdout": 2,
  existing: [],
};

describe("scan recall on the real-shapes corpora and the existing fixtures", () => {
  let results: CaseResult[] = [];

  beforeAll(async () => {
    results = await judgeCases(CLI, [
      ...realShapesCases(REPO_ROOT),
      ...holdoutCases(REPO_ROOT),
      ...existingCases(REPO_ROOT),
    ]);
    // About 95 s on a quiet 2-core machine; a shared, loaded one has needed over 600 s.
  }, 1_200_000);

  it.each(CORPORA)("%s: at least the recorded share of the marked V1 uses is found", (corpus) => {
    const selected = results.filter((r) => r.corpus === corpus);
    expect(selected.length).toBeGreaterThan(0);
    const unmatched = selected.flatMap((r) => [
      ...r.missed.map((m) => `${r.name}: missed ${m.file}:${m.line}:${m.rule}`),
      ...r.ruleMismatches.map(
        ({ truth, finding }) =>
          `${r.name}: ${truth.file}:${truth.line} reported ${finding.rule}, expected ${truth.rule}`,
      ),
    ]);
    const shown =
      corpus === "real-shapes-holdout" ? "(the held-aside set's lines are not printed)" : unmatched.join("\n");
    expect(recallOf(summarise(selected).total), shown).toBeGreaterThanOrEqual(RECALL_FLOORS[corpus] - 1e-9);
  });

  it.each(CORPORA)("%s: nothing unmarked is reported beyond the known false positives", (corpus) => {
    const selected = results.filter((r) => r.corpus === corpus);
    const falsePositives = selected.flatMap((r) =>
      r.falsePositives.map((f) => `${r.name}: ${f.file}:${f.line}:${f.rule}`),
    );
    const known = KNOWN_FALSE_POSITIVES[corpus];
    if (typeof known === "number") expect(falsePositives.length).toBeLessThanOrEqual(known);
    else expect(falsePositives.filter((f) => !known.includes(f))).toEqual([]);
  });
});
