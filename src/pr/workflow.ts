/**
 * `pr` step by step: plan the fix, ask GitHub for the open pull request
 * (before touching anything, so a bad token fails early), commit the fix on a
 * detached HEAD, force-push only when the branch's tree changes, then create
 * or update the one pull request from that branch.
 */
import { runCheck } from "../check/live-check.js";
import { RuntimeFailure, UsageError } from "../core/errors.js";
import { normalize, planFixes, type FixPlan } from "../fix/runner.js";
import type { RepoLink } from "../report/model.js";
import { findReviewMarkers } from "../scan/review-markers.js";
import type { ScanOptions } from "../scan/engine.js";
import { TOOL } from "../platform/tool-info.js";
import { renderPrBody } from "./body.js";
import { bodyParts, inRepoVerification } from "./body-inputs.js";
import { commitFixes } from "./fix-commit.js";
import { type CheckoutPosition, Git } from "./git.js";
import { GitHubClient, type PullRequest } from "./github.js";
import type { PrOutcome } from "./outcome.js";
import { type GitHubRepository, resolveRepository } from "./repository.js";
import type { PrSettings } from "./settings.js";

export const REMOTE = "origin";
export { DEFAULT_BRANCH, DEFAULT_TITLE } from "./defaults.js";
export type { PrSettings } from "./settings.js";

interface Located {
  git: Git;
  position: CheckoutPosition;
  /** The fixed directory relative to the repository root ("" or "dir/"), so paths in the body are the repository's. */
  prefix: string;
  originUrl?: string;
  repo?: GitHubRepository;
}

/** Where the checkout stands and which GitHub repository it belongs to; reads only. */
async function locate(settings: PrSettings): Promise<Located> {
  const git = new Git(settings.root);
  const position = await git.position().catch(() => {
    throw new UsageError(`${settings.pathArg} has no commit to start from: commit something first`);
  });
  const prefix = await git.prefix();
  const originUrl = await git.remoteUrl(REMOTE);
  const repo = resolveRepository({ repo: settings.repo, apiUrl: settings.apiUrl, originUrl, env: settings.env });
  return { git, position, prefix, ...(originUrl ? { originUrl } : {}), ...(repo ? { repo } : {}) };
}

function planOf(settings: PrSettings): Promise<FixPlan> {
  return planFixes({ root: settings.root, ...settings.fix });
}

function scanOptionsOf(settings: PrSettings): ScanOptions {
  const { hosts, include, exclude, rules } = settings.fix;
  return { root: settings.root, hosts, include, exclude, ...(rules ? { rules } : {}) };
}

/** --dry-run: the plan and the body, from the fix planned in memory. Writes, pushes and sends nothing. */
export async function previewPr(settings: PrSettings): Promise<string> {
  const { position, prefix, repo } = await locate(settings);
  const plan = await planOf(settings);
  const changed = new Set(plan.changes.map((c) => c.file));
  const untouched = plan.scan.findings.filter((f) => !changed.has(f.file));
  const markers = [
    ...untouched.filter((f) => f.ruleId === "review-marker"),
    ...plan.changes.flatMap((c) => findReviewMarkers(c.file, normalize(c.after).text)),
  ];
  const body = renderPrBody({
    ...bodyParts(settings, prefix, plan, { ...plan.scan, findings: untouched }, markers, undefined),
    estimated: true,
    ...(settings.check ? { check: { kind: "planned" as const, deploymentId: settings.check.deploymentId } } : {}),
  });

  const rewrites = countEvents(plan, "rewrite");
  const added = countEvents(plan, "marker");
  const start = position.branch ?? `detached HEAD ${position.commit.slice(0, 7)}`;
  const base = settings.base ?? position.branch;
  const lines = [
    "pr --dry-run: nothing is written, committed or pushed, and the GitHub API is not called.",
    "",
    `repository  ${repo ? `${repo.owner}/${repo.name} (from ${repo.source})` : "unknown: pass --repo owner/name (origin is not a GitHub URL)"}`,
    `api         ${repo?.apiUrl ?? settings.apiUrl ?? "-"}`,
    `base        ${base ? `${base}${settings.base ? "" : " (the checked-out branch; without --dry-run the repository's default branch, unless --base)"}` : "unknown: pass --base"}`,
    `branch      ${settings.branch} (fix committed on top of ${start})`,
    `title       ${settings.title}`,
    `labels      ${settings.labels.join(", ") || "-"}`,
    `reviewers   ${[...settings.reviewers, ...settings.teamReviewers].join(", ") || "-"}`,
    `assignees   ${settings.assignees?.join(", ") || "-"}`,
    `draft       ${settings.draft ? "yes" : "no"}`,
    `author      ${settings.author.name} <${settings.author.email}>`,
    `committer   ${settings.committer.name} <${settings.committer.email}>`,
    `fix         would change ${plural(plan.changes.length, "file")}: ${plural(rewrites, "site")} rewritten, ${plural(added, "review marker")} added`,
  ];
  for (const change of plan.changes) lines.push(`              ${prefix}${change.file}`);
  lines.push("", "Without --dry-run:");
  if (plan.changes.length === 0) {
    lines.push(
      settings.closeIfClean
        ? `  nothing to commit; the open pull request from ${settings.branch}, if any, is closed (--close-if-clean).`
        : `  nothing to commit or push; an open pull request from ${settings.branch} is left as it is.`,
    );
  } else {
    const steps = [
      ...(settings.check
        ? [`queue a live check run of deployment ${settings.check.deploymentId} (billed) for the body`]
        : []),
      ...(settings.verify
        ? ["run the project's own checks on the changed files (tsc, node --check, Python syntax) for the body"]
        : []),
      `commit the fix on top of ${position.commit.slice(0, 7)} (the checked-out branch does not move)`,
      `fetch ${REMOTE} ${settings.branch}; force-push the commit there only when its tree differs`,
      `update the open pull request from ${settings.branch}, or create one into ${base ?? "the default branch"}${settings.draft ? " as a draft" : ""}`,
      ...(settings.labels.length > 0 ? [`add the labels ${settings.labels.join(", ")}`] : []),
      ...(settings.reviewers.length + settings.teamReviewers.length > 0
        ? ["request the reviewers (on a new pull request only)"]
        : []),
      ...(settings.assignees?.length ? ["assign it (on a new pull request only)"] : []),
    ];
    for (const [i, step] of steps.entries()) lines.push(`  ${i + 1}. ${step}`);
  }
  lines.push("", `----- pull request body (${body.length} characters) -----`, "", body);
  return `${lines.join("\n")}\n`;
}

