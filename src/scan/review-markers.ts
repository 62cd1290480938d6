/** Review markers left by `fix` are findings themselves, so CI stays red until a person resolves them. */
import type { Finding } from "../core/finding.js";
import { MARKER_TAG } from "../core/marker.js";
import { FindingSink } from "./scanner-helpers.js";

const MARKER = /TODO\(comfydeploy-migrate\):\s*([a-z0-9-]+):\s*(.*?)\s*(?:\*\/|-->)?\s*$/;

export function findReviewMarkers(file: string, text: string): Finding[] {
  const sink = new FindingSink(file, text);
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const at = line.indexOf(MARKER_TAG);
    if (at < 0) return;
    const match = MARKER.exec(line.slice(at));
    const what = match ? `${match[1]}: ${match[2]}` : line.slice(at + MARKER_TAG.length).replace(/^:\s*/, "");
    sink.atOffset(offsetOf(lines, index) + at, offsetOf(lines, index) + line.replace(/\r$/, "").length, {
      ruleId: "review-marker",
      message: `Review marker left by fix: ${what}`.trim(),
    });
  });
  return sink.findings;
}

function offsetOf(lines: readonly string[], index: number): number {
  let offset = 0;
  for (let i = 0; i < index; i++) offset += lines[i]!.length + 1;
  return offset;
}
