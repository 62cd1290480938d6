/**
 * The scenario apps (fixtures/scenarios/) are what they claim to be, so that
 * tests of `fix` on them prove something:
 * - each scenario.json is valid and names modules and environment variables
 *   the app really has;
 * - an app described as on the V1 SDK imports it and declares a V1 version;
 *   the others never import it (next-unused-dep still declares it);
 * - every TypeScript app compiles, strict, against the V1 SDK (0.0.19) with
 *   zero diagnostics; against the V2 SDK (2.0.0-beta.69) an app on the V1
 *   SDK fails at each V1 name it imports, and an app without it still compiles;
 * - the JavaScript apps pass `node --check`, the Python app `py_compile`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { JS_SDK, PYTHON_SDK, V1_SDK_EXPORTS } from "../../src/knowledge/migration.js";
import { scratchDir } from "../helpers/demo-copy.js";
import { listScenarios } from "../helpers/scenario-spec.js";
import { appRelative, sdkImportsOf, typecheckScenario } from "../helpers/scenario-typecheck.js";
import { formatDiagnostics } from "../helpers/typecheck.js";

const scenarios = listScenarios();
const typescript = scenarios.filter((s) => s.spec.language === "typescript");
const javascript = scenarios.filter((s) => s.spec.language === "javascript");
const python = scenarios.filter((s) => s.spec.language === "python");
const PYTHON3 = spawnSync("python3", ["--version"]).status === 0;

/** The comfydeploy range an app's package.json declares, if any. */
function declaredSdkRange(dir: string): string | undefined {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  return manifest.dependencies?.[JS_SDK.packageName] ?? manifest.devDependencies?.[JS_SDK.packageName];
}

describe("scenario descriptions", () => {
  it("has the six SDK scenario apps and the eight raw-HTTP language apps", () => {
    expect(scenarios.map((s) => s.name)).toEqual([
      "csharp-client",
      "dart-client",
      "discord-bot-cjs",
      "go-client",
      "gradio-python",
      "java-client",
      "kotlin-client",
      "next-unused-dep",
      "next-v1-sdk",
      "node-esm-v1-sdk",
      "php-connector",
      "ruby-client",
      "shell-scripts",
      "vendored-client",
    ]);
  });

  it.each(scenarios)("$name: server modules, contract modules and env variables exist in the app", ({ dir, spec }) => {
    const modules = new Set([...spec.serverModules, ...spec.contract.map((step) => step.module)]);
    for (const module of modules) expect(existsSync(join(dir, module)), module).toBe(true);
    for (const step of spec.contract)
      expect(spec.serverModules, `${step.call} lives in a server module`).toContain(step.module);
    const envExample = readFileSync(join(dir, ".env.example"), "utf8");
    for (const name of Object.keys(spec.env)) expect(envExample, name).toMatch(new RegExp(`^${name}=`, "m"));
    expect(existsSync(join(dir, "README.md"))).toBe(true);
  });

  it.each(typescript)("$name: its tsconfig is strict", ({ dir }) => {
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as {
      compilerOptions: { strict?: boolean };
    };
    expect(config.compilerOptions.strict).toBe(true);
  });
});

describe("SDK use matches the description", () => {
  it.each([...typescript, ...javascript])("$name: imports of comfydeploy and the declared version", ({ dir, spec }) => {
    const imports = sdkImportsOf(dir);
    const range = declaredSdkRange(dir);
    if (spec.original.sdk === "v1") {
      expect(imports.length).toBeGreaterThan(0);
      expect(range).toBeDefined();
      expect(semver.lt(semver.minVersion(range!)!, JS_SDK.firstV2Version)).toBe(true);
    } else {
      expect(imports).toEqual([]);
    }
  });

  it("next-unused-dep declares comfydeploy 0.0.x and imports it nowhere", () => {
    const app = scenarios.find((s) => s.name === "next-unused-dep")!;
    expect(semver.satisfies(semver.minVersion(declaredSdkRange(app.dir)!)!, "0.0.x")).toBe(true);
    expect(sdkImportsOf(app.dir)).toEqual([]);
  });

  it.each(python)("$name: imports the Python SDK and pins a V1 version", ({ dir, spec }) => {
    const requirement = /^comfydeploy\s*==\s*([\d.]+)\s*$/m.exec(readFileSync(join(dir, "requirements.txt"), "utf8"));
    expect(requirement).not.toBeNull();
    expect(semver.lt(requirement![1]!, PYTHON_SDK.firstV2Version)).toBe(spec.original.sdk === "v1");
    const sources = fg.sync("**/*.py", { cwd: dir });
    const importing = sources.filter((file) =>
      /^\s*(from\s+comfydeploy\b|import\s+comfydeploy\b)/m.test(readFileSync(join(dir, file), "utf8")),
    );
    expect(importing.length > 0).toBe(spec.original.sdk === "v1");
  });
});

describe.each(typescript)("$name type-checks (strict)", ({ dir, spec }) => {
  it("against the V1 SDK with zero diagnostics", () => {
    expect(formatDiagnostics(typecheckScenario(dir, "v1"))).toBe("");
  });

  if (spec.original.sdk === "v1") {
    it("against the V2 SDK it fails, at every V1 name it imports", () => {
      const diagnostics = typecheckScenario(dir, "v2");
      expect(diagnostics.length).toBeGreaterThan(0);
      const v1Names = new Set(V1_SDK_EXPORTS.map((e) => e.v1));
      for (const { file, names } of sdkImportsOf(dir)) {
        for (const name of names) {
          expect(v1Names, `${file} imports ${name}`).toContain(name);
          const missing = diagnostics.filter(
            (d) => appRelative(dir, d.file) === file && d.code === 2305 && d.message.includes(`'${name}'`),
          );
          expect(missing.length, `${file}: no "has no exported member '${name}'" against V2`).toBeGreaterThan(0);
        }
      }
    });
  } else {
    it("against the V2 SDK with zero diagnostics too (it does not use the SDK)", () => {
      expect(formatDiagnostics(typecheckScenario(dir, "v2"))).toBe("");
    });
  }
});

describe.each(javascript)("$name: JavaScript", ({ dir }) => {
  it("every file passes node --check", () => {
    const files = fg.sync("**/*.{js,cjs,mjs}", { cwd: dir, ignore: ["**/node_modules/**"] });
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const check = spawnSync(process.execPath, ["--check", join(dir, file)], { encoding: "utf8" });
      expect(check.stderr, file).toBe("");
      expect(check.status, file).toBe(0);
    }
  });
});

describe.each(python)("$name: Python", ({ dir }) => {
  it.skipIf(!PYTHON3)(
    `every file passes python3 -m py_compile${PYTHON3 ? "" : " (skipped: python3 is not installed)"}`,
    () => {
      const files = fg.sync("**/*.py", { cwd: dir });
      expect(files.length).toBeGreaterThan(0);
      // Byte code goes to a scratch prefix, not into the fixture.
      const cache = scratchDir("py-compile-");
      try {
        const run = spawnSync("python3", ["-m", "py_compile", ...files], {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
        });
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
      expect(fg.sync("**/__pycache__", { cwd: dir, onlyDirectories: true })).toEqual([]);
    },
  );
});
