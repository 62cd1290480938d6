/**
 * TypeScript (the copy ts-morph bundles), loaded on first use: fix and the
 * codemods parse only when a JS/TS file needs it, and a scan that reads no
 * JS/TS never pays for the load.
 */
import module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { precompileCommonJs } from "./compile-cache.js";
import { jsDialectOf } from "./file-types.js";

export type TypeScript = typeof import("ts-morph").ts;
let typescript: TypeScript | undefined;

export function loadTypeScript(): TypeScript {
  if (!typescript) precompileTypeScript();
  typescript ??= (createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph")).ts;
  return typescript;
}

/**
 * Loads the TypeScript ts-morph bundles (9 MB, a sixth of a second to
 * compile) with V8's cached code where Node has no compile cache of its own,
 * ready for ts-morph's require of it. Only speed depends on it.
 */
export function precompileTypeScript(): void {
  try {
    precompileCommonJs(bundledPaths().typescript);
  } catch {
    // Loaded the usual way by ts-morph.
  }
}

/** Where ts-morph is, and the TypeScript bundle it requires (resolved as ts-morph resolves it); throws when absent. */
function bundledPaths(): { tsMorph: string; typescript: string } {
  const tsMorph = createRequire(import.meta.url).resolve("ts-morph");
  const common = createRequire(tsMorph).resolve("@ts-morph/common");
  return { tsMorph, typescript: join(dirname(common), "typescript.js") };
}

/**
 * Runs `load` (the import of the scanner's analyser) with `require("ts-morph")`
 * answered by TypeScript alone, then lets ts-morph be required as usual. The
 * analyser reads nothing of ts-morph but its `ts`; ts-morph's own bundles and
 * their dependencies (4 MB) cost a scan about 50 ms to load, and its `ts` is a
 * copy of TypeScript's namespace whose every member is a getter, on the
 * analyser's hottest calls (`ts.isIdentifier`, …). The same TypeScript module
 * is what ts-morph wraps when it is loaded later.
 */
export async function withTypeScriptOnly<T>(load: () => Promise<T>): Promise<T> {
  const cache = (module as unknown as { _cache: Record<string, { exports: unknown } | undefined> })._cache;
  let tsMorph: string;
  let stub: { id: string; filename: string; loaded: boolean; exports: { ts: unknown } };
  try {
    const paths = bundledPaths();
    tsMorph = paths.tsMorph;
    const ts: unknown = createRequire(paths.typescript)(paths.typescript);
    stub = { id: tsMorph, filename: tsMorph, loaded: true, exports: { ts } };
  } catch {
    return load();
  }
  if (cache[tsMorph]) return load();
  cache[tsMorph] = stub;
  try {
    return await load();
  } finally {
    if (cache[tsMorph] === stub) delete cache[tsMorph];
  }
}

/** The ScriptKind the file-type table gives a file. */
export function scriptKindOf(file: string, ts: TypeScript = loadTypeScript()): import("ts-morph").ts.ScriptKind {
  switch (jsDialectOf(file)) {
    case "tsx":
      return ts.ScriptKind.TSX;
    case "jsx":
      return ts.ScriptKind.JSX;
    case "js":
      return ts.ScriptKind.JS;
    case "ts":
      return ts.ScriptKind.TS;
  }
}
