/**
 * Review markers for text parts (Python, config, manifests, Dockerfiles):
 * collected while a part plans its edits, inserted once they are done.
 */
import { insertMarkerAbove } from "../../src/core/marker.js";
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
    events.push({ kind: "marker", ruleId: marker.ruleId, line: marker.findingLine ?? marker.line, message: marker.advice });
  }
  return { text: out, events };
}
