/**
 * One non-JS text file under scan: its lines, its comments and what a
 * finding at an offset weighs (comments and docs are warnings).
 */
import type { Severity } from "../../rules/catalog.js";
import { type FileKind, type TextSyntax, textSyntaxOf } from "../file-kinds.js";
import type { HostSet } from "../urls.js";
import { CommentMap } from "./comments.js";

export class TextFile {
  readonly syntax: TextSyntax;
  /** Offset of the first character of each line (index 0 is line 1). */
  private readonly lineStarts: number[] = [0];
  private commentMap: CommentMap | undefined;
  private fences: Array<[number, number]> | undefined;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly kind: FileKind,
    readonly hosts: HostSet,
  ) {
    this.syntax = textSyntaxOf(file);
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  lineStart(line: number): number {
    return this.lineStarts[line - 1] ?? this.text.length;
  }

  /** Offset just past the line's last character (before its newline, and before a CR). */
  lineEnd(line: number): number {
    const next = this.lineStarts[line];
    let end = next === undefined ? this.text.length : next - 1;
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
