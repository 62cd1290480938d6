/**
 * Findings point into the text as it was scanned. When an earlier transform
 * in the same run edited the file, they are moved onto the current text; a
 * finding whose line changed is dropped, since its columns may no longer hold.
 */
import type { Finding } from "../../src/core/finding.js";
import { lineMapBetween } from "./line-map.js";

export function findingsOnText(findings: readonly Finding[], scanned: string | undefined, current: string): Finding[] {
  if (scanned === undefined || scanned === current) return [...findings];
  const map = lineMapBetween(scanned, current);
  const before = scanned.split("\n");
  const after = current.split("\n");
  return findings.flatMap((finding) => {
    const line = map(finding.line);
    const endLine = map(finding.endLine);
    if (line === undefined || endLine === undefined) return [];
    const unchanged = (from: number, to: number): boolean => before[from - 1] === after[to - 1];
    if (!unchanged(finding.line, line) || !unchanged(finding.endLine, endLine)) return [];
    return [{ ...finding, line, endLine }];
  });
}
