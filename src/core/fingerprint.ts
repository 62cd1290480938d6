/**
 * Finding fingerprints: rule, file and the content of the line (whitespace
 * folded), plus the occurrence number among identical ones. A line that only
 * moved keeps its fingerprint, so baselines and code scanning recognise it.
 */
import { createHash } from "node:crypto";
import type { Finding } from "./finding.js";

export function assignFingerprints(findings: Finding[]): void {
  const seen = new Map<string, number>();
  for (const finding of findings) {
    const content = (finding.excerpt ?? "").replace(/\s+/g, " ").trim();
    const base = `${finding.ruleId}\u0000${finding.file}\u0000${content}`;
    const occurrence = seen.get(base) ?? 0;
    seen.set(base, occurrence + 1);
    finding.fingerprint = createHash("sha256").update(`${base}\u0000${occurrence}`).digest("hex").slice(0, 32);
  }
}
