/** Module syntax read from text: which files are pure barrels of re-exports, and what they pass on. */
import { describe, expect, it } from "vitest";
import { barrelSpecifiers } from "../../../src/lang/js/module-syntax.js";

describe("barrelSpecifiers", () => {
  it("reads a barrel of ESM re-exports with comments and directives", () => {
    const text = [
      '"use client";',
      "// GENERATED: do not edit",
      'export { default as AccountBookFilled } from "./AccountBookFilled";',
      "/* a block",
      "   comment */",
      "export * from './client';",
      'export * as icons from "./icons"',
      "export type { Options } from './types.js';",
      "export {",
      "  a,",
      "  b as c,",
      "} from '../shared';",
      "",
    ].join("\r\n");
    expect(barrelSpecifiers(text)).toEqual(["./AccountBookFilled", "./client", "./icons", "./types.js", "../shared"]);
  });

  it.each([
    ["an import", 'import { x } from "./x";\nexport { x };\n'],
    ["code beside re-exports", 'export * from "./client";\nexport const client = make();\n'],
    ["a CommonJS barrel (read by the parser)", 'module.exports = require("./client");\n'],
    ["a local export list", "export { a, b };\n"],
    ["an empty file", "// nothing here\n"],
    ["a string that only looks like a comment", 'export * from "./a";\nconst s = "/* x */";\n'],
  ])("is undefined for %s", (_name, text) => {
    expect(barrelSpecifiers(text)).toBeUndefined();
  });
});
