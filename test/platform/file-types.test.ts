import { describe, expect, it } from "vitest";
import { fileKind, fileTypeOf, isJsFile, markerSyntaxFor, textSyntaxOf } from "../../src/platform/file-types.js";
import { loadTypeScript, scriptKindOf } from "../../src/platform/typescript.js";

describe("the file-type table", () => {
  it.each([
    "main.tf",
    "vars.tfvars",
    "lib/app.dart",
    "deploy.ps1",
    "default.nix",
    "run.bat",
    "Containerfile.dev",
    "notes.adoc",
    "x.jsonc",
  ])("gives %s a marker syntax, since the scanner reads its comments", (file) => {
    expect(textSyntaxOf(file)).not.toBe("unknown");
    expect(markerSyntaxFor(file)).toBeDefined();
  });

  it("has no marker for JSON, which holds no comments", () => {
    expect(markerSyntaxFor("collection.postman_collection.json")).toBeUndefined();
    expect(markerSyntaxFor("package.json")).toBeUndefined();
  });

  it("parses every JS/TS extension one way, whoever asks", () => {
    const ts = loadTypeScript();
    expect(scriptKindOf("a.js", ts)).toBe(ts.ScriptKind.JS);
    expect(scriptKindOf("a.cjs", ts)).toBe(ts.ScriptKind.JS);
    expect(scriptKindOf("a.jsx", ts)).toBe(ts.ScriptKind.JSX);
    expect(scriptKindOf("a.mts", ts)).toBe(ts.ScriptKind.TS);
    expect(scriptKindOf("A.TSX", ts)).toBe(ts.ScriptKind.TSX);
    expect(fileTypeOf("a.mjs").dialect).toBe("js");
  });

  it("decides by name before extension", () => {
    expect(fileKind(".env.local")).toBe("env");
    expect(textSyntaxOf("api.Dockerfile")).toBe("hash");
    expect(markerSyntaxFor("Dockerfile.prod")).toEqual({ line: "#" });
    expect(isJsFile("next.config.mjs")).toBe(true);
    expect(fileKind("README.md")).toBe("docs");
  });
});
