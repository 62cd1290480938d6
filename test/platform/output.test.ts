import { describe, expect, it } from "vitest";
import { colorEnabled } from "../../src/platform/output.js";

describe("colorEnabled", () => {
  it("takes FORCE_COLOR=0 and FORCE_COLOR=false as off, as chalk and Node do", () => {
    expect(colorEnabled(undefined, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorEnabled(undefined, { FORCE_COLOR: "false" })).toBe(false);
  });

  it("lets --color and --no-color decide over the environment", () => {
    expect(colorEnabled(true, { FORCE_COLOR: "0" })).toBe(true);
    expect(colorEnabled(false, { FORCE_COLOR: "1" })).toBe(false);
  });
});
