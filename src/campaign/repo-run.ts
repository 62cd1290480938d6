/**
 * One repository's turn in `campaign run`: read its tip, skip it when the
 * last report already covers that commit with this tool version and these
 * settings, otherwise clone (or refresh the cached clone), scan, optionally
 * fix and open or update its pull request, optionally check its deployment,
 * and write its report. Whatever fails becomes a failed report naming the
 * stage and the reason; it never reaches the other repositories.
 *
 * Scans run in this process rather than one child process per repository:
 * for the small and mid-sized client repositories a campaign covers, loading
 * the scanner (TypeScript above all) costs more than the scan itself, and one
 * loaded copy serves every repository. Memory stays bounded by the
 * concurrency, and large trees still parse on the scanner's worker threads.
 */
import { createHash } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { maskKnownSecrets } from "../core/redact.js";
import { TOOL } from "../platform/tool-info.js";
import { type Checkout, checkoutTip, remoteTip } from "./clone-cache.js";
import { commandLine } from "../platform/command-line.js";
import {
  type CheckRecord,
  type PullRequestState,
  readPreviousReport,
  REPO_REPORT_VERSION,
  type RepoReport,
  type Stage,
  writeRepoReport,
} from "./repo-report.js";
import type { Target } from "./targets.js";
import {
  BOT_IDENTITY,
  buildReport,
  DEFAULT_NODE_REF,
  hostSetFor,
  loadCheckTools,
  loadConfig,
  loadFixPlanner,
  loadPrTools,
  normalizeHost,
  type Report,
  renderScanJson,
  scan,
  type ScanOptions,
  TRANSFORM_IDS,
} from "./tool-api.js";

export interface PullRequestSettings {
  dryRun: boolean;
  /** Run fix --verify's checks before committing; off unless asked for, as the checks read the repository's files. */
  verify: boolean;
  branch?: string;
  title?: string;
  labels: string[];
  draft: boolean;
  apiUrl: string;
}

export interface CheckSettings {
  token: string;
  baseUrl: string;
  flag: string;
  waitSeconds: number;
  pollIntervalMs?: number;
}

export interface RunSettings {
  cacheDir: string;
  /** Where this run writes reports. */
  reportsDir: string;
  /** Where the last run's reports are read from (usually reportsDir). */
  previousDir: string;
  force: boolean;
  legacyHosts: string[];
  pullRequests?: PullRequestSettings;
  check?: CheckSettings;
  /** GitHub token, for clones from the GitHub host and for pull requests. */
  githubToken?: string;
  /** The GitHub web host the token belongs to (github.com, or an Enterprise host). */
  githubHost: string;
  log: (line: string) => void;
}

/** scanned: a new scan; updated: the last scan kept, a pull request step or live check added; unchanged: nothing to do. */
export type RepoOutcome = "scanned" | "updated" | "unchanged" | "failed";

class StageFailure extends Error {
  constructor(
    readonly stage: Stage,
    message: string,
  ) {
    super(message);
  }
}

