/**
 * How a file imports a module fix adds (the V1 compat module): the specifier
 * follows the file's module system and its own relative imports, so the
 * migrated app still starts. The Node ESM scenario is migrated and run with
 * `node`, a stub V2 SDK standing in for the real one.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SupportModules } from "../../src/fix/support-modules.js";
import { COMPAT_MODULE } from "../../transforms/v2-sdk/compat/module.js";
import { type FixedRepo, fixRepository } from "../helpers/scenario-fix.js";
import { SCENARIOS_ROOT } from "../helpers/scenario-spec.js";
import { tempRepo } from "../helpers/temp-repo.js";

const ESM = `import { ComfyDeployClient } from "comfydeploy";\n`;

function importOf(files: Record<string, string>, file: string) {
  const root = tempRepo(files);
  return new SupportModules(root, new Map()).use(COMPAT_MODULE, file);
}

describe("the specifier of an added module", () => {
  it("carries .js in a package of type module when the file has no relative imports", () => {
    expect(importOf({ "package.json": `{"type":"module"}`, "src/comfy.js": ESM }, "src/comfy.js")).toEqual({
      specifier: "./comfydeploy-v1-compat.js",
      syntax: "esm",
    });
  });

  it("follows the file's own relative imports", () => {
    const files = { "package.json": `{"type":"module"}`, "src/comfy.js": `${ESM}import { x } from "./config";\n` };
    expect(importOf(files, "src/comfy.js").specifier).toBe("./comfydeploy-v1-compat");
  });

  it("has none where Node does not run the file as an ES module", () => {
    expect(importOf({ "package.json": `{}`, "src/comfy.js": ESM }, "src/comfy.js").specifier).toBe(
      "./comfydeploy-v1-compat",
    );
  });

  it("has none in a TypeScript project that resolves as a bundler", () => {
    const files = {
      "package.json": `{"type":"module"}`,
      "tsconfig.json": `{ "compilerOptions": { "moduleResolution": "bundler" } }`,
      "src/comfy.ts": ESM,
    };
    expect(importOf(files, "src/comfy.ts").specifier).toBe("./comfydeploy-v1-compat");
  });

  it("takes the runtime extension of .mts and .cjs files", () => {
    expect(importOf({ "package.json": `{}`, "src/comfy.mts": ESM }, "src/comfy.mts").specifier).toBe(
      "./comfydeploy-v1-compat.mjs",
    );
    const cjs = importOf(
      {
        "package.json": `{"type":"module"}`,
        "src/comfy.cjs": `const { ComfyDeployClient } = require("comfydeploy");\n`,
      },
      "src/comfy.cjs",
    );
    expect(cjs).toEqual({ specifier: "./comfydeploy-v1-compat.cjs", syntax: "cjs" });
  });
});

describe("a Node ES module app after fix", () => {
  let fixed: FixedRepo;
  beforeAll(async () => {
    fixed = await fixRepository(join(SCENARIOS_ROOT, "node-esm-v1-sdk"));
    // A stub V2 SDK: loading the app needs the class, not the network.
    const sdk = join(fixed.root, "node_modules", "comfydeploy");
    mkdirSync(sdk, { recursive: true });
    writeFileSync(
      join(sdk, "package.json"),
      JSON.stringify({ name: "comfydeploy", type: "module", exports: "./index.js" }),
    );
    writeFileSync(
      join(sdk, "index.js"),
      "export class ComfyDeploy {\n  constructor(options) {\n    this.options = options;\n  }\n}\n",
    );
  }, 120_000);
  afterAll(() => fixed?.remove());

  it("imports the compat module with the extension Node's ESM resolution needs", () => {
    expect(readFileSync(join(fixed.root, "src", "comfy.js"), "utf8")).toMatch(/from "\.\/comfydeploy-v1-compat\.js";/);
  });

  it("loads with node", () => {
    const script = `const m = await import("./src/comfy.js"); await import("./src/index.js"); console.log(Object.keys(m).sort().join(","));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fixed.root,
      encoding: "utf8",
    });
    expect(out.trim()).toBe("queueRender,renderStatus");
  });
});

describe("the compat module fix adds", () => {
  let fixed: FixedRepo;
  beforeAll(async () => {
    fixed = await fixRepository(join(SCENARIOS_ROOT, "node-esm-v1-sdk"));
  }, 120_000);
  afterAll(() => fixed?.remove());

  it("holds what the app's files take from it, and not the rest of V1", () => {
    const app = readFileSync(join(fixed.root, "src", "comfy.js"), "utf8");
    const module = readFileSync(join(fixed.root, "src", "comfydeploy-v1-compat.js"), "utf8");
    const exported = new Set(
      [...module.matchAll(/^export (?:async function|function|const) (\w+)/gm)].map((m) => m[1]!),
    );
    for (const [, name] of app.matchAll(/\bv1Compat\.(\w+)/g)) expect(exported).toContain(name);
    for (const unused of [
      "runSync",
      "getRun",
      "parseWebhookDataSafe",
      "getUploadUrl",
      "getWebsocketUrl",
      "optionsFromV1",
      "apiBaseOf",
    ]) {
      expect(exported).not.toContain(unused);
    }
  });
});
