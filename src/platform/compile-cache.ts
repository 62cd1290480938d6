/**
 * V8's on-disk compile cache, so big CommonJS modules (TypeScript's 9 MB for
 * the scanner and fix) are compiled once and then read from the cache.
 * Node 22.1 and later do this for every module loaded after start-up
 * (`module.enableCompileCache`). Node 20 has no such call: there
 * `precompileCommonJs` loads one big file with V8's cached code (kept in a
 * directory only this user can write) and leaves it in require's cache, where
 * the require that follows finds it. NODE_DISABLE_COMPILE_CACHE turns both
 * off, as it does for Node's own flag.
 *
 * Not v8-compile-cache-lib: it hooks every module, rewrites its whole cache
 * (8 MB with ts-morph) on every run, and added 30 MB to a scan's peak memory.
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { crc32 } from "node:zlib";

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

interface CommonJsModule {
  exports: unknown;
  filename: string;
  loaded: boolean;
  paths: string[];
}
interface ModuleClass {
  new (id: string, parent?: unknown): CommonJsModule;
  _cache: Record<string, CommonJsModule | undefined>;
  _nodeModulePaths(dir: string): string[];
  wrap(source: string): string;
}

/**
 * Loads the CommonJS file at this absolute path with V8's cached code for it
 * and leaves it in require's cache, so that the next `require` of it (from
 * ts-morph, say) takes it as loaded. The code is cached right after the file
 * ran, and written again only when V8 refused it (another file, another V8).
 * True when the file is now loaded; false when Node keeps its own cache, the
 * cache is off or cannot be had, or the file was already loaded: then the
 * next require loads it as usual.
 */
export function precompileCommonJs(
  file: string,
  { env = process.env, parent = userCacheHome(env) }: { env?: NodeJS.ProcessEnv; parent?: string } = {},
): boolean {
  const Module = module as unknown as ModuleClass;
  if (nodeCacheOn || env.NODE_DISABLE_COMPILE_CACHE !== undefined || Module._cache[file]) return false;
  const dir = privateCacheDir(parent);
  if (!dir) return false;
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return false;
  }
  const cacheFile = codeCacheFile(dir, file, source);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const loaded = new Module(file, undefined);
  loaded.filename = file;
  loaded.paths = Module._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
  loaded.loaded = true;
  Module._cache[file] = loaded;
  if (!cachedData || script.cachedDataRejected) writeAtomically(cacheFile, script.createCachedData());
  return true;
}

/** Where a file's code is cached: the name says which file, which bytes and which V8 (V8 itself checks only the length). */
export function codeCacheFile(dir: string, file: string, source: string): string {
  const sum = (text: string): string => crc32(text).toString(16);
  return join(dir, `${basename(file)}-${sum(file)}-${sum(source)}-${source.length}-${process.versions.v8}.code`);
}

/** A cache file is replaced whole: a run reading it at the same time sees the old one or the new one. */
function writeAtomically(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // A cache that cannot be written only costs speed next time.
  }
}

/** XDG_CACHE_HOME, else ~/.cache: not the temp directory, which may be shared, and which CI checks tests leave empty. */
function userCacheHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CACHE_HOME || join(homedir(), ".cache");
}

/**
 * The cache directory, named for the user, made with mode 700 and used only
 * while it is a real directory this user owns that nobody else can write:
 * compiled code from a directory another user controls would run as this user.
 */
export function privateCacheDir(parent: string): string | undefined {
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
