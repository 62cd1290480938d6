/**
 * Maps the lines of a file as the scan saw it onto its current text. An
 * earlier transform in the same run may have edited the file (added a marker
 * line, rewritten a URL), and findings still point into the scanned text.
 */
import { diffLines } from "diff";

export type LineMap = (scannedLine: number) => number | undefined;

/** Maps scanned line numbers onto the current text; lines an edit removed map to nothing. */
export function lineMapBetween(scanned: string | undefined, current: string): LineMap {
  if (scanned === undefined || scanned === current) return (line) => line;
  const map = new Map<number, number>();
  let oldLine = 1;
  let newLine = 1;
  const changes = diffLines(scanned, current);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    const count = change.count ?? 0;
    const next = changes[i + 1];
    if (!change.added && !change.removed) {
      for (let k = 0; k < count; k++) map.set(oldLine + k, newLine + k);
      oldLine += count;
      newLine += count;
    } else if (change.removed && next?.added && next.count === count) {
      // A same-sized replacement (a URL rewritten in place): the lines still correspond one to one.
      for (let k = 0; k < count; k++) map.set(oldLine + k, newLine + k);
      oldLine += count;
      newLine += count;
      i++;
    } else if (change.removed) {
      oldLine += count;
    } else {
      newLine += count;
    }
  }
  return (line) => map.get(line);
}
