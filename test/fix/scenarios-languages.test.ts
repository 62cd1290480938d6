/**
 * `fix` on the raw-HTTP scenario apps in languages other than JS/TS and
 * Python (fixtures/scenarios/<lang>-*): base and requests in different
 * files, as real clients have them. After one run no V1 endpoint or host is
 * left, no marker stands where the scan proved the site, a second run
 * changes nothing, and files without V1 use keep every byte (also with CRLF
 * line endings and a BOM).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyChanges } from "../../src/fix/verify.js";
import { type FixedRepo, fixRepository } from "../helpers/scenario-fix.js";
import { readScenarioSpec, SCENARIOS_ROOT } from "../helpers/scenario-spec.js";
import { tempDir } from "../helpers/temp-repo.js";

const LANGUAGE_APPS = readdirSync(SCENARIOS_ROOT)
  .filter(
    (name) => !["typescript", "javascript", "python"].includes(readScenarioSpec(join(SCENARIOS_ROOT, name)).language),
  )
  .sort();

const V1_RULES = new Set(["legacy-base-url", "legacy-create-run", "legacy-get-run"]);

const HAS_JAVAC = spawnSync("javac", ["-version"]).status === 0;

/** Files of an app that hold no V1 use: no ComfyDeploy host and no /run path. */
function untouchedFiles(dir: string): string[] {
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{
      name: string;
      parentPath: string;
      isFile(): boolean;
    }>
  )
    .filter((entry) => entry.isFile() && entry.name !== "scenario.json")
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .filter((file) => !/comfydeploy\.com|\/run|run_id/.test(readFileSync(join(dir, file), "utf8")));
}

describe("the language scenario apps are there", () => {
  it("one for each raw-HTTP language fix rewrites", () => {
    const languages = LANGUAGE_APPS.map((name) => readScenarioSpec(join(SCENARIOS_ROOT, name)).language).sort();
    expect(languages).toEqual(["csharp", "dart", "go", "java", "kotlin", "php", "ruby", "shell"]);
  });
});

describe.each(LANGUAGE_APPS)("fix on the %s app", (name) => {
  let source: string;
  let fixed: FixedRepo;
  let plain: string[];
  beforeAll(async () => {
    // Every file with no V1 use is given CRLF endings and a BOM: fix must keep them byte for byte.
    source = tempDir("cdm-lang-scenario-");
    cpSync(join(SCENARIOS_ROOT, name), source, { recursive: true });
    plain = untouchedFiles(source);
    for (const file of plain)
      writeFileSync(join(source, file), `\uFEFF${readFileSync(join(source, file), "utf8").replace(/\n/g, "\r\n")}`);
    fixed = await fixRepository(source);
  }, 120_000);
  afterAll(() => fixed?.remove());

  it("leaves no V1 endpoint or host the scan reports", () => {
    const left = fixed.after.filter((f) => V1_RULES.has(f.ruleId)).map((f) => `${f.file}:${f.line} ${f.ruleId}`);
    expect(left).toEqual([]);
  });

  it("rewrites every site whose base, path and method the scan proved, without a marker", () => {
    const events = fixed.first.changes.flatMap((c) => c.events.map((e) => ({ ...e, file: c.file })));
    const marked = events.filter((e) => e.kind === "marker" && V1_RULES.has(e.ruleId));
    expect(marked.map((e) => `${e.file}:${e.line} ${e.message}`)).toEqual([]);
    // Each app creates a run and reads it back: both requests are found and rewritten.
    const rewritten = new Set(events.filter((e) => e.kind === "rewrite").map((e) => e.ruleId));
    expect([...rewritten].filter((rule) => V1_RULES.has(rule)).sort()).toEqual([...V1_RULES].sort());
  });

  it("leaves code its language's own checker accepts, where the checker is on this machine", async (ctx) => {
    const changed = fixed.first.changes.map((c) => c.file);
    const { checks, findings } = await verifyChanges(fixed.root, changed);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([]);
    if (!checks.some((c) => c.status === "passed"))
      ctx.skip(checks.map((c) => c.reason).join("; ") || "no checker for this language");
  });

  it.skipIf(!HAS_JAVAC || readScenarioSpec(join(SCENARIOS_ROOT, name)).language !== "java")(
    "compiles with javac after fix",
    () => {
      // javac refuses the BOM this test gave the files with no V1 use: it compiles copies without it.
      const out = tempDir("cdm-javac-");
      const sources = (readdirSync(fixed.root, { recursive: true }) as string[])
        .filter((f) => f.endsWith(".java"))
        .map((f) => {
          const copy = join(out, "src", f);
          mkdirSync(dirname(copy), { recursive: true });
          writeFileSync(copy, readFileSync(join(fixed.root, f), "utf8").replace(/^\uFEFF/, ""));
          return copy;
        });
      const result = spawnSync("javac", ["-d", join(out, "classes"), ...sources], { encoding: "utf8" });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
    },
  );

  it("reaches its fixed point in one run", () => {
    expect(fixed.second.changes.map((c) => c.file)).toEqual([]);
  });

  it("keeps the files with no V1 use byte-identical, CRLF and BOM included", () => {
    expect(plain.length).toBeGreaterThan(0);
    for (const file of plain)
      expect(readFileSync(join(fixed.root, file)), file).toEqual(readFileSync(join(source, file)));
  });
});
