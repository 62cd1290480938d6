/**
 * The burn-down's memory: one point per merge of new reports, kept in a
 * JSON file that outlives each run (in CI, restored from a cache). A point
 * is dated by its newest scan, not by the merge, and merging the same
 * reports again replaces the last point instead of adding a twin.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod/v4";
import { UsageError } from "../core/errors.js";
import { writeOutput } from "../platform/output.js";
import { type Campaign, type Counts, type HistoryPoint, historyPointSchema } from "./campaign-model.js";
import type { RepoReport } from "./repo-report.js";

/** Enough for years of daily runs; older points drop off the front. */
const MAX_POINTS = 1000;

const historyFileSchema = z.strictObject({ schemaVersion: z.literal(1), points: z.array(historyPointSchema) });

export async function readHistory(file: string): Promise<HistoryPoint[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`history file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = historyFileSchema.safeParse(json);
  if (!parsed.success)
    throw new UsageError(
      `history file ${file} is not a campaign history (${parsed.error.issues[0]?.message ?? "unknown shape"})`,
    );
  return parsed.data.points;
}

export async function writeHistory(file: string, points: readonly HistoryPoint[]): Promise<void> {
  await writeOutput(`${JSON.stringify({ schemaVersion: 1, points }, null, 2)}\n`, file);
}

/** Which reports a point comes from: their names, run keys, outcomes and scan times. */
export function reportsDigest(reports: readonly RepoReport[]): string {
  const parts = reports.map((r) => `${r.name}\0${r.runKey}\0${r.status}\0${r.startedAt}`).sort();
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 24);
}

/**
 * The history with this merge's point added (or the identical last one replaced), oldest first.
 * A repository whose run failed before its scan keeps its last known findings and marks the
 * point partial: a failed clone is not progress, and its return is not a regression.
 */
export function withPoint(
  points: readonly HistoryPoint[],
  campaign: Omit<Campaign, "history">,
  reports: readonly RepoReport[],
): HistoryPoint[] {
  const newest =
    reports
      .map((r) => r.startedAt)
      .sort()
      .at(-1) ?? "";
  const digest = reportsDigest(reports);
  const kept = points.filter((p) => p.digest !== digest);
  const known = kept.findLast((p) => p.byRepository !== undefined)?.byRepository ?? {};
  const byRepository: Record<string, Counts> = {};
  const partial: string[] = [];
  for (const row of campaign.repositories) {
    if (row.scanned) byRepository[row.name] = row.findings;
    else {
      partial.push(row.name);
      byRepository[row.name] = known[row.name] ?? { total: 0, error: 0, warning: 0, info: 0 };
    }
  }
  const findings: Counts = { total: 0, error: 0, warning: 0, info: 0 };
  for (const c of Object.values(byRepository))
    for (const key of ["total", "error", "warning", "info"] as const) findings[key] += c[key];
  const point: HistoryPoint = {
    at: newest || campaign.generatedAt,
    digest,
    repositories: campaign.totals.repositories,
    ready: campaign.totals.ready,
    failed: campaign.totals.failed,
    findings,
    byRepository,
    ...(partial.length > 0 ? { partial } : {}),
    pullRequests: { ...campaign.totals.pullRequests },
  };
  return [...kept, point].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(-MAX_POINTS);
}
