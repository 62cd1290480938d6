/**
 * comfydeploy-migrate as a library: the stable API (semver applies to what is
 * exported here and nowhere else). Each function takes the options the CLI
 * fills from flags, with the CLI's defaults; heavy parts (the codemods, the
 * HTTP client) load only when the function that needs them is called.
 *
 *   import { scan, buildReport, renderText } from "comfydeploy-migrate";
 *   const report = buildReport(await scan({ root: "." }));
 */
import { resolve } from "node:path";
import type { HostSet } from "./core/urls.js";
import { DEFAULT_HOSTS } from "./core/urls.js";
import { HOSTS, MIGRATION_FLAG } from "./knowledge/migration.js";
import { buildReport as buildReportModel, type Report, type ReportOptions } from "./report/model.js";
import { scan as scanTree, type ScanOptions, type ScanResult } from "./scan/engine.js";
import type { CheckOptions, CheckResult } from "./check/live-check.js";
import type { FixOptions, FixPlan } from "./fix/runner.js";
import type { TransformId } from "../transforms/types.js";

export type { Finding, SkippedFile } from "./core/finding.js";
export type { FindingFacts } from "./core/facts.js";
export type { HostSet } from "./core/urls.js";
export type { RuleId, Severity, FixClass } from "./rules/catalog.js";
export { RULE_IDS, getRule } from "./rules/catalog.js";
export type { ScanOptions, ScanResult, ScanProgress } from "./scan/engine.js";
export type { Report, ReportOptions, RepoLink } from "./report/model.js";
export type { FixPlan, PlannedChange } from "./fix/runner.js";
export type { CheckResult, Verdict } from "./check/live-check.js";
export type { UserConfig } from "./platform/config.js";
export { loadConfig, hostSetFor } from "./platform/config.js";
export { summarize, type Summary } from "./report/summary.js";
export { renderText } from "./report/text.js";
export { renderJson } from "./report/json.js";
export { renderMarkdown } from "./report/markdown.js";
export { renderSarif } from "./report/sarif.js";
export { renderGithub } from "./report/github.js";
export { renderJunit } from "./report/junit.js";
export { renderCompact } from "./report/compact.js";
/** The door the campaign commands use into scan, fix, pr and check: for tools that drive many repositories. */
export * as campaignTools from "./campaign/tool-api.js";

/** Scan a directory; `hosts` defaults to the vendor's V1 and V2 hosts. */
export async function scan(options: Omit<ScanOptions, "hosts"> & { hosts?: HostSet }): Promise<ScanResult> {
  return scanTree({ ...options, root: resolve(options.root), hosts: options.hosts ?? DEFAULT_HOSTS });
}

/** The report every renderer takes; `command` is what reproduces it (default: empty, as a library call has none). */
export function buildReport(result: ScanResult, options: Partial<ReportOptions> = {}): Report {
  return buildReportModel(result, { command: "", ...options });
}

/** What `fix --dry-run` computes: the changes every transform (or those named) would make. Nothing is written. */
export async function planFix(
  options: Omit<FixOptions, "hosts" | "transforms" | "nodeRef" | "write" | "onWritten"> & {
    hosts?: HostSet;
    transforms?: readonly TransformId[];
  },
): Promise<FixPlan> {
  const [{ planFixes }, { TRANSFORM_IDS }, { DEFAULT_NODE_REF }] = await Promise.all([
    import("./fix/runner.js"),
    import("../transforms/index.js"),
    import("../transforms/node-pin/target.js"),
  ]);
  return planFixes({
    ...options,
    root: resolve(options.root),
    hosts: options.hosts ?? DEFAULT_HOSTS,
    transforms: options.transforms ?? TRANSFORM_IDS,
    nodeRef: DEFAULT_NODE_REF,
  });
}

/** Writes a plan's changes (each file atomically), as `fix` does after planning. */
export async function applyFix(plan: FixPlan, root: string): Promise<void> {
  const { writeFixes } = await import("./fix/write.js");
  await writeFixes(resolve(root), plan.changes);
}

/** The live check (queues one real, billed run): `check`'s defaults for the API, flag and time limits. */
export async function check(
  options: Pick<CheckOptions, "token" | "deploymentId"> & Partial<CheckOptions>,
): Promise<CheckResult> {
  const { runCheck } = await import("./check/live-check.js");
  return runCheck({
    baseUrl: HOSTS.v2.apiBase,
    flag: MIGRATION_FLAG,
    waitSeconds: 300,
    requestTimeoutMs: 30_000,
    maxRetries: 5,
    pollIntervalMs: 1000,
    maxBackoffMs: 30_000,
    ...options,
  });
}
