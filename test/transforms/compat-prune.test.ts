/**
 * The compat module sized to its use: only the exports a package's files
 * name, what those need, the imports left in use and the header items that
 * describe them; each cut still type-checks under the strictest settings.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { COMPAT_TEMPLATE } from "../../transforms/v2-sdk/compat/template.js";
import { pruneTemplate } from "../../transforms/v2-sdk/compat/prune.js";
import { scratchDir } from "../helpers/demo-copy.js";
import { formatDiagnostics, typecheck } from "../helpers/typecheck.js";

const STRICTEST: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  verbatimModuleSyntax: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: [],
};

const exportsOf = (source: string): string[] =>
  [...source.matchAll(/^export (?:async function|function|const|interface|type) (\w+)/gm)].map((m) => m[1]!).sort();

describe("pruneTemplate", () => {
  it("keeps everything when what is used is not known", () => {
    expect(pruneTemplate(COMPAT_TEMPLATE, undefined)).toBe(COMPAT_TEMPLATE);
  });

  it("keeps one function with no dependencies and no import it does not need", () => {
    const pruned = pruneTemplate(COMPAT_TEMPLATE, new Set(["serverUrlFromApiBase"]));
    expect(exportsOf(pruned)).toEqual(["serverUrlFromApiBase"]);
    expect(pruned).not.toMatch(/^import /m);
    expect(pruned).toMatch(/^ \* - serverUrlFromApiBase: /m);
    expect(pruned).not.toMatch(/^ \* - (runSync|parseWebhookDataSafe|apiBaseOf)/m);
    expect(pruned.split("\n").length).toBeLessThan(COMPAT_TEMPLATE.split("\n").length / 4);
  });

  it("follows what a kept export needs: runSync takes run, getRun and their types", () => {
    const pruned = pruneTemplate(COMPAT_TEMPLATE, new Set(["runSync"]));
    expect(exportsOf(pruned)).toEqual(
      ["OutputFileType", "V1Run", "V1RunOutputs", "V1RunRequest", "getRun", "run", "runSync", "toV1RunOutputs"].sort(),
    );
    expect(pruned).not.toContain("parseWebhookDataSafe");
  });

  it.each([
    ["serverUrlFromApiBase"],
    ["runSync"],
    ["toV1RunOutputs", "V1Client"],
    ["parseWebhookDataSafe"],
    ["apiBaseOf", "getUploadUrl"],
  ])("type-checks when %s is what is used", (...used) => {
    const file = join(scratchDir("compat-prune-"), "compat.ts");
    writeFileSync(file, pruneTemplate(COMPAT_TEMPLATE, new Set(used)));
    expect(formatDiagnostics(typecheck([file], STRICTEST))).toBe("");
  });
});
