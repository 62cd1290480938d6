/**
 * TypeScript (the copy ts-morph bundles), loaded on first use: fix and the
 * codemods parse only when a JS/TS file needs it, and a scan that reads no
 * JS/TS never pays for the load.
 */
import { createRequire } from "node:module";
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
    const tsMorph = createRequire(import.meta.url).resolve("ts-morph");
    const common = createRequire(tsMorph).resolve("@ts-morph/common");
    precompileCommonJs(join(dirname(common), "typescript.js"));
  } catch {
    // Loaded the usual way by ts-morph.
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
