/** The fix machinery shared by every transform: text shape, markers, validation, node refs, review-marker findings. */
import { describe, expect, it } from "vitest";
import { markerText } from "../../src/core/marker.js";
import { insertMarkerAbove } from "../../transforms/lib/line-markers.js";
import { nodeRefTarget } from "../../transforms/node-pin/target.js";
import { normalize, restore } from "../../src/fix/runner.js";
import { parseError } from "../../src/fix/validate.js";
import { findReviewMarkers } from "../../src/scan/review-markers.js";

describe("text shape", () => {
  it.each([
    ["LF", "a\nb\n"],
    ["CRLF", "a\r\nb\r\n"],
    ["BOM + CRLF", "\ufeffa\r\nb\r\n"],
    ["no final newline", "a\nb"],
  ])("round-trips %s", (_name, raw) => {
    const { text, shape } = normalize(raw);
    expect(text).not.toContain("\r");
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(restore(text, shape)).toBe(raw);
  });

  it("puts CRLF back on lines a transform added", () => {
    const { text, shape } = normalize("a\r\nb\r\n");
    expect(restore(text.replace("b", "x\ny"), shape)).toBe("a\r\nx\r\ny\r\n");
  });
});

describe("markers", () => {
  it("are added once, above the line, with its indentation and the file's comment syntax", () => {
    const py = "def f():\n    requests.post(URL)\n";
    const once = insertMarkerAbove(py, 2, "client.py", "legacy-create-run", "check the method");
    expect(once.added).toBe(true);
    expect(once.text).toBe(
      `def f():\n    # ${markerText("legacy-create-run", "check the method")}\n    requests.post(URL)\n`,
    );
    const twice = insertMarkerAbove(once.text, 3, "client.py", "legacy-create-run", "check the method");
    expect(twice).toEqual({ text: once.text, added: false });
  });

  it.each([
    ["main.go", "// TODO(comfydeploy-migrate)"],
    ["Dockerfile", "# TODO(comfydeploy-migrate)"],
    ["README.md", "<!-- TODO(comfydeploy-migrate)"],
    [".env.production", "# TODO(comfydeploy-migrate)"],
    // Files the scanner reads comments in take markers too.
    ["main.tf", "// TODO(comfydeploy-migrate)"],
    ["lib/client.dart", "// TODO(comfydeploy-migrate)"],
    ["deploy.ps1", "# TODO(comfydeploy-migrate)"],
    ["default.nix", "# TODO(comfydeploy-migrate)"],
    ["queue.bat", "REM TODO(comfydeploy-migrate)"],
    ["schema.sql", "-- TODO(comfydeploy-migrate)"],
    ["docs/index.rst", ".. TODO(comfydeploy-migrate)"],
  ])("use the comment syntax of %s", (file, start) => {
    expect(insertMarkerAbove("x\n", 1, file, "legacy-base-url", "do it").text.startsWith(start)).toBe(true);
  });

  it("cannot go into JSON, which has no comments", () => {
    expect(insertMarkerAbove('{"a": 1}\n', 1, "collection.json", "legacy-base-url", "x")).toEqual({
      text: '{"a": 1}\n',
      added: false,
    });
  });

  it("are reported by scan as review-marker findings, in any comment syntax", () => {
    const text = `x = 1\n  # ${markerText("v1-sdk-call", "runSync has no V2 equivalent")}\n/* ${markerText("legacy-get-run", "move the id")} */\n`;
    const findings = findReviewMarkers("a.py", text);
    expect(findings.map((f) => [f.line, f.ruleId, f.severity])).toEqual([
      [2, "review-marker", "warning"],
      [3, "review-marker", "warning"],
    ]);
    expect(findings[0]!.message).toBe("Review marker left by fix: v1-sdk-call: runSync has no V2 equivalent");
    expect(findings[1]!.message).toBe("Review marker left by fix: legacy-get-run: move the id");
  });
});

describe("output validation", () => {
  it.each([
    ["a.ts", "const x = ;", true],
    ["a.ts", "const x = 1;", false],
    ["a.tsx", "const x = <div>{1}</div>;", false],
    ["package.json", '{ "a": 1, }', true],
    ["package.json", '{ "a": 1 }', false],
    ["ci.yml", "a: [1, 2", true],
    ["pyproject.toml", "[project\nname = 1", true],
    ["Dockerfile", "anything goes", false],
  ])("%s %j fails to parse: %s", (file, text, fails) => {
    expect(parseError(file, text) !== undefined).toBe(fails);
  });
});

describe("--node-ref", () => {
  it("defaults to v2.1.0 and accepts later tags or their commits", () => {
    expect(nodeRefTarget(undefined)).toEqual({
      commit: "62f8e388bb5217bb0472cb14bd7bf2d417225017",
      tag: "v2.1.0",
      version: "2.1.0",
    });
    expect(nodeRefTarget("2.3.3").commit).toBe("7d65d23f84d7ec3e9772d00f62146cbe36e3d267");
    expect(nodeRefTarget("98c1aca606b18ec945baabc820a436583cee4e6a").tag).toBe("v2.3.10");
  });

  it("refuses refs older than v2.1.0 or not in the tag table", () => {
    expect(() => nodeRefTarget("v2.0.0")).toThrow(/older than v2.1.0/);
    expect(() => nodeRefTarget("main")).toThrow(/not in the tag table/);
  });
});
