/** The findings model every scanner produces and every renderer reads. */
import type { FixClass, RuleId, Severity } from "../rules/catalog.js";
import { getRule } from "../rules/catalog.js";
import type { FindingFacts } from "./facts.js";
import type { Location, Span } from "./location.js";

export interface Finding extends Location {
  ruleId: RuleId;
  severity: Severity;
  /** Repository-relative POSIX path. */
  file: string;
  message: string;
  fix: FixClass;
  /** The source line, secrets redacted. */
  excerpt?: string;
  /**
   * Where the finding is as UTF-16 offsets [start, end) into the text the
   * scanner read (BOM removed, line endings as in the file). Every scanner
   * sets it; findings read back from a JSON report have none.
   */
  span?: Span;
  /** What the scanner proved, typed per kind, for the transforms and resolvers; not part of the JSON contract. */
  facts?: FindingFacts;
  /** Stable across runs and line moves: rule, file, the line's content and its occurrence. */
  fingerprint?: string;
  /** Set when an in-source comment suppresses the finding. */
  suppression?: SuppressionState;
}

/** An in-source suppression comment that covers a finding. */
export interface SuppressionState {
  reason: string;
  /** The line the suppression comment is on. */
  line: number;
  until?: string;
  /** True when `until` has passed: the finding counts again. */
  expired: boolean;
}

export interface SkippedFile {
  file: string;
  reason: string;
}

export interface FindingInput {
  ruleId: RuleId;
  message: string;
  location: Location;
  /** The same place as text offsets, for the transforms. */
  span?: Span;
  facts?: FindingFacts;
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
    ...(input.span ? { span: input.span } : {}),
    ...(input.facts ? { facts: input.facts } : {}),
  };
}

/** A finding's span; every finding a scanner makes has one (findings read back from a report do not). */
export function spanOf(finding: Finding): Span {
  if (!finding.span) throw new Error(`finding ${finding.ruleId} at ${finding.file}:${finding.line} has no span`);
  return finding.span;
}

/** Stable order: by file, then position, then rule. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
}
