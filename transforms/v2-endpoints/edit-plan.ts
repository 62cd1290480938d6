/**
 * The text edits one file's endpoint migration plans: an edit is taken only
 * when it overlaps none already planned, and lines of the original text are
 * followed through the edits, so markers land on the lines they name.
 */
import type { TextFile } from "../../src/lang/text/text-file.js";
import type { TextEdit } from "./urls.js";

export class EditPlan {
  readonly edits: TextEdit[] = [];

  constructor(private readonly file: TextFile) {}

  /** Adds edits unless one overlaps an edit already planned; the same edit twice counts once. */
  add(edits: readonly TextEdit[]): boolean {
    const fresh = edits.filter(
      (e) => !this.edits.some((o) => o.start === e.start && o.end === e.end && o.text === e.text),
    );
    for (const edit of fresh) {
      const clash = this.edits.some(
        (o) =>
          (edit.start < o.end && o.start < edit.end) ||
          (edit.start === edit.end && o.start === o.end && edit.start === o.start),
      );
      if (clash) return false;
    }
    this.edits.push(...fresh);
    return true;
  }

  /** A line of the original text, moved by the edits made above it. */
  shiftedLine(line: number): number {
    const start = this.file.lineStart(line);
    let shift = 0;
    for (const edit of this.edits) {
      if (edit.end > start) continue;
      shift += countNewlines(edit.text) - countNewlines(this.file.text.slice(edit.start, edit.end));
    }
    return line + shift;
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (const c of text) if (c === "\n") count++;
  return count;
}

/** The smallest edit turning `before` into `after`, placed at `offset`: host and path edits in one URL then never overlap. */
export function minimalEdit(before: string, after: string, offset: number): TextEdit {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return { start: offset + head, end: offset + before.length - tail, text: after.slice(head, after.length - tail) };
}
