/**
 * TypeScript (the copy ts-morph bundles), loaded on first use: fix and the
 * codemods parse only when a JS/TS file needs it, and a scan that reads no
 * JS/TS never pays for the load.
 */
import { createRequire } from "node:module";
import { withCompileCache } from "./compile-cache.js";
import { jsDialectOf } from "./file-types.js";

export type TypeScript = typeof import("ts-morph").ts;
let typescript: TypeScript | undefined;

export function loadTypeScript(): TypeScript {
  typescript ??= withCompileCache(() => createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph")).ts;
  return typescript;
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
