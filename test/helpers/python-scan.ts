/**
 * Scans one Python file of an in-memory repository with the Python code
 * scanner, as the engine would hand it over, and lists `line:rule` sorted.
 */
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { fileKind } from "../../src/platform/file-types.js";
import type { FileScanInput, RepoFacts } from "../../src/scan/scanner.js";
import { scanPythonCode } from "../../src/scan/scanners/python/code.js";

/** `legacyBaseHeld`: whether the engine found a V1 base somewhere in the repository (then at `settings.py:1`). */
export function pythonFindingLines(file: string, files: Record<string, string>, legacyBaseHeld: boolean): string[] {
  const repo: RepoFacts = {
    files: Object.keys(files).sort(),
    root: "/repo",
    sdkImportingPackages: new Set(),
    read: (f) => files[f],
    legacyBaseHeld,
    ...(legacyBaseHeld ? { legacyBase: { file: "settings.py", line: 1 } } : {}),
  };
  const text = files[file]!;
  const input: FileScanInput = {
    file,
    text,
    bytes: Buffer.from(text),
    kind: fileKind(file),
    hosts: DEFAULT_HOSTS,
    repo,
  };
  return scanPythonCode(input)
    .map((f) => `${f.line}:${f.ruleId}`)
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}
