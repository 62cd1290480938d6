/** Type-checks files with the TypeScript compiler API (noEmit) and reports diagnostics by file and line. */
import ts from "typescript";

export interface Diagnostic {
  file: string;
  /** 1-based. */
  line: number;
  code: number;
  message: string;
}

export function typecheck(rootNames: readonly string[], options: ts.CompilerOptions): Diagnostic[] {
  const program = ts.createProgram({ rootNames, options: { ...options, noEmit: true } });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const position = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file?.fileName ?? "(global)",
      line: position ? position.line + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, " "),
    };
  });
}

/** Compiler options from a tsconfig.json, as `tsc -p` would read them. */
export function readTsconfig(path: string): { options: ts.CompilerOptions; fileNames: string[] } {
  const read = ts.readConfigFile(path, (p) => ts.sys.readFile(p));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, " "));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.replace(/[/\\][^/\\]+$/, ""));
  return { options: parsed.options, fileNames: parsed.fileNames };
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${d.file}:${d.line} TS${d.code} ${d.message}`).join("\n");
}
