/**
 * Baselines: a previous JSON report. Findings already in it (same rule, file
 * and fingerprint) are known debt: not reported, never failing the run.
 */
import { readFile } from "node:fs/promises";
import { UsageError } from "../core/errors.js";
import type { Finding } from "../core/finding.js";

export type Baseline = ReadonlySet<string>;

function keyOf(f: { ruleId: string; file: string; fingerprint?: string }): string {
  return `${f.ruleId}\u0000${f.file}\u0000${f.fingerprint ?? ""}`;
}

export async function loadBaseline(path: string): Promise<Baseline> {
  const text = await readFile(path, "utf8").catch(() => {
    throw new UsageError(`baseline file not found: ${path}`);
  });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`baseline ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const report = data as { schemaVersion?: unknown; findings?: unknown; suppressed?: unknown };
  if (report.schemaVersion !== 1 || !Array.isArray(report.findings)) {
    throw new UsageError(`baseline ${path} is not a comfydeploy-migrate JSON report (schemaVersion 1)`);
  }
  const entries = [...report.findings, ...(Array.isArray(report.suppressed) ? report.suppressed : [])] as Array<
    Record<string, unknown>
  >;
  const keys = new Set<string>();
  for (const f of entries) {
    if (typeof f.ruleId !== "string" || typeof f.file !== "string" || typeof f.fingerprint !== "string") {
      throw new UsageError(
        `baseline ${path} has findings without fingerprints; regenerate it with this version (--format json)`,
      );
    }
    keys.add(keyOf(f as { ruleId: string; file: string; fingerprint: string }));
  }
  return keys;
}

export function isInBaseline(finding: Finding, baseline: Baseline): boolean {
  return baseline.has(keyOf(finding));
}
