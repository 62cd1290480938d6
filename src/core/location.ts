/** Where a finding is: 1-based line and column ranges, and the index that computes them from offsets. */

/** A range of a text as UTF-16 offsets: start inclusive, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

export interface Location {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like editors and SARIF. */
  column: number;
  endLine: number;
  /** 1-based, exclusive: the column just after the last character. */
  endColumn: number;
}

/** Maps offsets in a text to 1-based line/column positions. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Offset of the first character of a 1-based line; the text's length past the last line. */
  lineStart(line: number): number {
    return this.starts[line - 1] ?? this.text.length;
  }

  position(offset: number): { line: number; column: number } {
    const line = this.lineOf(offset);
    return { line, column: offset - this.starts[line - 1]! + 1 };
  }

  location(start: number, end: number): Location {
    const from = this.position(start);
    const to = this.position(end);
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }

  lineText(line: number): string {
    const start = this.starts[line - 1] ?? 0;
    const next = this.starts[line];
    const end = next === undefined ? this.text.length : next - 1;
    return this.text.slice(start, end).replace(/\r$/, "");
  }
}
