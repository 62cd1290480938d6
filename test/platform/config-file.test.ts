/**
 * The config file: where it is found (lilconfig, up to the repository root),
 * JSON with comments, validation errors that name the key, per-rule settings,
 * and the published JSON Schema kept in step with the zod schema.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { hostSetFor, loadConfig } from "../../src/platform/config.js";
import { configJsonSchema, validateConfig } from "../../src/platform/config-schema.js";
import { UsageError } from "../../src/core/errors.js";
import { scan } from "../../src/scan/engine.js";
import { runCli } from "../helpers/cli.js";

const SCHEMA_FILE = join(import.meta.dirname, "..", "..", "schema", "config.schema.json");
const V1 = 'export const A = "https://www.comfydeploy.com/api";\n';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "cdm-config-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

async function configError(root: string, explicit?: string): Promise<string> {
  const error = await loadConfig(root, explicit).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

describe("finding the config file", () => {
  it("reads JSON with comments and trailing commas from .comfydeploy-migrate.jsonc", async () => {
    const dir = tree({
      ".comfydeploy-migrate.jsonc":
        '{\n  // our gateway\n  "legacyHosts": ["https://comfy.internal.example/api",],\n}\n',
    });
    const { config, source } = await loadConfig(dir);
    expect(config.legacyHosts).toEqual(["comfy.internal.example"]);
    expect(source).toBe(join(dir, ".comfydeploy-migrate.jsonc"));
  });

  it("searches from the scanned directory up to the repository root, and no further", async () => {
    const outer = tree({
      ".comfydeploy-migrate.json": '{ "failOn": "info" }',
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/.comfydeploy-migrate.json": '{ "failOn": "warning" }',
      "repo/packages/web/src/a.ts": V1,
      "other/.git/HEAD": "ref: refs/heads/main\n",
      "other/packages/api/a.ts": V1,
    });
    expect((await loadConfig(join(outer, "repo/packages/web"))).config.failOn).toBe("warning");
    // The outer directory's config lies above the other repository's root.
    expect((await loadConfig(join(outer, "other/packages/api"))).config.failOn).toBeUndefined();
  });

  it("outside git, reads only the scanned directory", async () => {
    const outer = tree({ ".comfydeploy-migrate.json": '{ "failOn": "info" }', "sub/a.ts": V1 });
    expect((await loadConfig(join(outer, "sub"))).config.failOn).toBeUndefined();
  });

  it("reads a comfydeploy-migrate key in package.json, and the older comfydeploy-migrate.config.json", async () => {
    const pkg = tree({
      "package.json": JSON.stringify({ name: "app", "comfydeploy-migrate": { exclude: ["docs/**"] } }),
    });
    expect((await loadConfig(pkg)).config.exclude).toEqual(["docs/**"]);
    const older = tree({ "comfydeploy-migrate.config.json": '{ "include": ["src/**"] }' });
    expect((await loadConfig(older)).config.include).toEqual(["src/**"]);
  });

  it("a broken package.json is not a config error (the scanner reports it)", async () => {
    const dir = tree({ "package.json": "{ nope" });
    expect((await loadConfig(dir)).config).toMatchObject({ legacyHosts: [], rules: {} });
  });
});

describe("config errors are one line that names the key, exit 2", () => {
  it.each([
    ['{ "legacyHost": ["x.example"] }', 'unknown key "legacyHost" (did you mean "legacyHosts"?)'],
    [
      '{ "rules": { "legacy-base-ur": "off" } }',
      'unknown key "rules.legacy-base-ur" (did you mean "legacy-base-url"?)',
    ],
    [
      '{ "rules": { "legacy-base-url": "warn" } }',
      '"rules.legacy-base-url" must be one of off, error, warning, info, not "warn"',
    ],
    [
      '{ "rules": { "legacy-base-url": { "severty": "info" } } }',
      'unknown key "rules.legacy-base-url.severty" (did you mean "severity"?)',
    ],
    ['{ "rules": { "legacy-base-url": { "paths": "src/**" } } }', '"rules.legacy-base-url.paths" must be an array'],
    ['{ "rules": { "legacy-base-url": 3 } }', '"rules.legacy-base-url" must be "off", a severity'],
    [
      '{ "failOn": "warnings" }',
      '"failOn" must be one of error, warning, info, none, not "warnings" (did you mean "warning"?)',
    ],
    ['{ "legacyHosts": ["not a host"] }', '"legacyHosts[0]" is not a host name'],
    ["[]", '"(top level)" must be an object'],
  ])("%s", async (text, message) => {
    const dir = tree({ ".comfydeploy-migrate.json": text });
    const error = await configError(dir);
    expect(error).toContain(`.comfydeploy-migrate.json: ${message}`);
    expect(error).not.toContain("\n");
  });

  it("a JSON syntax error gives the line and column", async () => {
    const dir = tree({ ".comfydeploy-migrate.jsonc": '{\n  "failOn": "error"\n  "include": []\n}\n' });
    expect(await configError(dir)).toMatch(/\.comfydeploy-migrate\.jsonc:3:3: not valid JSON: CommaExpected$/);
  });

  it("--config names a file that must exist", async () => {
    expect(await configError(tree({}), "/nonexistent/cdm.json")).toBe("config file not found: /nonexistent/cdm.json");
  });
});

describe("per-rule settings", () => {
  async function rulesOf(config: string, files: Record<string, string>): Promise<Array<[string, string, string]>> {
    const dir = tree({ ".comfydeploy-migrate.json": config, ...files });
    const { config: loaded } = await loadConfig(dir);
    const result = await scan({ root: dir, hosts: hostSetFor(loaded), rules: loaded.rules, workers: false });
    return result.findings.map((f) => [f.file, f.ruleId, f.severity]);
  }
  const files = { "src/a.ts": 'fetch("https://www.comfydeploy.com/api/run?run_id=" + id);\n', "docs/b.ts": V1 };

  it("off drops a rule, a severity replaces the rule's own", async () => {
    expect(await rulesOf('{ "rules": { "legacy-get-run": "off", "legacy-base-url": "info" } }', files)).toEqual([
      ["docs/b.ts", "legacy-base-url", "info"],
      ["src/a.ts", "legacy-base-url", "info"],
    ]);
    expect(await rulesOf('{ "rules": { "legacy-base-url": { "off": true, "severity": "error" } } }', files)).toEqual([
      ["src/a.ts", "legacy-get-run", "error"],
    ]);
  });

  it("paths limit a rule to some files; !glob excludes", async () => {
    expect(await rulesOf('{ "rules": { "legacy-base-url": { "paths": ["src/**"] } } }', files)).toEqual([
      ["src/a.ts", "legacy-base-url", "error"],
      ["src/a.ts", "legacy-get-run", "error"],
    ]);
    expect(
      await rulesOf('{ "rules": { "legacy-base-url": { "paths": ["!docs/**"], "severity": "warning" } } }', files),
    ).toEqual([
      ["src/a.ts", "legacy-base-url", "warning"],
      ["src/a.ts", "legacy-get-run", "error"],
    ]);
  });

  it("fix and report read them too: a rule turned off is neither rewritten nor counted", () => {
    const dir = tree({ ".comfydeploy-migrate.json": '{ "rules": { "legacy-base-url": "off" } }', "src/a.ts": V1 });
    const fix = runCli(["fix", dir, "--dry-run"]);
    expect(fix.status).toBe(0);
    expect(fix.stdout).toContain("would change 0 files");
    const report = JSON.parse(runCli(["report", dir, "--format", "json"]).stdout);
    expect(report.findings).toBe(0);
  });

  it("config files are never scanned, wherever they are", async () => {
    const dir = tree({
      "pkg/.comfydeploy-migrate.jsonc": '{ "legacyHosts": ["https://www.comfydeploy.com/api"] }',
      "src/a.ts": V1,
    });
    const result = await scan({ root: dir, hosts: hostSetFor((await loadConfig(dir)).config), workers: false });
    expect(result.findings.map((f) => f.file)).toEqual(["src/a.ts"]);
  });
});

describe("the published config schema", () => {
  it("schema/config.schema.json is generated from the zod schema (UPDATE_SCHEMAS=1 to rewrite)", () => {
    const expected = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_SCHEMAS === "1") writeFileSync(SCHEMA_FILE, expected);
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(expected);
  });

  it("agrees with the CLI's validation", () => {
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
    const good = [
      {},
      {
        $schema: "./node_modules/comfydeploy-migrate/schema/config.schema.json",
        legacyHosts: ["a.example"],
        failOn: "warning",
      },
      {
        rules: {
          "legacy-base-url": "off",
          "worker-image": { severity: "info", paths: ["docker/**", "!docker/old/**"] },
        },
        reportUnusedIgnores: true,
      },
    ];
    const bad = [
      { legacyHost: [] },
      { rules: { nope: "off" } },
      { rules: { "worker-image": "loud" } },
      { rules: { "worker-image": { paths: "x" } } },
      { failOn: 1 },
    ];
    for (const value of good) {
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      expect(validateConfig(value).ok).toBe(true);
    }
    for (const value of bad) {
      expect(validate(value), JSON.stringify(value)).toBe(false);
      expect(validateConfig(value).ok, JSON.stringify(value)).toBe(false);
    }
  });
});
