/**
 * One non-JS text file under scan: its lines, its comments and what a
 * finding at an offset weighs (comments and docs are warnings).
 */
import { LineIndex } from "../../core/location.js";
import type { Severity } from "../../rules/catalog.js";
import { type FileKind, type TextSyntax, textSyntaxOf } from "../../platform/file-types.js";
import type { HostSet } from "../../core/urls.js";
import { CommentMap } from "./comments.js";

export class TextFile {
  readonly syntax: TextSyntax;
  private readonly lines: LineIndex;
  private commentMap: CommentMap | undefined;
  private fences: Array<[number, number]> | undefined;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly kind: FileKind,
    readonly hosts: HostSet,
  ) {
    this.syntax = textSyntaxOf(file);
    this.lines = new LineIndex(text);
  }

  get lineCount(): number {
    return this.lines.lineCount;
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    return this.lines.lineOf(offset);
  }

  lineStart(line: number): number {
    return this.lines.lineStart(line);
  }

  /** Offset just past the line's last character (before its newline, and before a CR). */
  lineEnd(line: number): number {
    let end = line < this.lineCount ? this.lineStart(line + 1) - 1 : this.text.length;
    if (end > this.lineStart(line) && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  isComment(offset: number): boolean {
    this.commentMap ??= new CommentMap(this.text, this.syntax);
    return this.commentMap.isComment(offset);
  }

  /** Inside a fenced code block of a Markdown file (```…```, ~~~…~~~). */
  isInCodeBlock(offset: number): boolean {
    this.fences ??= fencedBlocks(this);
    return this.fences.some(([start, end]) => offset >= start && offset < end);
  }

  /** Docs and comments describe the API rather than call it. */
  isProse(offset: number): boolean {
    return this.kind === "docs" || this.isComment(offset);
  }

  severityAt(offset: number): Severity {
    return this.isProse(offset) ? "warning" : "error";
  }

  /**
   * Prose fix leaves to a person (it may describe the old API on purpose):
   * comments, and docs outside Markdown's fenced code, which fix rewrites
   * like code.
   */
  isLeftToAPerson(offset: number): boolean {
    if (this.isComment(offset)) return true;
    return (
      this.kind === "docs" &&
      !(this.syntax === "markup" && /\.(md|mdx|markdown)$/i.test(this.file) && this.isInCodeBlock(offset))
    );
  }
}

function fencedBlocks(file: TextFile): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  if (file.syntax !== "markup") return blocks;
  let open: { start: number; fence: string } | undefined;
  for (let line = 1; line <= file.lineCount; line++) {
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(file.lineText(line))?.[1];
    if (!fence) continue;
    if (!open) open = { start: file.lineStart(line), fence };
    else if (fence[0] === open.fence[0] && fence.length >= open.fence.length) {
      blocks.push([open.start, file.lineEnd(line)]);
      open = undefined;
    }
  }
  if (open) blocks.push([open.start, file.text.length]);
  return blocks;
}
