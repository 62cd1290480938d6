/** Small helpers scanners share: locating findings in text and reporting unreadable files. */
import { type Finding, type FindingInput, makeFinding } from "../core/finding.js";
import { LineIndex } from "../core/location.js";
import { excerptOf } from "../core/redact.js";
import { isStackOverflow } from "../core/errors.js";

/** Builds findings for one file from text offsets, with excerpts. */
export class FindingSink {
  readonly findings: Finding[] = [];
  readonly lines: LineIndex;

  constructor(
    readonly file: string,
    text: string,
  ) {
    this.lines = new LineIndex(text);
  }

  /** A finding covering text[start, end). */
  atOffset(start: number, end: number, input: Omit<FindingInput, "location" | "span">, excerpt?: string): Finding {
    const location = this.lines.location(start, end);
    const finding = makeFinding(this.file, { ...input, location, span: { start, end } });
    finding.excerpt = excerpt ?? excerptOf(this.lines.lineText(location.line));
    this.findings.push(finding);
    return finding;
  }

  /** A finding on a whole line (1-based), or on the first occurrence of `needle` in it. */
  atLine(line: number, input: Omit<FindingInput, "location" | "span">, needle?: string): Finding {
    const text = this.lines.lineText(line);
    const index = needle ? Math.max(0, text.indexOf(needle)) : text.length - text.trimStart().length;
    const length = needle && text.includes(needle) ? needle.length : text.trim().length;
    const location = { line, column: index + 1, endLine: line, endColumn: index + 1 + Math.max(1, length) };
    const start = this.lines.lineStart(line) + index;
    const finding = makeFinding(this.file, { ...input, location, span: { start, end: start + Math.max(1, length) } });
    finding.excerpt = excerptOf(text);
    this.findings.push(finding);
    return finding;
  }

  /** The parser could not read the file: one warning, and the scan goes on. */
  unreadable(message: string, line = 1): Finding {
    return this.atLine(Math.max(1, line), {
      ruleId: "unreadable-file",
      message: `could not be parsed: ${oneLine(message)}`,
    });
  }
}

function oneLine(message: string): string {
  const first = message.split(/\r?\n/).find((l) => l.trim() !== "") ?? message;
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}

/** 1-based line of the first match of a pattern at or after an offset, for parsers that give no positions. */
export function lineOfMatch(text: string, pattern: RegExp, from = 0): number | undefined {
  const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  re.lastIndex = from;
  const match = re.exec(text);
  if (!match) return undefined;
  let line = 1;
  for (let i = 0; i < match.index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Why a parser or an analysis gave up on a file, in words a user can act on. */
export function failureReason(error: unknown): string {
  if (isStackOverflow(error)) return "nested too deeply";
  return error instanceof Error ? error.message : String(error);
}
