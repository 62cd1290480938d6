/**
 * `campaign run`: one shard of the campaign (or all of it) with bounded
 * concurrency. Each repository gets its report as soon as it is done, so an
 * interrupted run resumes where it stopped; repositories sharing one clone
 * (a monorepo listed with several paths) take turns.
 */
import { readdir, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { type RepoOutcome, type RunSettings, runRepository } from "./repo-run.js";
import { isOwnReport, type RepoReport } from "./repo-report.js";
import { KeyedLock, mapLimit } from "../platform/concurrency.js";
import type { Target } from "./targets.js";

export interface RepoResult {
  target: Target;
  report: RepoReport;
  outcome: RepoOutcome;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "comfydeploy-migrate", "campaign");
}

export async function runCampaign(
  targets: readonly Target[],
  concurrency: number,
  settings: RunSettings,
): Promise<RepoResult[]> {
  const lock = new KeyedLock();
  let done = 0;
  return mapLimit(targets, concurrency, async (target) => {
    const { report, outcome } = await lock.with(target.source, () => runRepository(target, settings));
    done++;
    settings.log(`[${done}/${targets.length}] ${target.name}: ${describe(report, outcome)}`);
    return { target, report, outcome };
  });
}

function describe(report: RepoReport, outcome: RepoOutcome): string {
  if (outcome === "failed")
    return `FAILED at ${report.failure?.stage ?? "?"}: ${report.failure?.reason ?? "unknown reason"}`;
  const s = report.scan?.summary;
  const counts = s
    ? `${s.total} finding${s.total === 1 ? "" : "s"} (${s.bySeverity.error} error${s.bySeverity.error === 1 ? "" : "s"}, ${s.bySeverity.warning} warning${s.bySeverity.warning === 1 ? "" : "s"})`
    : "no scan";
  const fresh = outcome === "scanned" || outcome === "updated";
  const pr =
    report.pullRequest && fresh && report.pullRequest.state !== "none"
      ? `; pull request ${report.pullRequest.number !== undefined ? `#${report.pullRequest.number} ` : ""}${report.pullRequest.operation ?? report.pullRequest.state}${report.pullRequest.wouldChange !== undefined ? ` (fix would change ${report.pullRequest.wouldChange} files)` : ""}`
      : "";
  const check = report.check && fresh ? `; live check ${report.check.verdict}` : "";
  const head = report.head ? ` at ${report.head.slice(0, 8)}` : "";
  if (outcome === "unchanged") return `unchanged${head}, ${counts} (last report kept)`;
  if (outcome === "updated") return `unchanged${head}, ${counts} (last scan kept)${pr}${check}`;
  return `${counts}${head}${pr}${check}, ${(report.durationMs / 1000).toFixed(1)} s`;
}

/**
 * After a run over the whole campaign: reports of repositories the campaign
 * no longer lists would linger on the dashboard, so they go. Returns their names.
 */
export async function pruneReports(reportsDir: string, keep: readonly Target[]): Promise<string[]> {
  const names = new Set(keep.map((t) => `${t.name}.json`));
  const candidates = (await readdir(reportsDir).catch(() => [] as string[])).filter(
    (f) => f.endsWith(".json") && !names.has(f),
  );
  // Someone else's JSON in repos/ stays: only reports campaign wrote go.
  const stale: string[] = [];
  for (const f of candidates) if (await isOwnReport(reportsDir, f)) stale.push(f);
  await Promise.all(stale.map((f) => rm(join(reportsDir, f), { force: true })));
  return stale.map((f) => f.slice(0, -".json".length));
}
