/** The findings model every scanner produces and every renderer reads. */
import type { FixClass, RuleId, Severity } from "./rules/catalog.js";
import type { SuppressionState } from "./scan/suppressions.js";
import { getRule } from "./rules/catalog.js";

export interface Location {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like editors and SARIF. */
  column: number;
  endLine: number;
  /** 1-based, exclusive: the column just after the last character. */
  endColumn: number;
}

export interface Finding extends Location {
  ruleId: RuleId;
  severity: Severity;
  /** Repository-relative POSIX path. */
  file: string;
  message: string;
  fix: FixClass;
  /** The source line, secrets redacted. */
  excerpt?: string;
  /** Structured facts for fixers and resolvers (e.g. the pinned ref); not part of the JSON contract. */
  data?: Record<string, string>;
  /** Stable across runs and line moves: rule, file, the line's content and its occurrence. */
  fingerprint?: string;
  /** Set when an in-source comment suppresses the finding. */
  suppression?: SuppressionState;
}

export interface SkippedFile {
  file: string;
  reason: string;
}

export interface FindingInput {
  ruleId: RuleId;
  message: string;
  location: Location;
  /** Overrides the rule's default severity (comments and docs are warnings). */
  severity?: Severity;
  /** Overrides the rule's default fix class (e.g. a URL whose method is unknown). */
  fix?: FixClass;
}

export function makeFinding(file: string, input: FindingInput): Finding {
  const rule = getRule(input.ruleId);
  return {
    ruleId: input.ruleId,
    severity: input.severity ?? rule.severity,
    file,
    ...input.location,
    message: input.message,
    fix: input.fix ?? rule.fix,
  };
}

/** Stable order: by file, then position, then rule. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
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
