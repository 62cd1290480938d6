/**
 * What v2-sdk produces compiles against the real V2 SDK types
 * (comfydeploy@2.0.0-beta.69 in node_modules, zod as its peer):
 * - every migrated TS fixture (fixtures/transforms/v2-sdk/*.output.ts|tsx),
 *   beside the compat module fix writes for them; errors may only sit in a
 *   statement a review marker stands above (that is the code a person still
 *   has to port), nowhere else, and the compat module has none;
 * - the whole demo app after `fix`, with its own tsconfig (paths `@/*`).
 * The demo app's other dependencies (react, axios) are not installed here:
 * minimal declarations stand in for them, nothing stands in for comfydeploy.
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKER_TAG } from "../../../src/core/marker.js";
import { sourceStyleOf } from "../../../transforms/lib/source-style.js";
import { COMPAT_MODULE_NAME } from "../../../transforms/v2-sdk/compat/template.js";
import { compatModuleSource } from "../../../transforms/v2-sdk/compat/writer.js";
import { type MigratedCopy, migratedDemoCopy, scratchDir } from "../../helpers/demo-copy.js";
import { DEMO_DEPENDENCY_DECLARATIONS, JSX_DECLARATIONS } from "../../helpers/stand-in-declarations.js";
import { type Diagnostic, formatDiagnostics, readTsconfig, typecheck } from "../../helpers/typecheck.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "fixtures", "transforms", "v2-sdk");

const FIXTURE_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  jsx: ts.JsxEmit.Preserve,
  skipLibCheck: true,
  esModuleInterop: true,
};

/**
 * The line ranges (1-based, inclusive) of the statements review markers stand
 * above: from the line after a marker to the end of the longest node starting
 * on it.
 */
function markedStatements(file: string, text: string): Array<[number, number]> {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const markers = text.split(/\r?\n/).flatMap((line, index) => (line.includes(MARKER_TAG) ? [index + 1] : []));
  return markers.map((marker) => {
    let end = marker + 1;
    const visit = (node: ts.Node): void => {
      if (lineOf(node.getStart(source)) === marker + 1) end = Math.max(end, lineOf(node.getEnd()));
      ts.forEachChild(node, visit);
    };
    visit(source);
    return [marker + 1, end];
  });
}
describe("migrated TS fixtures compile against comfydeploy@2.0.0-beta.69", () => {
  const outputs = readdirSync(FIXTURES).filter((f) => /\.output\.tsx?$/.test(f));
  let diagnostics: Diagnostic[] = [];
  let stubDir: string | undefined;

  beforeAll(async () => {
    stubDir = scratchDir("typecheck-");
    const jsx = join(stubDir, "jsx.d.ts");
    writeFileSync(jsx, JSX_DECLARATIONS);
    for (const name of outputs) copyFileSync(join(FIXTURES, name), join(stubDir, name));
    const compat = join(stubDir, `${COMPAT_MODULE_NAME}.ts`);
    writeFileSync(compat, await compatModuleSource("ts", compat, sourceStyleOf("")));
    diagnostics = typecheck([...outputs.map((f) => join(stubDir!, f)), jsx, compat], FIXTURE_OPTIONS);
  });

  afterAll(() => {
    if (stubDir) rmSync(stubDir, { recursive: true, force: true });
  });

  it("has TS fixtures to check", () => {
    expect(outputs.length).toBeGreaterThan(10);
  });

  it.each(outputs)("%s", (name) => {
    const file = join(stubDir!, name);
    const own = diagnostics.filter((d) => d.file === file);
    const marked = markedStatements(file, readFileSync(file, "utf8"));
    const unexpected = own.filter((d) => !marked.some(([from, to]) => d.line >= from && d.line <= to));
    expect(formatDiagnostics(unexpected)).toBe("");
  });

  it("reports nothing outside the fixtures", () => {
    const elsewhere = diagnostics.filter((d) => !outputs.some((name) => d.file === join(stubDir!, name)));
    expect(formatDiagnostics(elsewhere)).toBe("");
  });
});

describe("the demo app after fix", () => {
  let copy: MigratedCopy;

  beforeAll(async () => {
    copy = await migratedDemoCopy("typecheck-demo-");
  });

  afterAll(() => copy?.remove());

  it("no longer uses the V1 SDK; the one marker left says which env variable must name the V2 host", () => {
    const sdkFiles = ["src/lib/comfy.ts", "src/app/api/webhook/route.ts", "src/app/api/status/[id]/route.ts"];
    for (const file of sdkFiles) {
      const text = readFileSync(join(copy.root, file), "utf8");
      expect(text, file).not.toMatch(/ComfyDeployClient|\.getRun\(|from "comfydeploy"[^\n]*parseWebhookDataSafe/);
      const markers = text.split("\n").filter((line) => line.includes(MARKER_TAG));
      expect(markers, file).toHaveLength(file === "src/lib/comfy.ts" ? 1 : 0);
      if (markers[0]) expect(markers[0]).toContain("set COMFY_DEPLOY_API_BASE to https://api.comfydeploy.com");
    }
  });

  it("type-checks with zero diagnostics under its own tsconfig", () => {
    const declarations = join(copy.root, "stand-in-dependencies.d.ts");
    writeFileSync(declarations, DEMO_DEPENDENCY_DECLARATIONS);
    const { options, fileNames } = readTsconfig(join(copy.root, "tsconfig.json"));
    const diagnostics = typecheck([...fileNames, declarations], { ...options, types: ["node"] });
    expect(formatDiagnostics(diagnostics)).toBe("");
  });
});
