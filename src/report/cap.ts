/**
 * A generated file can hold thousands of V1 URLs. A report lists at most
 * MAX_PER_RULE_AND_FILE findings of one rule in one file, then one finding
 * that says how many more there are, so one file cannot flood a report. The
 * scan itself keeps them all: fix still rewrites every site.
 */
import type { Finding } from "../core/finding.js";

export const MAX_PER_RULE_AND_FILE = 100;

export function capPerRuleAndFile(findings: readonly Finding[]): Finding[] {
  const totals = new Map<string, number>();
  for (const f of findings) totals.set(keyOf(f), (totals.get(keyOf(f)) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out: Finding[] = [];
  for (const f of findings) {
    const key = keyOf(f);
    const index = (seen.get(key) ?? 0) + 1;
    seen.set(key, index);
    if (index <= MAX_PER_RULE_AND_FILE) out.push(f);
    else if (index === MAX_PER_RULE_AND_FILE + 1) {
      const more = totals.get(key)! - MAX_PER_RULE_AND_FILE;
      out.push({
        ...f,
        message: `${more} more ${f.ruleId} finding${more === 1 ? "" : "s"} in this file, from this line on, are not listed (a report lists ${MAX_PER_RULE_AND_FILE} per rule and file). ${f.message}`,
      });
    }
  }
  return out;
}

function keyOf(f: Finding): string {
  return `${f.file}\u0000${f.ruleId}`;
}
