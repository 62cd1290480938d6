/**
 * V8's on-disk compile cache (Node 22.1 and later): the modules loaded after
 * start-up (a command's own, and TypeScript's 9 MB for the scanner) are
 * compiled once and then read from the cache. Node 20 has no such call and
 * runs without it. NODE_DISABLE_COMPILE_CACHE turns it off, as it does for
 * Node's own flag.
 */
import module from "node:module";

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

enableCompileCache();