export async function runRepository(
  target: Target,
  settings: RunSettings,
): Promise<{ report: RepoReport; outcome: RepoOutcome }> {
  const started = new Date();
  const secrets = [settings.githubToken, settings.check?.token];
  const cloneToken = settings.githubToken && tokenFits(target, settings.githubHost) ? settings.githubToken : undefined;
  const base = {
    schemaVersion: REPO_REPORT_VERSION,
    name: target.name,
    url: target.url,
    ...(target.path ? { path: target.path } : {}),
    ...(target.github ? { github: `${target.github.owner}/${target.github.name}` } : {}),
    tool: { name: TOOL.name, version: TOOL.version },
    startedAt: started.toISOString(),
  } as const;
  const previous = await readPreviousReport(settings.previousDir, target.name);
  let report: RepoReport | undefined;
  let stage: Stage = "clone";
  // Held from the checkout until the scan and the pull request are done with the work tree.
  let checkout: Checkout | undefined;
  try {
    const tip = await remoteTip(settings.cacheDir, target, cloneToken);
    const runKey = runKeyOf(target, tip.head, settings);
    // What the last report already covers at this commit: the scan, a pull request step, a live check.
    const kept = !settings.force && previous?.status === "ok" && previous.runKey === runKey ? previous : undefined;
    const pull = settings.pullRequests;
    const wantPull =
      pull !== undefined &&
      !(kept?.pullRequest?.runKey === runKey && (kept.pullRequest.dryRun === pull.dryRun || !kept.pullRequest.dryRun));
    const wantCheck =
      settings.check !== undefined && target.deploymentId !== undefined && kept?.check?.runKey !== runKey;
    if (kept && !wantPull && !wantCheck) {
      if (settings.previousDir !== settings.reportsDir) await writeRepoReport(settings.reportsDir, kept);
      return { report: kept, outcome: "unchanged" };
    }
    report = kept
      ? { ...kept }
      : {
          ...base,
          status: "ok",
          runKey,
          head: tip.head,
          ...(tip.branch ? { branch: tip.branch } : {}),
          durationMs: 0,
          ...(previous?.pullRequest ? { pullRequest: previous.pullRequest } : {}),
          ...(previous?.check ? { check: previous.check } : {}),
        };

    if (!kept || wantPull) {
      stage = "clone";
      checkout = await checkoutTip(settings.cacheDir, target, tip, cloneToken);
      report.head = checkout.head;

      stage = "scan";
      const root = target.path ? join(checkout.dir, target.path) : checkout.dir;
      if (!(await stat(root).catch(() => undefined))?.isDirectory())
        throw new StageFailure(
          "scan",
          `${target.path} is not a directory in ${target.url} at ${checkout.head.slice(0, 12)}`,
        );
      // The repository chooses what its paths are: a symbolic link could send the scan (and fix) anywhere.
      if (target.path && !(await staysInside(checkout.dir, root)))
        throw new StageFailure(
          "scan",
          `${target.path} is a symbolic link that leads out of ${target.url}; not scanned`,
        );
      const { config } = await loadConfig(root);
      config.legacyHosts.push(...settings.legacyHosts.map(normalizeHost));
      const scanSettings = {
        root,
        hosts: hostSetFor(config),
        include: config.include,
        exclude: config.exclude,
        rules: config.rules,
      };
      if (!kept) {
        const scanned = buildReport(await scan(scanSettings), { command: commandLine(["scan", target.path ?? "."]) });
        report.scan = JSON.parse(renderScanJson(scanned)) as RepoReport["scan"];
        report.nodePins = nodePinState(scanned);
      }
      if (pull && wantPull) {
        stage = pull.dryRun ? "fix" : "pr";
        const state = pull.dryRun
          ? await plannedPull(scanSettings)
          : await openPull(target, root, scanSettings, pull, settings, secrets);
        report.pullRequest = { ...state, runKey, dryRun: pull.dryRun };
      }
    }

    if (wantCheck) {
      stage = "check";
      report.check = { ...(await liveCheck(target.deploymentId!, settings.check!)), runKey };
    }
    if (kept) {
      await writeRepoReport(settings.reportsDir, report);
      return { report, outcome: "updated" };
    }
  } catch (error) {
    const reason = oneLine(maskKnownSecrets(error instanceof Error ? error.message : String(error), secrets));
    const failedAt = error instanceof StageFailure ? error.stage : stage;
    report = {
      ...base,
      runKey: report?.runKey ?? "",
      durationMs: 0,
      ...(previous?.pullRequest ? { pullRequest: previous.pullRequest } : {}),
      ...(previous?.check ? { check: previous.check } : {}),
      ...report,
      startedAt: base.startedAt,
      status: "failed",
      failure: { stage: failedAt, reason },
    };
  } finally {
    await checkout?.release();
  }
  report.durationMs = Date.now() - started.getTime();
  await writeRepoReport(settings.reportsDir, report);
  return { report, outcome: report.status === "ok" ? "scanned" : "failed" };
}

/** Everything that changes a scan: when it is equal, the last report's scan still holds. */
function runKeyOf(target: Target, head: string, settings: RunSettings): string {
  const inputs = {
    head,
    tool: TOOL.version,
    path: target.path ?? "",
    legacyHosts: [...settings.legacyHosts].sort(),
  };
  return createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 32);
}

