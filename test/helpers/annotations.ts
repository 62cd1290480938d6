/** Reads `@expect <ruleId> ...` annotations from fixture files: the findings each line must produce. */
import { readFileSync } from "node:fs";
import type { Finding } from "../../src/core/finding.js";

const EXPECT = /@expect\s+([a-z0-9-]+(?:[ \t]+[a-z0-9-]+)*)/;

/** `line:ruleId` keys, sorted, for every annotation in a file. */
export function expectedKeys(path: string): string[] {
  const keys = new Set<string>();
  readFileSync(path, "utf8")
    .split(/\r?\n/)
    .forEach((line, index) => {
      const match = EXPECT.exec(line);
      if (!match) return;
      for (const rule of match[1]!.split(/\s+/)) keys.add(`${index + 1}:${rule}`);
    });
  return [...keys].sort();
}

export function actualKeys(findings: readonly Finding[], file?: string): string[] {
  return [
    ...new Set(findings.filter((f) => file === undefined || f.file === file).map((f) => `${f.line}:${f.ruleId}`)),
  ].sort();
}
