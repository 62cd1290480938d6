/**
 * Review markers: `TODO(comfydeploy-migrate): <ruleId>: <what to do>` in the
 * file's own comment syntax, placed once above the exact statement.
 */
import type { RuleId } from "../rules/catalog.js";

export const MARKER_TAG = "TODO(comfydeploy-migrate)";

export function markerText(ruleId: RuleId, advice: string): string {
  return `${MARKER_TAG}: ${ruleId}: ${advice.replace(/\s*\n\s*/g, " ").trim()}`;
}

/** A comment syntax to write a marker in; which file takes which is in platform/file-types.ts. */
export interface CommentSyntax {
  line?: string;
  block?: [string, string];
}

export function formatMarker(syntax: CommentSyntax, text: string): string {
  if (syntax.line) return `${syntax.line} ${text}`;
  const [open, close] = syntax.block!;
  return `${open} ${text} ${close}`;
}

/** A marker for the same rule on the line itself or in the comment lines right above it. */
export function hasMarkerNear(lines: readonly string[], index: number, ruleId: RuleId): boolean {
  const needle = `${MARKER_TAG}: ${ruleId}:`;
  if (lines[index]?.includes(needle)) return true;
  for (let i = index - 1; i >= 0 && i >= index - 5; i--) {
    const l = lines[i]!;
    if (l.includes(needle)) return true;
    if (!l.includes(MARKER_TAG)) break;
  }
  return false;
}