/** The real run. Local state is back where it was whatever happens after the commit. */
export async function openOrUpdatePr(settings: PrSettings): Promise<PrOutcome> {
  const token = settings.token;
  if (!token) throw new UsageError("no GitHub token: set GITHUB_TOKEN or GH_TOKEN (or pass --dry-run)");
  const { git, position, prefix, originUrl, repo } = await locate(settings);
  if (!repo)
    throw new UsageError(
      `cannot tell the GitHub repository: ${REMOTE} is ${originUrl ? "not a GitHub URL" : "missing"}; pass --repo owner/name`,
    );
  if (!originUrl) throw new UsageError(`the repository has no remote named ${REMOTE} to push the branch to`);
  if (settings.branch === position.branch)
    throw new UsageError(`--branch ${settings.branch} is the checked-out branch; the fix needs a branch of its own`);
  git.useToken(originUrl, token);
  const github = new GitHubClient({
    apiUrl: repo.apiUrl,
    token,
    owner: repo.owner,
    name: repo.name,
    ...(settings.apiBudgetMs !== undefined ? { budgetMs: settings.apiBudgetMs } : {}),
    onWait: (reason, ms) => settings.log(`GitHub API answered ${reason}; asking again in ${Math.ceil(ms / 1000)}s`),
  });
  const outcome: PrOutcome = {
    operation: "unchanged",
    branch: settings.branch,
    pushed: false,
    changedFiles: 0,
    warnings: [],
  };

  // Asked first: a bad token or repository fails here, before anything is written.
  const open = await github.findOpenPull(settings.branch, settings.base);
  if (open) Object.assign(outcome, { number: open.number, url: open.url, base: open.base });
  const plan = await planOf(settings);

  if (plan.changes.length === 0) return finishClean(settings, github, open, outcome);
  const base = settings.base ?? open?.base ?? (await github.defaultBranch());
  outcome.base = base;
  if (settings.branch === base)
    throw new UsageError(`--branch ${settings.branch} is the base branch; the fix needs a branch of its own`);

  const check = settings.check ? await liveCheck(settings) : undefined;
  const rewrites = countEvents(plan, "rewrite");
  const markers = countEvents(plan, "marker");
  const fixCommit = await commitFixes({
    git,
    position,
    root: settings.root,
    changes: plan.changes,
    scanOptions: scanOptionsOf(settings),
    message:
      settings.commitMessage ??
      `${settings.title}\n\n${TOOL.name} ${TOOL.version} fix: ${plural(plan.changes.length, "file")} changed, ${plural(rewrites, "site")} rewritten, ${plural(markers, "review marker")} added.`,
    author: settings.author,
    committer: settings.committer,
    verify: settings.verify,
  });
  if (!fixCommit) return finishClean(settings, github, open, outcome);
  outcome.changedFiles = plan.changes.length;
  settings.log(
    `committed the fix (${plural(plan.changes.length, "file")}) as ${fixCommit.commit.slice(0, 7)} on top of ${position.commit.slice(0, 7)}`,
  );

  const remote = await git.remoteBranch(REMOTE, settings.branch);
  if (remote?.tree === fixCommit.tree) {
    outcome.commit = remote.commit;
    settings.log(`${REMOTE}/${settings.branch} already has this fix: not pushed`);
  } else {
    await git.forcePush(REMOTE, fixCommit.commit, settings.branch, remote?.commit);
    outcome.commit = fixCommit.commit;
    outcome.pushed = true;
    settings.log(
      `pushed ${fixCommit.commit.slice(0, 7)} to ${REMOTE}/${settings.branch}${remote ? " (forced: the fix result changed)" : ""}`,
    );
  }

  const link: RepoLink = { url: `${repo.serverUrl}/${repo.owner}/${repo.name}`, commit: outcome.commit! };
  const body = renderPrBody({
    ...bodyParts(
      settings,
      prefix,
      plan,
      fixCommit.after,
      fixCommit.after.findings.filter((f) => f.ruleId === "review-marker"),
      link,
    ),
    ...(fixCommit.verification ? { verification: inRepoVerification(fixCommit.verification, prefix) } : {}),
    ...(check ? { check: { kind: "result" as const, result: check } } : {}),
  });

  if (open) {
    const rebase = settings.base !== undefined && settings.base !== open.base;
    // Labels it lacks, e.g. when a run that created it failed before labelling it.
    const missingLabels = settings.labels.filter((label) => !open.labels.includes(label));
    if (open.title !== settings.title || !sameText(open.body, body) || rebase) {
      await afterPush(
        github.updatePull(open.number, { title: settings.title, body, ...(rebase ? { base: settings.base } : {}) }),
        "update",
      );
      outcome.operation = "updated";
    } else {
      outcome.operation = outcome.pushed || missingLabels.length > 0 ? "updated" : "unchanged";
    }
    if (outcome.operation === "updated") await decorate(settings, github, open.number, false, outcome, missingLabels);
    settings.log(`pull request #${open.number} ${outcome.operation}: ${open.url}`);
    return outcome;
  }
  const created = await afterPush(
    github.createPull({ head: settings.branch, base, title: settings.title, body, draft: settings.draft }),
    "open",
  );
  Object.assign(outcome, { operation: "created", number: created.number, url: created.url });
  await decorate(settings, github, created.number, true, outcome);
  settings.log(`created pull request #${created.number}: ${created.url}`);
  return outcome;
}

