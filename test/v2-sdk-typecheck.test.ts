/**
 * What v2-sdk produces compiles against the real V2 SDK types
 * (comfydeploy@2.0.0-beta.69 in node_modules, zod as its peer):
 * - every migrated TS fixture (fixtures/transforms/v2-sdk/*.output.ts|tsx);
 *   errors may only sit in a statement a review marker stands above (that is
 *   the code a person still has to port), nowhere else;
 * - the whole demo app after `fix`, with its own tsconfig (paths `@/*`).
 * The demo app's other dependencies (react, axios) are not installed here:
 * minimal declarations stand in for them, nothing stands in for comfydeploy.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKER_TAG } from "../src/core/marker.js";
import { type MigratedCopy, migratedDemoCopy, scratchDir } from "./helpers/demo-copy.js";
import { DEMO_DEPENDENCY_DECLARATIONS, JSX_DECLARATIONS } from "./helpers/stand-in-declarations.js";
import { type Diagnostic, formatDiagnostics, readTsconfig, typecheck } from "./helpers/typecheck.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transforms", "v2-sdk");

const FIXTURE_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
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
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
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

  beforeAll(() => {
    stubDir = scratchDir("typecheck-");
    const jsx = join(stubDir, "jsx.d.ts");
    writeFileSync(jsx, JSX_DECLARATIONS);
    diagnostics = typecheck([...outputs.map((f) => join(FIXTURES, f)), jsx], FIXTURE_OPTIONS);
  });

  afterAll(() => {
    if (stubDir) rmSync(stubDir, { recursive: true, force: true });
  });

  it("has TS fixtures to check", () => {
    expect(outputs.length).toBeGreaterThan(10);
  });

  it.each(outputs)("%s", (name) => {
    const file = join(FIXTURES, name);
    const own = diagnostics.filter((d) => d.file === file);
    const marked = markedStatements(file, readFileSync(file, "utf8"));
    const unexpected = own.filter((d) => !marked.some(([from, to]) => d.line >= from && d.line <= to));
    expect(formatDiagnostics(unexpected)).toBe("");
  });

  it("reports nothing outside the fixtures", () => {
    const elsewhere = diagnostics.filter((d) => !d.file.startsWith(FIXTURES) && !d.file.endsWith("jsx.d.ts"));
    expect(formatDiagnostics(elsewhere)).toBe("");
  });
});

describe("the demo app after fix", () => {
  let copy: MigratedCopy;

  beforeAll(async () => {
    copy = await migratedDemoCopy("typecheck-demo-");
  });

  afterAll(() => copy?.remove());

  it("no longer uses the V1 SDK and leaves no review marker in code", () => {
    const sdkFiles = ["src/lib/comfy.ts", "src/app/api/webhook/route.ts", "src/app/api/status/[id]/route.ts"];
    for (const file of sdkFiles) {
      const text = readFileSync(join(copy.root, file), "utf8");
      expect(text, file).not.toMatch(/ComfyDeployClient|parseWebhookDataSafe|\.getRun\(/);
      expect(text, file).not.toContain(MARKER_TAG);
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
