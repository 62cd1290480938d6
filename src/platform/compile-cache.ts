/**
 * V8's on-disk compile cache, so big CommonJS modules (TypeScript's 9 MB for
 * the scanner and fix) are compiled once and then read from the cache.
 * Node 22.1 and later do this for every module loaded after start-up
 * (`module.enableCompileCache`). Node 20 has no such call: there
 * `withCompileCache` keeps the code of the CommonJS modules one load requires
 * through `v8-compile-cache-lib`, in a directory only this user can write.
 * NODE_DISABLE_COMPILE_CACHE turns both off, as it does for Node's own flag.
 */
import { lstatSync, mkdirSync } from "node:fs";
import module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

type ModuleApi = { enableCompileCache?: () => unknown };

/** Turns the cache on where Node has it; true when it did. A cache that cannot be set up only costs speed. */
export function enableCompileCache(
  api: ModuleApi = module as ModuleApi,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (typeof api.enableCompileCache !== "function" || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return false;
  try {
    api.enableCompileCache();
    return true;
  } catch {
    return false;
  }
}

const nodeCacheOn = enableCompileCache();

interface CompileHook {
  prototype: { _compile: (this: unknown, content: string, filename: string, format?: string) => unknown };
}

/**
 * Runs `load` (a `require` or an `import()` of modules that require big
 * CommonJS files) with their compiled code read from, and written to, the
 * cache. Only while `load` runs: nothing else loaded in the process goes
 * through the hook. Where Node keeps its own cache, or no safe directory can
 * be had, `load` simply runs.
 */
export function withCompileCache<T>(
  load: () => T,
  { env = process.env, parent = tmpdir() }: { env?: NodeJS.ProcessEnv; parent?: string } = {},
): T {
  if (nodeCacheOn || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return load();
  const cacheDir = privateCacheDir(parent);
  if (!cacheDir) return load();
  const end = installHook(cacheDir);
  let result: T;
  try {
    result = load();
  } catch (error) {
    end();
    throw error;
  }
  if (result instanceof Promise) return result.finally(end) as T;
  end();
  return result;
}

/** Installs the caching `_compile`; the returned function restores Node's and writes what was compiled. */
function installHook(cacheDir: string): () => void {
  const Module = module as unknown as CompileHook;
  const original = Module.prototype._compile;
  let cache: { uninstall(): void } | undefined;
  try {
    const { install } = createRequire(import.meta.url)("v8-compile-cache-lib") as typeof import("v8-compile-cache-lib");
    // One cache per V8 version: another version rejects the code, and two Node versions would keep rewriting it.
    cache = install({ cacheDir, prefix: `comfydeploy-migrate-v8-${process.versions.v8}` });
  } catch {
    return () => undefined;
  }
  const cached = Module.prototype._compile;
  // An ES module required from CommonJS (Node 20.19's require(esm)) arrives with format "module": Node compiles that itself.
  Module.prototype._compile = function (content, filename, format) {
    return (format === "module" ? original : cached).call(this, content, filename, format);
  };
  return () => {
    Module.prototype._compile = original;
    cache?.uninstall();
  };
}

/**
 * The cache directory: under the temp directory, named for the user, made
 * with mode 700 and used only while it is a real directory this user owns
 * that nobody else can write: compiled code from a directory another user
 * controls would run as this user.
 */
export function privateCacheDir(parent: string = tmpdir()): string | undefined {
  const uid = process.getuid?.();
  const dir = join(parent, `comfydeploy-migrate-compile-cache-${uid ?? "user"}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = lstatSync(dir);
    if (!stats.isDirectory() || (stats.mode & 0o022) !== 0) return undefined;
    if (uid !== undefined && stats.uid !== uid) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
