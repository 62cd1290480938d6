import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  codeCacheFile,
  enableCompileCache,
  precompileCommonJs,
  privateCacheDir,
} from "../../src/platform/compile-cache.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

describe("enableCompileCache", () => {
  it("turns the cache on where Node has the call", () => {
    const api = { enableCompileCache: vi.fn(() => ({ status: 1 })) };
    expect(enableCompileCache(api, {})).toBe(true);
    expect(api.enableCompileCache).toHaveBeenCalledOnce();
  });

  it("does nothing on a Node without it (Node 20)", () => {
    expect(enableCompileCache({}, {})).toBe(false);
  });

  it("leaves it off when NODE_DISABLE_COMPILE_CACHE is set, as Node's own flag does", () => {
    const api = { enableCompileCache: vi.fn() };
    expect(enableCompileCache(api, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBe(false);
    expect(api.enableCompileCache).not.toHaveBeenCalled();
  });

  it("never fails the command when the cache cannot be set up", () => {
    const api = {
      enableCompileCache: () => {
        throw new Error("EACCES");
      },
    };
    expect(enableCompileCache(api, {})).toBe(false);
  });
});

// Node 22.1+ keeps its own cache for every module: there precompileCommonJs leaves loading to require.
const nodeKeepsItsOwn = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";
const requireCache = (module as unknown as { _cache: Record<string, unknown> })._cache;

describe.skipIf(nodeKeepsItsOwn)("precompileCommonJs (Node without module.enableCompileCache)", () => {
  const cacheOf = (parent: string): string =>
    join(parent, `comfydeploy-migrate-compile-cache-${process.getuid?.() ?? "user"}`);
  const codeFiles = (parent: string): string[] => readdirSync(cacheOf(parent)).filter((f) => f.endsWith(".code"));
  const big = (): string =>
    tempRepo({
      "lib/big.cjs":
        "globalThis.bigRuns = (globalThis.bigRuns ?? 0) + 1;\nmodule.exports = { sum: require('./add.cjs')(40, 2), dir: __dirname };",
      "lib/add.cjs": "module.exports = (a, b) => a + b;",
    });

  it("loads the file into require's cache, runs it once, and keeps its compiled code where only this user can look", () => {
    const parent = tempDir();
    const file = join(big(), "lib", "big.cjs");
    const runs = (globalThis as { bigRuns?: number }).bigRuns ?? 0;
    expect(precompileCommonJs(file, { env: {}, parent })).toBe(true);
    const loaded = createRequire(file)("./big.cjs") as { sum: number; dir: string };
    expect(loaded).toEqual({ sum: 42, dir: dirname(file) });
    expect((globalThis as { bigRuns?: number }).bigRuns).toBe(runs + 1);
    expect(codeFiles(parent)).toHaveLength(1);
    expect(statSync(cacheOf(parent)).mode & 0o777).toBe(0o700);
    delete requireCache[file];
  });

  it("replaces a cached code V8 refuses (from another build of the file, or damaged)", () => {
    const parent = tempDir();
    const file = join(big(), "lib", "big.cjs");
    const dir = privateCacheDir(parent)!;
    const code = codeCacheFile(dir, file, readFileSync(file, "utf8"));
    writeFileSync(code, "not V8's code");
    expect(precompileCommonJs(file, { env: {}, parent })).toBe(true);
    expect((createRequire(file)("./big.cjs") as { sum: number }).sum).toBe(42);
    expect(readFileSync(code).toString()).not.toBe("not V8's code");
    expect(readFileSync(code).length).toBeGreaterThan(100);
    delete requireCache[file];
  });

  it("leaves a file already loaded alone", () => {
    const parent = tempDir();
    const file = join(big(), "lib", "add.cjs");
    createRequire(file)("./add.cjs");
    expect(precompileCommonJs(file, { env: {}, parent })).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
    delete requireCache[file];
  });

  it("uses no directory another user could have written: a link, or one others can write, is passed over", () => {
    const writable = tempDir();
    mkdirSync(cacheOf(writable), { mode: 0o777 });
    chmodSync(cacheOf(writable), 0o777);
    expect(privateCacheDir(writable)).toBeUndefined();
    const linked = tempDir();
    symlinkSync(tempDir(), cacheOf(linked));
    expect(privateCacheDir(linked)).toBeUndefined();
    const file = join(big(), "lib", "big.cjs");
    expect(precompileCommonJs(file, { env: {}, parent: writable })).toBe(false);
    expect(precompileCommonJs(file, { env: {}, parent: linked })).toBe(false);
    expect(readdirSync(cacheOf(writable))).toEqual([]);
    expect(requireCache[file]).toBeUndefined();
  });

  it("stays off when NODE_DISABLE_COMPILE_CACHE is set", () => {
    const parent = tempDir();
    const file = join(big(), "lib", "big.cjs");
    expect(precompileCommonJs(file, { env: { NODE_DISABLE_COMPILE_CACHE: "1" }, parent })).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
  });
});
