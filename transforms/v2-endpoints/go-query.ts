/**
 * Go's V1 get-run written as a query set on a later line:
 *
 *   u, _ := url.Parse(base + "/run")      u, _ := url.Parse(base + "/run/" + url.PathEscape(id))
 *   q := u.Query()                   ->   q := u.Query()
 *   q.Set("run_id", id)
 *
 * Only when the `Set` is a statement of its own, its value a plain name not
 * assigned between the URL and the `Set` (so it already holds the id where
 * the URL is built), the literal ends the path at `/run`, and the file
 * imports net/url (whose PathEscape escapes a path segment).
 */
import { RUN_ID_KEY } from "../../src/core/run-path.js";
import type { Segment } from "./segments.js";
import type { TextEdit } from "./urls.js";

const SET_LINE = new RegExp(
  `^([ \\t]*)[A-Za-z_]\\w*\\.(?:Set|Add)\\(\\s*"${RUN_ID_KEY}"\\s*,\\s*([A-Za-z_]\\w*)\\s*\\)[ \\t]*;?[ \\t]*(?:\\n|$)`,
);

/** The edits moving the run id into the path, or undefined when the shape is not this one. */
export function goRunIdQueryEdits(text: string, setAt: number, literal: Segment): TextEdit[] | undefined {
  if (literal.quote !== '"' || !/(?:^|\/)run$/.test(text.slice(literal.start, literal.end))) return undefined;
  if (!/^\s*"net\/url"\s*$/m.test(importBlock(text))) return undefined;
  const lineStart = text.lastIndexOf("\n", setAt - 1) + 1;
  const set = SET_LINE.exec(text.slice(lineStart));
  if (!set || setAt > lineStart + set[0].length || literal.end > lineStart) return undefined;
  const id = set[2]!;
  const between = text.slice(literal.end, lineStart);
  if (new RegExp(`(?<![\\w.])${id}\\s*(?::=|=(?!=))|,\\s*${id}\\s*:?=`).test(between)) return undefined;
  return [
    { start: literal.end, end: literal.end + 1, text: `/" + url.PathEscape(${id})` },
    { start: lineStart, end: lineStart + set[0].length, text: "" },
  ];
}

/** The file's import declarations (single and grouped). */
function importBlock(text: string): string {
  return [...text.matchAll(/^import\s*(\([\s\S]*?\)|"[^"]*")/gm)].map((m) => m[1]!.replace(/^\(|\)$/g, "")).join("\n");
}
