/** "Did you mean": edit distance, the nearest spelling, and yargs messages made one helpful line. */
import { invocation } from "../../src/platform/command-line.js";
import { describe, expect, it } from "vitest";
import { closest, editDistance } from "../../src/platform/did-you-mean.js";
import { explainYargsFailure, type KnownOptions, TOP_LEVEL_OPTIONS } from "../../src/commands/usage-message.js";
import { toolCommand } from "../../src/commands/next-step.js";

const SCAN: KnownOptions = {
  keys: ["help", "color", "format", "fail-on", "quiet"],
  aliases: { format: ["f"], quiet: ["q"] },
  booleans: ["help", "color", "quiet"],
  numbers: [],
};
const COMMANDS = ["scan", "fix", "check", "report", "pr", "campaign", "serve"];

describe("edit distance", () => {
  it("counts insertions, deletions, substitutions, and a swap of neighbours as one", () => {
    expect(editDistance("format", "format")).toBe(0);
    expect(editDistance("formt", "format")).toBe(1);
    expect(editDistance("fromat", "format")).toBe(1);
    expect(editDistance("sarif", "json")).toBe(5);
  });

  it("suggests only what is near enough to be a typo", () => {
    expect(closest("formt", ["format", "fail-on"])).toBe("format");
    expect(closest("qiet", ["quiet", "help"])).toBe("quiet");
    expect(closest("xyz", ["format", "fail-on"])).toBeUndefined();
    expect(closest("o", ["on", "of"])).toBe("on");
  });
});

describe("yargs failures", () => {
  it.each([
    ["Unknown argument: formt", ["scan", "--formt"], "Unknown argument: formt (--formt: did you mean --format?)"],
    ["Unknown arguments: dry-rn, dryRn", ["fix", "--dry-rn"], "Unknown argument: dry-rn"],
    ["Unknown argument: colr", ["scan", "--no-colr"], "Unknown argument: colr (--no-colr: did you mean --no-color?)"],
    ["Unknown argument: zzz", ["scan", "zzz"], "Unknown argument: zzz"],
    ["Did you mean scan?", ["scna"], "Unknown command: scna (did you mean scan?)"],
    [
      'Invalid values:\n  Argument: format, Given: "jsn", Choices: "text", "json"',
      ["scan", "-f", "jsn"],
      'Invalid values: Argument: format, Given: "jsn", Choices: "text", "json" (did you mean json?)',
    ],
    ["Missing required argument: x\nmore", ["scan"], "Missing required argument: x more"],
  ])("%j", (message, argv, expected) => {
    expect(explainYargsFailure(message, SCAN, COMMANDS, argv)).toBe(expected);
  });

  it("a mistyped tool option before any command is named, not reported as a missing command", () => {
    expect(explainYargsFailure("Name a command; see --help.", TOP_LEVEL_OPTIONS, COMMANDS, ["--verison"])).toBe(
      "Unknown argument: verison (--verison: did you mean --version?)",
    );
    expect(explainYargsFailure("Name a command; see --help.", TOP_LEVEL_OPTIONS, COMMANDS, [])).toBe(
      "Name a command; see --help.",
    );
  });
});

describe("next steps", () => {
  it("quote each path, and leave out the current directory", () => {
    const tool = invocation();
    expect(toolCommand("scan", ["src/a.ts", "my lib"], "--rule review-marker")).toBe(
      `${tool} scan src/a.ts 'my lib' --rule review-marker`,
    );
    expect(toolCommand("fix", ".", "--dry-run")).toBe(`${tool} fix --dry-run`);
    expect(toolCommand("fix", "it's")).toBe(`${tool} fix 'it'\\''s'`);
  });
});
