/** The code inside f-strings, tokenized field by field. */
import { describe, expect, it } from "vitest";
import { fStringFields } from "../../../src/lang/python/fstring-fields.js";
import { tokenizePython } from "../../../src/lang/python/tokens.js";

function fields(source: string): string[] {
  return fStringFields(source, tokenizePython(source).tokens).map((field) => field.map((t) => t.value).join(" "));
}

describe("fStringFields", () => {
  it("tokenizes each replacement field with file offsets", () => {
    const source = `x = f"{res.object.live_status} and {n!r}"`;
    const [first] = fStringFields(source, tokenizePython(source).tokens);
    expect(first!.map((t) => t.value)).toEqual(["res", ".", "object", ".", "live_status"]);
    expect(source.slice(first![2]!.start, first![2]!.end)).toBe("object");
    expect(fields(source)).toEqual(["res . object . live_status", "n ! r"]);
  });

  it("reads fields inside format specs and nested f-strings, and skips literal braces and plain strings", () => {
    expect(fields(`f"{{x}} {v:>{res.object.progress}} {f'{inner.object}'}" + "{plain.object}"`)).toEqual([
      "v : > { res . object . progress }",
      "f'{inner.object}'",
      "inner . object",
    ]);
  });
});
