#!/usr/bin/env node
/**
 * Builds dist/ from a production install (`npm ci --omit=dev`), as the GitHub
 * Action does: the TypeScript ts-morph bundles emits the JavaScript, without
 * type checking (the sources are checked in CI; every module is isolated), so
 * neither the `typescript` package nor the @types packages are installed.
 */
import { createRequire } from "node:module";

const { ts } = createRequire(import.meta.url)("ts-morph");
const parsed = ts.getParsedCommandLineOfConfigFile(
  "tsconfig.build.json",
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
if (!parsed) {
  process.stderr.write("build-runtime: cannot read tsconfig.build.json\n");
  process.exit(2);
}
// No lib or @types files: nothing is checked, so only the emit matters.
const options = { ...parsed.options, noCheck: true, noLib: true, types: [], noEmitOnError: false, declaration: false };
const program = ts.createProgram({ rootNames: parsed.fileNames, options });
const result = program.emit();
const written = program.getSourceFiles().filter((file) => !file.isDeclarationFile).length;
if (result.emitSkipped || written === 0) {
  process.stderr.write("build-runtime: nothing was emitted\n");
  process.exit(3);
}
process.stdout.write(`build-runtime: ${written} modules emitted to ${options.outDir}\n`);
