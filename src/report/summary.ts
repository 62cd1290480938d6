/** Counts shared by every report format. */
import type { Finding } from "../core/finding.js";
import { type FixClass, RULE_IDS, type RuleId, type Severity } from "../rules/catalog.js";

export interface Summary {
  total: number;
  files: number;
  bySeverity: Record<Severity, number>;
  byRule: Partial<Record<RuleId, number>>;
  byFix: Record<FixClass, number>;
}

export function summarize(findings: readonly Finding[]): Summary {
  const bySeverity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const byFix: Record<FixClass, number> = { auto: 0, review: 0, manual: 0 };
  const counts = new Map<RuleId, number>();
  const files = new Set<string>();
  for (const f of findings) {
    bySeverity[f.severity]++;
    byFix[f.fix]++;
    counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
    files.add(f.file);
  }
  const byRule: Partial<Record<RuleId, number>> = {};
  for (const id of RULE_IDS) {
    const n = counts.get(id);
    if (n) byRule[id] = n;
  }
  return { total: findings.length, files: files.size, bySeverity, byRule, byFix };
}

export const FIX_CLASS_MEANING: Record<FixClass, string> = {
  auto: "fix rewrites these",
  review: "fix rewrites where the shape is known, else leaves a review marker",
  manual: "needs a person",
};

export function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  return byFile;
}
