/** Config files as other tools write them (a UTF-8 BOM) and as no config is (5,000 levels deep): read, or refused as invalid config (exit 2). */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.js";
import { UsageError } from "../../src/core/errors.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const BOM = "\uFEFF";
const deepArray = `{ "exclude": ${"[".repeat(5000)}${"]".repeat(5000)} }\n`;
const deepObject = `{ "rules": ${'{"a":'.repeat(5000)}1${"}".repeat(5000)} }\n`;

describe("a config with a UTF-8 BOM", () => {
  it("is read, found or named, in its own file or in package.json", async () => {
    const own = tempRepo({ ".comfydeploy-migrate.json": `${BOM}{ "exclude": ["vendor/**"] }\n` });
    expect((await loadConfig(own)).config.exclude).toEqual(["vendor/**"]);
    expect((await loadConfig(own, join(own, ".comfydeploy-migrate.json"))).config.exclude).toEqual(["vendor/**"]);
    const pkg = tempRepo({
      "package.json": `${BOM}{ "name": "x", "comfydeploy-migrate": { "exclude": ["dist/**"] } }\n`,
    });
    expect((await loadConfig(pkg)).config.exclude).toEqual(["dist/**"]);
  });
});

describe("a config nested 5,000 levels deep", () => {
  for (const [shape, text] of [
    ["array", deepArray],
    ["object", deepObject],
  ] as const) {
    it(`(${shape}) is an invalid config naming the file, not a crash`, async () => {
      const dir = tempRepo({ ".comfydeploy-migrate.json": text });
      await expect(loadConfig(dir)).rejects.toThrow(UsageError);
      // Where the parser's stack holds, the schema names the first bad value; where it does not, the depth.
      await expect(loadConfig(dir)).rejects.toThrow(
        /\.comfydeploy-migrate\.json: (?:not a valid config: nested too deeply|")/,
      );
    });
  }

  it("scan exits 2 with one line, no stack trace", () => {
    const dir = tempRepo({ "deep.json": deepArray, "app.ts": "export {};\n" });
    const result = runCli(["scan", dir, "--config", join(dir, "deep.json")]);
    expect(result.status).toBe(2);
    expect(result.stderr.split("\n")[0]).toMatch(/deep\.json: not a valid config: nested too deeply$/);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});
