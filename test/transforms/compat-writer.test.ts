/**
 * The compat module is written in the importing file's style by the tool
 * itself: a package's Prettier config (JavaScript that would run) is never
 * loaded, and the output still parses in every flavour.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import type { SourceStyle } from "../../transforms/lib/source-style.js";
import { compatModuleSource } from "../../transforms/v2-sdk/compat/writer.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const SPY = (marker: string) =>
  `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "loaded");\nmodule.exports = { semi: true };\n`;

const codeLines = (source: string) =>
  source.split("\n").filter((l) => l.trim() !== "" && !/^\s*(\/\*|\*|\/\/)/.test(l));

function syntaxErrors(source: string, fileName: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  return ((file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics ?? []).map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  );
}

describe("compatModuleSource", () => {
  const flavours = [
    ["ts", "compat.ts"],
    ["esm", "compat.mjs"],
    ["cjs", "compat.cjs"],
  ] as const;

  it("never loads the package's prettier.config.cjs", async () => {
    const marker = join(tempDir("cdm-spy-"), "prettier-loaded");
    const dir = tempRepo({ "prettier.config.cjs": SPY(marker), ".prettierrc.js": SPY(marker), "package.json": "{}" });
    for (const [flavour, name] of flavours)
      await compatModuleSource(flavour, join(dir, name), {
        quote: "double",
        semicolons: true,
        indent: "  ",
        trailingComma: true,
      });
    expect(existsSync(marker)).toBe(false);
  });

  it.each(flavours)("writes %s in the importing file's style, and it parses", async (flavour, name) => {
    const style: SourceStyle = { quote: "single", semicolons: false, indent: "\t", trailingComma: false };
    const source = await compatModuleSource(flavour, join(tempDir(), name), style);
    const code = codeLines(source);
    expect(code.filter((l) => l.trimEnd().endsWith(";"))).toEqual([]);
    expect(code.filter((l) => /"[^"']*"/.test(l))).toEqual([]);
    expect(code.filter((l) => /^ +\S/.test(l))).toEqual([]);
    expect(code.some((l) => l.startsWith("\t"))).toBe(true);
    expect(source).not.toMatch(/,\n\s*[}\])]/);
    expect(syntaxErrors(source, name)).toEqual([]);
  });

  it("keeps the template's own style for a file written that way", async () => {
    const style: SourceStyle = { quote: "double", semicolons: true, indent: "    ", trailingComma: true };
    const source = await compatModuleSource("ts", join(tempDir(), "compat.ts"), style);
    expect(codeLines(source).filter((l) => /^( {4})* {1,3}\S/.test(l))).toEqual([]);
    expect(source).toMatch(/^ {4}\S/m);
    expect(syntaxErrors(source, "compat.ts")).toEqual([]);
  });
});
