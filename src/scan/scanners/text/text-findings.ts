/**
 * How the text scan reports a finding: one per rule and line for endpoints,
 * the severity of the place it is in (comment, docs, code), the fix class
 * lowered to manual where fix can write no marker, and `.env` lines redacted
 * in the excerpt.
 */
import type { EndpointFacts } from "../../../core/facts.js";
import type { Finding } from "../../../core/finding.js";
import { excerptOf, redactEnvLine } from "../../../core/redact.js";
import type { TextFile } from "../../../lang/text/text-file.js";
import { markerSyntaxFor } from "../../../platform/file-types.js";
import type { FixClass, RuleId, Severity } from "../../../rules/catalog.js";
import { FindingSink } from "../../scanner-helpers.js";

export class TextFindings {
  private readonly sink: FindingSink;
  private readonly reported = new Set<string>();

  constructor(
    private readonly source: TextFile,
    private readonly isShell: boolean,
  ) {
    this.sink = new FindingSink(source.file, source.text);
  }

  get findings(): Finding[] {
    return this.sink.findings;
  }

  /** One finding per rule and line for endpoints: a URL, its path and its run_id on one line are one use. */
  reportOnce(
    start: number,
    end: number,
    ruleId: RuleId,
    message: string,
    fix?: FixClass,
    severity?: Severity,
    facts?: EndpointFacts,
  ): void {
    const key = `${ruleId}:${this.source.lineOf(start)}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.report(start, end, ruleId, message, fix, severity, facts);
  }

  report(
    start: number,
    end: number,
    ruleId: RuleId,
    message: string,
    fix?: FixClass,
    severity?: Severity,
    facts?: EndpointFacts,
  ): void {
    const { source } = this;
    const line = source.lineOf(start);
    const excerpt = source.kind === "env" ? excerptOf(redactEnvLine(source.lineText(line))) : undefined;
    this.sink.atOffset(
      start,
      end,
      {
        ruleId,
        message,
        severity: severity ?? source.severityAt(start),
        ...(source.isLeftToAPerson(start) || (fix === "review" && !this.canHoldMarker)
          ? { fix: "manual" as const }
          : fix
            ? { fix }
            : {}),
        ...(facts ? { facts } : {}),
      },
      excerpt,
    );
  }

  /** A script known by its first line only (`bin/render`) has no comment syntax fix can write a review marker in. */
  private get canHoldMarker(): boolean {
    return !this.isShell || markerSyntaxFor(this.source.file) !== undefined;
  }
}
