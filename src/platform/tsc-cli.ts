#!/usr/bin/env node
/**
 * `tsc` from the TypeScript that ts-morph bundles, the one the scanner parses
 * with: fix --verify runs it as a child process, so the package ships one
 * TypeScript instead of two (the `typescript` package is a build tool only).
 * The bundle keeps its lib .d.ts files in memory: they are served from there
 * at the path the compiler looks for them.
 */
import { createRequire } from "node:module";
import { posix } from "node:path";

type TypeScript = typeof import("ts-morph").ts;

interface TsMorphCommon {
  /** executeCommandLine is tsc's own entry point: in the bundle, missing from its typings. */
  ts: TypeScript & {
    executeCommandLine(system: TypeScript["sys"], callback: () => void, args: readonly string[]): void;
  };
  getLibFiles(): Array<{ fileName: string; text: string }>;
}

const require = createRequire(import.meta.url);
const { ts, getLibFiles } = createRequire(require.resolve("ts-morph"))("@ts-morph/common") as TsMorphCommon;
const libs = new Map(getLibFiles().map((file) => [file.fileName, file.text]));
const slashes = (path: string): string => path.replace(/\\/g, "/");
const libDir = posix.dirname(slashes(ts.sys.getExecutingFilePath()));
const libText = (path: string): string | undefined =>
  posix.dirname(slashes(path)) === libDir ? libs.get(posix.basename(path)) : undefined;

const sys: typeof ts.sys = {
  ...ts.sys,
  fileExists: (path) => libText(path) !== undefined || ts.sys.fileExists(path),
  readFile: (path, encoding) => libText(path) ?? ts.sys.readFile(path, encoding),
};
ts.executeCommandLine(sys, () => {}, process.argv.slice(2));
