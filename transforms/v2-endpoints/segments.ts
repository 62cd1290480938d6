/**
 * Where a URL sits in a non-JS text file, as far as an edit needs to know:
 * the string literal body or bare word (shell, .env, YAML plain scalar)
 * around it, and for Markdown whether it is code (a fenced block or an
 * inline code span) rather than prose. One line is read at a time: URLs do
 * not span lines.
 */
import type { TextSyntax } from "../../src/platform/file-types.js";
import type { TextFile } from "../../src/lang/text/text-file.js";

export interface Segment {
  /** Offset of the URL (the finding's start). */
  start: number;
  /** End of the string body or bare word holding it. */
  end: number;
  /** The quote of the string literal, or "" for a bare word. */
  quote: string;
  /** Offset of the literal's opening quote, when the text shows it (its prefix, `$"` or `f"`, says whether it interpolates). */
  open?: number;
  /** The literal interpolates expressions, when its tokens say so (a Python f-string). */
  interpolates?: boolean;
}

/** Quotes with backslash escapes, and quotes whose content is taken literally, per syntax. */
const QUOTES: Partial<Record<TextSyntax, { escaped: string; raw: string }>> = {
  "c-like": { escaped: "\"'", raw: "`" },
  php: { escaped: "\"'", raw: "" },
  hash: { escaped: '"', raw: "'" },
  yaml: { escaped: '"', raw: "'" },
  toml: { escaped: '"', raw: "'" },
  ini: { escaped: '"', raw: "'" },
  env: { escaped: '"', raw: "'" },
  json: { escaped: '"', raw: "" },
  sql: { escaped: '"', raw: "'" },
  // Code in docs is mostly shell.
  markup: { escaped: '"', raw: "'" },
  batch: { escaped: '"', raw: "" },
};

/** Characters that end a bare word holding a URL. */
const WORD_END = /[\s"'`<>|\\,;)\]}]/;

export function segmentAt(file: TextFile, offset: number): Segment {
  const line = file.lineOf(offset);
  const from = file.lineStart(line);
  const to = file.lineEnd(line);
  const quotes = QUOTES[file.syntax] ?? { escaped: '"', raw: "'" };
  let open = -1;
  let quote = "";
  for (let i = from; i < offset; i++) {
    const c = file.text[i]!;
    if (open >= 0) {
      if (c === "\\" && quotes.escaped.includes(quote)) i++;
      else if (c === quote) open = -1;
    } else if (quotes.escaped.includes(c) || quotes.raw.includes(c)) {
      open = i;
      quote = c;
    }
  }
  if (open >= 0) {
    for (let i = offset; i < to; i++) {
      const c = file.text[i]!;
      if (c === "\\" && quotes.escaped.includes(quote)) i++;
      else if (c === quote) return { start: offset, end: i, quote, open };
    }
    return { start: offset, end: to, quote, open };
  }
  let end = offset;
  while (end < to && !WORD_END.test(file.text[end]!)) end++;
  return { start: offset, end, quote: "" };
}

/** The text right after a string literal's closing quote, to the end of its line. */
export function afterSegment(file: TextFile, segment: Segment): string {
  const lineEnd = file.lineEnd(file.lineOf(segment.start));
  return file.text.slice(segment.end + segment.quote.length, lineEnd);
}

/** Code in a Markdown file: fenced blocks (with the line of their opening fence) and inline code spans. */
export class MarkdownCode {
  private readonly blocks: Array<{ start: number; end: number; fenceLine: number }> = [];
  private readonly spans: Array<[number, number]> = [];

  constructor(private readonly file: TextFile) {
    let fence: { marker: string; start: number; line: number } | undefined;
    for (let line = 1; line <= file.lineCount; line++) {
      const text = file.lineText(line);
      const match = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
      if (fence) {
        if (
          match &&
          match[1]![0] === fence.marker[0] &&
          match[1]!.length >= fence.marker.length &&
          text.trim() === match[1]
        ) {
          this.blocks.push({ start: fence.start, end: file.lineEnd(line), fenceLine: fence.line });
          fence = undefined;
        }
      } else if (match) {
        fence = { marker: match[1]!, start: file.lineStart(line), line };
      } else {
        for (const span of text.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
          const start = file.lineStart(line) + span.index!;
          this.spans.push([start, start + span[0].length]);
        }
      }
    }
    if (fence) this.blocks.push({ start: fence.start, end: file.text.length, fenceLine: fence.line });
  }

  isCode(offset: number): boolean {
    return this.blockAt(offset) !== undefined || this.spans.some(([s, e]) => offset >= s && offset < e);
  }

  /** The line a marker goes above: the opening fence of a block (a comment inside would become code). */
  markerLine(offset: number): number {
    return this.blockAt(offset)?.fenceLine ?? this.file.lineOf(offset);
  }

  private blockAt(offset: number): { fenceLine: number } | undefined {
    return this.blocks.find((b) => offset >= b.start && offset < b.end);
  }
}
