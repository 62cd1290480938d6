import { describe, expect, it } from "vitest";
import { terminalSafe, terminalSafeLine } from "../../src/core/terminal-safe.js";

describe("terminalSafe", () => {
  it("shows escape, bell, DEL, C1 and bidi overrides as escapes, and keeps text, tabs and newlines", () => {
    const hostile = "a\x1b]0;owned\x07b\x1b[2J\x7f\x9b\u202eevil\u2066ok\n\tnext";
    expect(terminalSafe(hostile)).toBe("a\\x1b]0;owned\\x07b\\x1b[2J\\x7f\\x9b\\u202eevil\\u2066ok\n\tnext");
    expect(terminalSafe("plain — ünïcode ✓")).toBe("plain — ünïcode ✓");
  });

  it("escapes newlines and carriage returns in a single line, such as a file name", () => {
    expect(terminalSafeLine("bad\nname\r.ts")).toBe("bad\\x0aname\\x0d.ts");
    expect(terminalSafeLine("tab\tstays")).toBe("tab\tstays");
  });
});
