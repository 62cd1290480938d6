/**
 * Review markers for text parts (Python, config, manifests, Dockerfiles):
 * collected while a part plans its edits, inserted once they are done.
 */
import { formatMarker, hasMarkerNear, markerText } from "../../src/core/marker.js";
import { markerSyntaxFor } from "../../src/platform/file-types.js";
import type { RuleId } from "../../src/rules/catalog.js";
import type { FixEvent } from "../types.js";

export interface LineMarker {
  /** 1-based line, in the text the part received, the marker goes above. */
  line: number;
  ruleId: RuleId;
  advice: string;
  /** The finding's line, for the event (default: `line`). */
  findingLine?: number;
}

/**
 * Inserts the markers bottom up, so the lines above keep their numbers, each
 * once (a marker already in the file is not written again). `lineNow` moves a
 * marker's line onto the text when the part's own edits changed line counts.
 */
export function insertLineMarkers(
  text: string,
  file: string,
  markers: readonly LineMarker[],
  lineNow: (line: number) => number = (line) => line,
): { text: string; events: FixEvent[] } {
  const events: FixEvent[] = [];
  const seen = new Set<string>();
  let out = text;
  for (const marker of [...markers].sort((a, b) => b.line - a.line)) {
    const key = `${marker.line}:${marker.ruleId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const inserted = insertMarkerAbove(out, lineNow(marker.line), file, marker.ruleId, marker.advice);
    if (!inserted.added) continue;
    out = inserted.text;
    events.push({
      kind: "marker",
      ruleId: marker.ruleId,
      line: marker.findingLine ?? marker.line,
      message: marker.advice,
    });
  }
  return { text: out, events };
}

/**
 * Inserts a marker line above a 1-based line, with that line's indentation,
 * unless the same marker already stands there. Returns the text unchanged
 * (and false) when the file has no comment syntax or the marker exists.
 */
export function insertMarkerAbove(
  text: string,
  line: number,
  file: string,
  ruleId: RuleId,
  advice: string,
): { text: string; added: boolean } {
  const syntax = markerSyntaxFor(file);
  if (!syntax) return { text, added: false };
  const lines = text.split("\n");
  const index = Math.min(Math.max(line - 1, 0), lines.length - 1);
  const body = markerText(ruleId, advice);
  if (hasMarkerNear(lines, index, ruleId)) return { text, added: false };
  const indent = /^[ \t]*/.exec(lines[index] ?? "")![0];
  lines.splice(index, 0, `${indent}${formatMarker(syntax, body)}`);
  return { text: lines.join("\n"), added: true };
}