/** The token goes only to the GitHub host it was issued for. */
function tokenFits(target: Target, githubHost: string): boolean {
  if (!/^https:\/\//i.test(target.source)) return false;
  try {
    return new URL(target.source).host.toLowerCase() === githubHost.toLowerCase();
  } catch {
    return false;
  }
}

function nodePinState(report: Report): RepoReport["nodePins"] {
  const pins = report.findings.filter((f) => f.ruleId === "node-component-pin");
  if (pins.some((f) => f.severity === "error")) return "outdated";
  return pins.length > 0 ? "unknown" : "none";
}

type ScanSettings = {
  root: string;
  hosts: ReturnType<typeof hostSetFor>;
  include: string[];
  exclude: string[];
  rules: NonNullable<ScanOptions["rules"]>;
};

/** --dry-run: what fix would change; nothing is written, committed or sent. */
async function plannedPull(scanSettings: ScanSettings): Promise<PullRequestState> {
  const planFixes = await loadFixPlanner();
  const plan = await planFixes({ ...scanSettings, transforms: [...TRANSFORM_IDS], nodeRef: DEFAULT_NODE_REF });
  return {
    state: plan.changes.length > 0 ? "planned" : "none",
    wouldChange: plan.changes.length,
    checkedAt: new Date().toISOString(),
  };
}

async function openPull(
  target: Target,
  root: string,
  scanSettings: ScanSettings,
  pull: PullRequestSettings,
  settings: RunSettings,
  secrets: Array<string | undefined>,
): Promise<PullRequestState> {
  if (!target.github)
    throw new StageFailure("pr", `no GitHub repository known for ${target.url}: add "github: owner/name" to its entry`);
  if (!settings.githubToken) throw new StageFailure("pr", "no GitHub token: set GITHUB_TOKEN or GH_TOKEN");
  const { openOrUpdatePr, defaultBranch, defaultTitle } = await loadPrTools();
  const branch = pull.branch ?? defaultBranch;
  const outcome = await openOrUpdatePr({
    root,
    pathArg: target.path ?? ".",
    branch,
    ...(target.base ? { base: target.base } : {}),
    title: pull.title ?? defaultTitle,
    labels: pull.labels,
    reviewers: [],
    teamReviewers: [],
    draft: pull.draft,
    closeIfClean: false,
    verify: pull.verify,
    author: BOT_IDENTITY,
    committer: BOT_IDENTITY,
    repo: `${target.github.owner}/${target.github.name}`,
    apiUrl: pull.apiUrl,
    token: settings.githubToken,
    fix: {
      hosts: scanSettings.hosts,
      include: scanSettings.include,
      exclude: scanSettings.exclude,
      transforms: [...TRANSFORM_IDS],
      nodeRef: DEFAULT_NODE_REF,
    },
    command: commandLine(["pr", target.path ?? ".", "--repo", `${target.github.owner}/${target.github.name}`]),
    scanCommand: commandLine(["scan", target.path ?? "."]),
    env: process.env,
    log: (line) => settings.log(`${target.name}: ${maskKnownSecrets(line, secrets)}`),
  });
  return {
    state: outcome.number === undefined ? "none" : outcome.operation === "closed" ? "closed" : "open",
    ...(outcome.number !== undefined ? { number: outcome.number } : {}),
    ...(outcome.url ? { url: outcome.url } : {}),
    branch,
    operation: outcome.operation,
    checkedAt: new Date().toISOString(),
  };
}

async function liveCheck(deploymentId: string, check: CheckSettings): Promise<CheckRecord> {
  const { runCheck } = await loadCheckTools();
  const result = await runCheck({
    baseUrl: check.baseUrl,
    token: check.token,
    deploymentId,
    flag: check.flag,
    waitSeconds: check.waitSeconds,
    requestTimeoutMs: 30_000,
    maxRetries: 5,
    pollIntervalMs: check.pollIntervalMs ?? 1000,
    maxBackoffMs: 30_000,
  });
  return {
    deploymentId,
    verdict: result.verdict,
    reason: oneLine(maskKnownSecrets(result.reason, [check.token])),
    checkedAt: new Date().toISOString(),
  };
}

function oneLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

/** Whether `path`, links resolved, is inside `dir`. */
async function staysInside(dir: string, path: string): Promise<boolean> {
  const [realDir, real] = await Promise.all([realpath(dir), realpath(path)]);
  const rel = relative(realDir, real);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
}
