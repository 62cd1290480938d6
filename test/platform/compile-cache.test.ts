import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import module, { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { enableCompileCache, privateCacheDir, withCompileCache } from "../../src/platform/compile-cache.js";
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

// Node 22.1+ keeps its own cache for every module: there withCompileCache only runs the load.
const nodeKeepsItsOwn = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe.skipIf(nodeKeepsItsOwn)("withCompileCache (Node without module.enableCompileCache)", () => {
  const cacheOf = (parent: string): string =>
    join(parent, `comfydeploy-migrate-compile-cache-${process.getuid?.() ?? "user"}`);
  const mapOf = (parent: string): string => {
    const dir = cacheOf(parent);
    const map = readdirSync(dir).find((f) => f.endsWith(".MAP"));
    return map ? readFileSync(join(dir, map), "utf8") : "";
  };

  it("keeps the compiled code of the CommonJS modules the load requires, in a directory only this user can open", () => {
    const parent = tempDir();
    const code = tempRepo({ "big.cjs": "module.exports = { answer: () => 42 };" });
    const loaded = withCompileCache(() => createRequire(join(code, "x.cjs"))("./big.cjs") as { answer(): number }, {
      env: {},
      parent,
    });
    expect(loaded.answer()).toBe(42);
    expect(mapOf(parent)).toContain(join(code, "big.cjs"));
    expect(statSync(cacheOf(parent)).mode & 0o777).toBe(0o700);
  });

  it("is on only while the load runs, an asynchronous one included", async () => {
    const parent = tempDir();
    const code = tempRepo({ "during.cjs": "module.exports = 1;", "after.cjs": "module.exports = 2;" });
    const req = createRequire(join(code, "x.cjs"));
    const compile = (module as unknown as { prototype: { _compile: unknown } }).prototype._compile;
    await withCompileCache(async () => req("./during.cjs"), { env: {}, parent });
    expect((module as unknown as { prototype: { _compile: unknown } }).prototype._compile).toBe(compile);
    req("./after.cjs");
    expect(mapOf(parent)).toContain("during.cjs");
    expect(mapOf(parent)).not.toContain("after.cjs");
  });

  it("lets Node compile an ES module that CommonJS requires", () => {
    const code = tempRepo({
      "pkg/package.json": JSON.stringify({ type: "module" }),
      "pkg/index.js": "export const value = 'esm';",
    });
    const loaded = withCompileCache(() => createRequire(join(code, "x.cjs"))("./pkg/index.js") as { value: string }, {
      env: {},
      parent: tempDir(),
    });
    expect(loaded.value).toBe("esm");
  });

  it("uses no directory another user could have written: a link, or one others can write, is passed over", () => {
    const writable = tempDir();
    mkdirSync(cacheOf(writable), { mode: 0o777 });
    chmodSync(cacheOf(writable), 0o777);
    expect(privateCacheDir(writable)).toBeUndefined();
    const linked = tempDir();
    symlinkSync(tempDir(), cacheOf(linked));
    expect(privateCacheDir(linked)).toBeUndefined();
    const code = tempRepo({ "plain.cjs": "module.exports = 3;" });
    expect(withCompileCache(() => createRequire(join(code, "x.cjs"))("./plain.cjs"), { env: {}, parent: linked })).toBe(
      3,
    );
    expect(readdirSync(cacheOf(writable))).toEqual([]);
  });

  it("stays off when NODE_DISABLE_COMPILE_CACHE is set", () => {
    const parent = tempDir();
    const code = tempRepo({ "off.cjs": "module.exports = 4;" });
    const env = { NODE_DISABLE_COMPILE_CACHE: "1" };
    expect(withCompileCache(() => createRequire(join(code, "x.cjs"))("./off.cjs"), { env, parent })).toBe(4);
    expect(readdirSync(parent)).toEqual([]);
  });
});