/** The branch is on origin by now: a failure says so, since a rerun picks up from there. */
async function afterPush<T>(step: Promise<T>, verb: "open" | "update"): Promise<T> {
  try {
    return await step;
  } catch (error) {
    const note = `; the branch is pushed; rerun to ${verb} the PR`;
    if (error instanceof UsageError) throw new UsageError(`${error.message}${note}`);
    if (error instanceof RuntimeFailure) throw new RuntimeFailure(`${error.message}${note}`);
    throw error;
  }
}

/** Nothing left to change: report the open pull request, or close it when asked. */
async function finishClean(
  settings: PrSettings,
  github: GitHubClient,
  open: PullRequest | undefined,
  outcome: PrOutcome,
): Promise<PrOutcome> {
  if (open && settings.closeIfClean) {
    await github.updatePull(open.number, { state: "closed" });
    settings.log(`nothing left to change: closed pull request #${open.number}`);
    return { ...outcome, operation: "closed" };
  }
  settings.log(`nothing to change${open ? `; pull request #${open.number} left as it is` : ""}`);
  return outcome;
}

/** Labels it lacks on every write; reviewers and assignees only on a new pull request (asking again would notify people twice). */
async function decorate(
  settings: PrSettings,
  github: GitHubClient,
  number: number,
  created: boolean,
  outcome: PrOutcome,
  labels: readonly string[] = settings.labels,
): Promise<void> {
  const attempt = async (step: () => Promise<void>): Promise<void> => {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof RuntimeFailure)) throw error;
      outcome.warnings.push(error.message);
      settings.log(`warning: ${error.message}`);
    }
  };
  if (labels.length > 0) await attempt(() => github.addLabels(number, labels));
  if (created && settings.reviewers.length + settings.teamReviewers.length > 0) {
    await attempt(() =>
      github.requestReviewers(
        number,
        settings.reviewers,
        settings.teamReviewers.map((t) => t.slice(t.indexOf("/") + 1)),
      ),
    );
  }
  const assignees = settings.assignees ?? [];
  if (created && assignees.length > 0) await attempt(() => github.addAssignees(number, assignees));
}

async function liveCheck(settings: PrSettings) {
  const check = settings.check!;
  settings.log(`queueing a live check run of deployment ${check.deploymentId} (up to ${check.waitSeconds}s)`);
  return runCheck({
    baseUrl: check.baseUrl,
    token: check.token,
    deploymentId: check.deploymentId,
    flag: check.flag,
    waitSeconds: check.waitSeconds,
    requestTimeoutMs: 30_000,
    maxRetries: 5,
    pollIntervalMs: 1000,
    maxBackoffMs: 30_000,
  });
}

function countEvents(plan: FixPlan, kind: "rewrite" | "marker"): number {
  return plan.changes.reduce((n, c) => n + c.events.filter((e) => e.kind === kind).length, 0);
}

/** GitHub may hand a body back with CRLF line ends; that is not a change. */
function sameText(a: string, b: string): boolean {
  const fold = (s: string): string => s.replace(/\r\n/g, "\n").trim();
  return fold(a) === fold(b);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
