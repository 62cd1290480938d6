/**
 * The passes over all findings once the scanners are done: ignore comments
 * (and the ones that covered nothing), and the lines review markers hold.
 */
import type { Finding } from "../core/finding.js";
import { MARKER_TAG } from "../core/marker.js";
import {
  applySuppressions,
  isDirective,
  parseSuppressions,
  SUPPRESSION_KEYWORD,
  unusedIgnoreFinding,
} from "../core/suppression.js";
import { fileKind } from "../platform/file-types.js";

export /** Applies ignore comments to the findings of their files; returns the comments that covered nothing, as findings. */
function applyInSourceSuppressions(
  findings: Finding[],
  ignoreFiles: ReadonlySet<string>,
  read: (file: string) => string | undefined,
  now: Date,
): Finding[] {
  const today = now.toISOString().slice(0, 10);
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const unused: Finding[] = [];
  for (const file of new Set([...byFile.keys(), ...ignoreFiles])) {
    const text = read(file);
    if (!text?.includes(SUPPRESSION_KEYWORD)) continue;
    const prose = fileKind(file) === "docs";
    for (const s of applySuppressions(byFile.get(file) ?? [], parseSuppressions(text), today)) {
      if (isDirective(s, prose)) unused.push(unusedIgnoreFinding(file, s));
    }
  }
  return unused;
}

/**
 * A review marker's advice names V1 paths and hosts ("POST {base}/run
 * becomes ..."): the marker is reported as review-marker, and no other rule
 * reports its line.
 */
export function withoutMarkerLines(findings: Finding[], read: (file: string) => string | undefined): void {
  const markerLines = new Map<string, Set<number>>();
  const linesOf = (file: string): Set<number> => {
    let lines = markerLines.get(file);
    if (!lines) {
      const text = read(file) ?? "";
      lines = new Set(
        text.includes(MARKER_TAG)
          ? text.split("\n").flatMap((line, i) => (line.includes(MARKER_TAG) ? [i + 1] : []))
          : [],
      );
      markerLines.set(file, lines);
    }
    return lines;
  };
  const kept = findings.filter((f) => f.ruleId === "review-marker" || !linesOf(f.file).has(f.line));
  findings.splice(0, findings.length, ...kept);
}
