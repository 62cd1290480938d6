/**
 * Escaping for GitHub-flavoured Markdown, by context. Text from scanned
 * files (excerpts, paths, URLs in messages) can hold anything: backticks,
 * pipes, HTML, a backslash right before a closing tag. Each context has its
 * own rules, so each gets its own function:
 *
 * - inside an HTML element (`<code>…</code>` in a table cell) the content is
 *   still parsed as Markdown, so every character Markdown or HTML would act
 *   on becomes a numeric entity (a backslash would escape the `<` of
 *   `</code>`, a backtick would open a code span across it);
 * - in a table cell, a pipe ends the cell: outside code spans it becomes an
 *   entity, inside one (where entities are not decoded) GFM's `\|`;
 * - a code span or fenced block is delimited by a backtick run longer than
 *   any inside it.
 */

/** Characters that HTML or inline Markdown act on, as numeric entities (`[` alone: no `[` no link). */
const HTML_CODE_SPECIAL = /[&<>`\\|*_[~$]/g;

function entity(ch: string): string {
  return `&#${ch.codePointAt(0)};`;
}

function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, " ");
}

/** Text to put between `<code>` and `</code>` (in a table cell or a `<summary>`): shown verbatim, on one line. */
export function htmlCode(text: string): string {
  return `<code>${oneLine(text).replace(HTML_CODE_SPECIAL, entity)}</code>`;
}

/** Plain text in a Markdown line or table cell: no HTML, no links or images, no cell breaks; shown as written. */
export function inlineText(text: string): string {
  return oneLine(text).replace(/[&<>\\|[]/g, entity);
}

/**
 * Text that may hold code spans on purpose (a finding's message says
 * "answers `{ runId }`"), for a table cell: code spans are kept, with pipes
 * escaped the way GFM reads them there; the rest is escaped as inlineText.
 */
export function cellMarkdown(text: string): string {
  const line = oneLine(text);
  let out = "";
  let last = 0;
  for (const span of codeSpans(line)) {
    out += inlineText(line.slice(last, span.start));
    out += line.slice(span.start, span.end).replace(/\|/g, "\\|");
    last = span.end;
  }
  return out + inlineText(line.slice(last));
}

/** Code spans as CommonMark finds them: a backtick run closed by a run of the same length. */
function codeSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  // Outside spans every backslash becomes an entity, so no run is backslash-escaped in the output.
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ start: m.index, length: m[0].length }));
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const close = runs.findIndex((r, j) => j > i && r.length === open.length);
    if (close < 0) continue;
    spans.push({ start: open.start, end: runs[close]!.start + open.length });
    i = close;
  }
  return spans;
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

/** A code span outside tables: shown verbatim, whatever backticks it holds. */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  const fence = "`".repeat(longestBacktickRun(line) + 1);
  const pad =
    line.startsWith("`") || line.endsWith("`") || (line.startsWith(" ") && line.endsWith(" ") && line.trim() !== "")
      ? " "
      : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A fenced code block that no line of `text` can close early. */
export function fencedBlock(text: string, language = ""): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}
