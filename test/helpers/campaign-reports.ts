/** Repository reports as campaign run writes them, built in memory for the campaign's unit tests. */
import type { RepoReport } from "../../src/campaign/repo-report.js";

/** A repository's report with what every run writes, and nothing of its stages. */
export function repoReport(name: string, extra: Partial<RepoReport> = {}): RepoReport {
  return {
    schemaVersion: 1,
    name,
    url: `https://github.com/acme/${name}.git`,
    github: `acme/${name}`,
    status: "ok",
    tool: { name: "comfydeploy-migrate", version: "0.1.0" },
    runKey: `${name}-key`,
    startedAt: "2025-03-01T10:00:00.000Z",
    durationMs: 10,
    ...extra,
  };
}

/** A scanned repository with findings by rule (rule → count, all errors). */
export function scannedReport(
  name: string,
  byRule: Record<string, number>,
  extra: Partial<RepoReport> = {},
): RepoReport {
  const total = Object.values(byRule).reduce((a, b) => a + b, 0);
  return repoReport(name, {
    scan: {
      schemaVersion: 1,
      summary: { total, files: 1, bySeverity: { error: total, warning: 0, info: 0 }, byRule: { ...byRule } },
      findings: Object.entries(byRule).flatMap(([ruleId, n]) =>
        Array.from({ length: n }, () => ({ ruleId, severity: "error" as const })),
      ),
    },
    ...extra,
  });
}

/** A repository whose run failed before its scan (a clone that failed). */
export function failedReport(name: string, extra: Partial<RepoReport> = {}): RepoReport {
  const { scan: _scan, ...rest } = scannedReport(name, {});
  return { ...rest, status: "failed", failure: { stage: "clone", reason: "fatal: repository not found" }, ...extra };
}
