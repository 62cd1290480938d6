/** What the AST codemods refuse up front: long lines, deep brackets, long operator chains. */
import { describe, expect, it } from "vitest";
import { astLimitProblem, MAX_OPERATOR_CHAIN } from "../../../transforms/lib/ast-limits.js";

const chain = (n: number, operator: string): string =>
  `export const long =\n  ${Array.from({ length: n }, (_, i) => `"p${i}"`).join(` ${operator}\n  `)};\n`;

describe("astLimitProblem", () => {
  it("refuses a statement chaining more operators than the parsers can follow, every time", () => {
    for (const operator of ["+", "&&", "||", "??"])
      expect(astLimitProblem(chain(MAX_OPERATOR_CHAIN + 2, operator))).toMatch(/operators, longer than the parser/);
  });

  it("takes long files of short statements, and operators that do not chain", () => {
    const statements = Array.from({ length: 3000 }, (_, i) => `total += a${i} + b${i};\ni++;\nx ??= y || z;`);
    expect(astLimitProblem(statements.join("\n"))).toBeUndefined();
    expect(astLimitProblem(chain(MAX_OPERATOR_CHAIN - 1, "+"))).toBeUndefined();
    expect(astLimitProblem(`const s = "${"+".repeat(5000)}";\n// ${"&&".repeat(3000)}\n`)).toBeUndefined();
  });
});
