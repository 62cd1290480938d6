/**
 * In-source suppressions: `comfydeploy-migrate-ignore <ruleId> [until YYYY-MM-DD] -- <reason>`
 * in a comment on the finding's line or the line above, in any comment syntax.
 * Several rule ids may be given, separated by commas. After `until` the
 * finding comes back, with a note.
 */
import type { Finding, SuppressionState } from "./finding.js";
import { RULE_IDS } from "../rules/catalog.js";

export type { SuppressionState };

export const SUPPRESSION_KEYWORD = "comfydeploy-migrate-ignore";

const PATTERN = new RegExp(
  `${SUPPRESSION_KEYWORD}\\s+([a-z0-9*-]+(?:\\s*,\\s*[a-z0-9*-]+)*)(?:\\s+until\\s+(\\d{4}-\\d{2}-\\d{2}))?(?:\\s+--\\s*(.*?))?\\s*(?:\\*\\/|-->|$)`,
);

export interface Suppression {
  line: number;
  rules: string[];
  until?: string;
  reason?: string;
}

export function parseSuppressions(text: string): Suppression[] {
  const out: Suppression[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((lineText, index) => {
    if (!lineText.includes(SUPPRESSION_KEYWORD)) return;
    const match = PATTERN.exec(lineText);
    if (!match) return;
    const rules = match[1]!.split(/\s*,\s*/);
    out.push({
      line: index + 1,
      rules,
      ...(match[2] ? { until: match[2] } : {}),
      ...(match[3] ? { reason: match[3].trim() } : {}),
    });
  });
  return out;
}

/** Attaches suppression state to the findings of one file. */
export function applySuppressions(findings: Finding[], suppressions: readonly Suppression[], today: string): void {
  for (const finding of findings) {
    const match = suppressions.find(
      (s) => (s.line === finding.line || s.line === finding.line - 1) && (s.rules.includes(finding.ruleId) || s.rules.includes("*")),
    );
    if (!match) continue;
    const expired = match.until !== undefined && match.until < today;
    finding.suppression = {
      reason: match.reason ?? "no reason given",
      line: match.line,
      ...(match.until ? { until: match.until } : {}),
      expired,
    };
    if (expired) finding.message += ` (suppression expired on ${match.until})`;
  }
}

/** Rule ids named in a suppression that the catalog does not know, for a warning. */
export function unknownRules(suppression: Suppression): string[] {
  return suppression.rules.filter((r) => r !== "*" && !(RULE_IDS as readonly string[]).includes(r));
}

export function isActivelySuppressed(finding: Finding): boolean {
  return finding.suppression !== undefined && !finding.suppression.expired;
}
