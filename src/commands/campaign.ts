/** `campaign <plan|run|merge|status>`: one migration across many repositories, CI's matrix, one dashboard. */
import { terminalSafeLine } from "../core/terminal-safe.js";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { EXIT, RuntimeFailure, UsageError } from "../core/errors.js";
import { HOSTS, MIGRATION_FLAG } from "../knowledge/migration.js";
import { writeOutput } from "../platform/output.js";
import { maskKnownSecrets, redactSecrets } from "../core/redact.js";
import { failsAt } from "../campaign/campaign-model.js";
import { CampaignGitHub } from "../campaign/github-api.js";
import { DEFAULT_CAMPAIGN_FILE, loadCampaign } from "../campaign/load.js";
import { CAMPAIGN_FILES, mergeCampaign } from "../campaign/merge.js";
import { REPOS_DIR, type RepoReport } from "../campaign/repo-report.js";
import type { RunSettings } from "../campaign/repo-run.js";
import { defaultCacheDir, pruneReports, runCampaign } from "../campaign/run.js";
import { renderStatusText, refreshPullRequests } from "../campaign/status.js";
import { parseShard, planMatrix, shardOf } from "../campaign/targets.js";
import { FAIL_ON_CHOICES, type FailOn, loadCheckTools, loadPrTools, normalizeHost } from "../campaign/tool-api.js";

export const CAMPAIGN_ACTIONS = ["plan", "run", "merge", "status"] as const;
type Action = (typeof CAMPAIGN_ACTIONS)[number];
const DEFAULT_OUT = "campaign-out";

export interface CampaignArgs {
  action: Action;
  target?: string;
  out?: string;
  shards?: number;
  shard?: string;
  concurrency: number;
  cache?: string;
  previous?: string;
  force?: boolean;
  "open-prs"?: boolean;
  "dry-run"?: boolean;
  verify?: boolean;
  check?: boolean;
  "base-url"?: string;
  wait?: number;
  merge: boolean;
  "fail-on"?: FailOn;
  history?: string;
  "github-org"?: string;
  "github-topic"?: string;
  "api-url"?: string;
  "legacy-host"?: string[];
}

/** Which action each option belongs to, so a misplaced one is an error rather than silently ignored. */
const OPTION_ACTIONS: Record<string, readonly Action[]> = {
  out: ["run"],
  shards: ["plan"],
  shard: ["run"],
  cache: ["run"],
  previous: ["run"],
  force: ["run"],
  "open-prs": ["run"],
  "dry-run": ["run"],
  verify: ["run"],
  check: ["run"],
  "base-url": ["run"],
  wait: ["run"],
  "fail-on": ["run", "merge"],
  history: ["run", "merge", "status"],
  "github-org": ["plan", "run"],
  "github-topic": ["plan", "run"],
  "api-url": ["plan", "run", "status"],
  "legacy-host": ["run"],
};

export function campaignCommand(yargs: Argv): Argv<CampaignArgs> {
  return yargs
    .positional("action", {
      describe:
        "plan (CI matrix), run (scan a shard or everything), merge (dashboard), status (refresh pull requests: state, checks, review)",
      choices: CAMPAIGN_ACTIONS,
    })
    .positional("target", {
      describe: `plan, run: the campaign file (default ${DEFAULT_CAMPAIGN_FILE}); merge, status: the output directory (default ${DEFAULT_OUT})`,
      type: "string",
    })
    .option("out", {
      alias: "o",
      describe: `run: output directory; reports go to <out>/${REPOS_DIR}/ (default ${DEFAULT_OUT})`,
      type: "string",
    })
    .option("shards", { describe: "plan: split the repositories into this many shards", type: "number" })
    .option("shard", { describe: "run: only this shard, i/N as plan numbers them (e.g. 2/4)", type: "string" })
    .option("concurrency", { alias: "j", describe: "run: repositories worked on at once", type: "number", default: 4 })
    .option("cache", {
      describe: "run: where clones are kept between runs (default ~/.cache/comfydeploy-migrate/campaign)",
      type: "string",
    })
    .option("previous", {
      describe: `run: where the last run's reports are (default <out>/${REPOS_DIR})`,
      type: "string",
    })
    .option("force", {
      describe: "run: redo every repository, even those unchanged since their last report",
      type: "boolean",
    })
    .option("open-prs", {
      describe: "run: fix each repository and open or update its pull request (token in GITHUB_TOKEN or GH_TOKEN)",
      type: "boolean",
    })
    .option("dry-run", {
      alias: "n",
      describe: "run --open-prs: only count what fix would change; no commit, push or API call",
      type: "boolean",
    })
    .option("verify", {
      describe:
        "run --open-prs: check each repository's changed files before committing (this tool's TypeScript, node --check, Python syntax; no tokens in their environment) and report the checks in the pull request body",
      type: "boolean",
    })
    .option("check", {
      describe: "run: live-check each repository's deploymentId (queues real, billed runs; key in COMFYDEPLOY_API_KEY)",
      type: "boolean",
    })
    .option("base-url", { describe: "run --check: V2 API base", type: "string" })
    .option("wait", { describe: "run --check: seconds to follow each check run", type: "number" })
    .option("merge", {
      describe: "run: write the dashboard afterwards when the whole campaign ran (no --shard)",
      type: "boolean",
      default: true,
    })
    .option("fail-on", {
      describe:
        "run, merge: exit 1 when any repository has a finding at or above this severity (default: the file's failOn, else error)",
      choices: FAIL_ON_CHOICES,
    })
    .option("history", {
      describe: `run, merge, status: the burn-down's history file (default <out>/${CAMPAIGN_FILES.history})`,
      type: "string",
    })
    .option("github-org", {
      describe: "plan, run: add this organisation's repositories (GitHub API; token in GITHUB_TOKEN or GH_TOKEN)",
      type: "string",
    })
    .option("github-topic", {
      describe: "plan, run: only the organisation's repositories with this topic",
      type: "string",
    })
    .option("api-url", {
      describe: "GitHub API base (default: the file's github.apiUrl, GITHUB_API_URL or https://api.github.com)",
      type: "string",
    })
    .option("legacy-host", {
      describe: "run: another host that serves the V1 API (repeatable)",
      type: "string",
      array: true,
    })
    .example(
      "$0 campaign run campaign.yml --out campaign-out",
      "Scan every repository and write the dashboard to campaign-out/",
    )
    .example("$0 campaign plan campaign.yml --shards 4", "The CI matrix: four shards")
    .example("$0 campaign run campaign.yml --shard 2/4", "One shard, in a matrix job (no dashboard: merge does that)")
    .example(
      "$0 campaign merge campaign-out",
      "campaign.json, campaign.md and campaign.html from the reports in campaign-out/repos/",
    )
    .example(
      "$0 campaign run --github-org acme --github-topic comfy",
      "Every repository of an organisation with a topic",
    )
    .example(
      "$0 campaign run campaign.yml --open-prs --dry-run",
      "Count what fix would change before opening pull requests",
    )
    .example(
      "$0 campaign status campaign-out",
      "Refresh the pull requests' states, checks and reviews without scanning",
    )
    .epilogue(
      "Exit codes: 0 all clean, 1 findings at or above --fail-on in some repository, 2 bad campaign file or usage, " +
        "3 a repository could not be processed (its report says why) or another runtime failure.",
    ) as Argv<CampaignArgs>;
}

export async function runCampaignCommand(args: CampaignArgs): Promise<number> {
  for (const [option, actions] of Object.entries(OPTION_ACTIONS)) {
    const given = (args as unknown as Record<string, unknown>)[option];
    if (given !== undefined && given !== false && !actions.includes(args.action)) {
      throw new UsageError(`--${option} does not apply to campaign ${args.action} (only to ${actions.join(", ")})`);
    }
  }
  const env = process.env;
  const token = nonEmpty(env.GITHUB_TOKEN) ?? nonEmpty(env.GH_TOKEN);
  try {
    if (args.action === "plan") return await plan(args, token);
    if (args.action === "run") return await run(args, token);
    if (args.action === "merge") return await merge(args);
    return await status(args, token);
  } catch (error) {
    // Whatever failed, the token must not reach the terminal.
    if (error instanceof UsageError) throw new UsageError(maskKnownSecrets(error.message, [token]));
    if (error instanceof RuntimeFailure) throw new RuntimeFailure(maskKnownSecrets(error.message, [token]));
    if (error instanceof Error) error.message = maskKnownSecrets(error.message, [token]);
    throw error;
  }
}

async function plan(args: CampaignArgs, token: string | undefined): Promise<number> {
  const shards = args.shards ?? 1;
  if (!Number.isInteger(shards) || shards < 1)
    throw new UsageError(`--shards must be a whole number of 1 or more, got ${args.shards}`);
  const campaign = await loadCampaign(loadOptions(args, token));
  await writeOutput(`${JSON.stringify(planMatrix(campaign.targets, shards))}\n`, undefined);
  return EXIT.ok;
}

async function run(args: CampaignArgs, token: string | undefined): Promise<number> {
  if (!Number.isInteger(args.concurrency) || args.concurrency < 1)
    throw new UsageError(`--concurrency must be a whole number of 1 or more, got ${args.concurrency}`);
  if (args["dry-run"] && !args["open-prs"]) throw new UsageError("--dry-run goes with --open-prs");
  if (args.verify && !args["open-prs"]) throw new UsageError("--verify goes with --open-prs");
  if (args["open-prs"] && !args["dry-run"] && !token)
    throw new UsageError("--open-prs needs a GitHub token: set GITHUB_TOKEN or GH_TOKEN (or add --dry-run)");
  if (args.wait !== undefined && !(args.wait >= 0)) throw new UsageError("--wait must be zero or more seconds");
  const shard = args.shard !== undefined ? parseShard(args.shard) : undefined;
  const campaign = await loadCampaign(loadOptions(args, token));
  const failOn: FailOn = args["fail-on"] ?? campaign.file.failOn ?? "error";
  const outDir = resolve(args.out ?? DEFAULT_OUT);
  const reportsDir = resolve(outDir, REPOS_DIR);
  const log = (line: string): void =>
    void process.stderr.write(`campaign: ${terminalSafeLine(redactSecrets(maskKnownSecrets(line, [token])))}\n`);

  let check: RunSettings["check"];
  if (args.check) {
    const { tokenEnv } = await loadCheckTools();
    const key = nonEmpty(process.env[tokenEnv]);
    if (!key) throw new UsageError(`--check needs an API key: set ${tokenEnv}`);
    check = {
      token: key,
      baseUrl: (args["base-url"] ?? HOSTS.v2.apiBase).replace(/\/+$/, ""),
      flag: MIGRATION_FLAG,
      waitSeconds: args.wait ?? 300,
    };
  }
  const pulls = campaign.file.pullRequests;
  const settings: RunSettings = {
    cacheDir: resolve(args.cache ?? defaultCacheDir()),
    reportsDir,
    previousDir: resolve(args.previous ?? reportsDir),
    force: Boolean(args.force),
    // Checked here, so a bad host is one usage error rather than a failure in every repository.
    legacyHosts: [...(campaign.file.legacyHosts ?? []), ...(args["legacy-host"] ?? [])].map(normalizeHost),
    ...(args["open-prs"]
      ? {
          pullRequests: {
            dryRun: Boolean(args["dry-run"]),
            verify: Boolean(args.verify),
            ...(pulls?.branch ? { branch: pulls.branch } : {}),
            ...(pulls?.title ? { title: pulls.title } : {}),
            labels: pulls?.labels ?? [],
            draft: pulls?.draft ?? false,
            apiUrl: campaign.apiUrl,
          },
        }
      : {}),
    ...(check ? { check } : {}),
    ...(token ? { githubToken: token } : {}),
    githubHost: campaign.githubHost,
    log,
  };
  const targets = shard ? shardOf(campaign.targets, shard.index, shard.total) : campaign.targets;
  if (targets.length === 0)
    log(`shard ${args.shard} has no repositories (the campaign has ${campaign.targets.length})`);
  const results = await runCampaign(targets, args.concurrency, settings);
  if (!shard)
    for (const name of await pruneReports(reportsDir, targets))
      log(`removed the report of ${name}: the campaign no longer lists it`);
  const reports = results.map((r) => r.report);
  const count = (outcome: string): number => results.filter((r) => r.outcome === outcome).length;
  const lines = [
    `campaign run: ${plural(results.length, "repository", "repositories")}${shard ? ` (shard ${shard.index}/${shard.total})` : ""}: ` +
      `${count("scanned")} scanned, ${count("updated")} updated, ${count("unchanged")} unchanged, ${count("failed")} failed`,
    `reports: ${reportsDir}`,
  ];
  if (!shard && args.merge) {
    const merged = await mergeCampaign({
      outDir,
      failOn,
      ...(args.history ? { historyFile: resolve(args.history) } : {}),
    });
    lines.push(`dashboard: ${merged.files[2]}`, `summary: ${merged.files[1]}`);
  }
  await writeOutput(`${lines.join("\n")}\n`, undefined);
  return exitFor(reports, failOn);
}

async function merge(args: CampaignArgs): Promise<number> {
  const outDir = resolve(args.target ?? DEFAULT_OUT);
  const failOn: FailOn = args["fail-on"] ?? "error";
  const merged = await mergeCampaign({
    outDir,
    failOn,
    ...(args.history ? { historyFile: resolve(args.history) } : {}),
  });
  const t = merged.campaign.totals;
  await writeOutput(
    `campaign merge: ${plural(t.repositories, "repository", "repositories")}: ${t.ready} ready, ${t.notReady} not ready, ${t.failed} failed; ${t.findings.total} V1 findings\n` +
      `${merged.files.join("\n")}\n`,
    undefined,
  );
  return exitFor(merged.reports, failOn);
}

async function status(args: CampaignArgs, token: string | undefined): Promise<number> {
  if (!token) throw new UsageError("campaign status asks GitHub: set GITHUB_TOKEN or GH_TOKEN");
  const outDir = resolve(args.target ?? DEFAULT_OUT);
  const apiUrl = (args["api-url"] ?? (nonEmpty(process.env.GITHUB_API_URL) || "https://api.github.com")).replace(
    /\/+$/,
    "",
  );
  const { defaultBranch } = await loadPrTools();
  const github = new CampaignGitHub({ apiUrl, token });
  const { lines } = await refreshPullRequests({ outDir, github, token, defaultBranch });
  let output = renderStatusText(lines);
  if (existsSync(resolve(outDir, CAMPAIGN_FILES.json))) {
    // The dashboard shows the new states at once; the findings (and so the burn-down) are unchanged.
    const merged = await mergeCampaign({
      outDir,
      failOn: "error",
      ...(args.history ? { historyFile: resolve(args.history) } : {}),
    });
    output += `dashboard: ${merged.files[2]}\n`;
  }
  await writeOutput(output, undefined);
  return lines.some((l) => l.problem) ? EXIT.runtime : EXIT.ok;
}

/** As for scan, and a repository that could not be processed makes the result incomplete (3), which outranks findings. */
function exitFor(reports: readonly RepoReport[], failOn: FailOn): number {
  if (reports.some((r) => r.status === "failed")) return EXIT.runtime;
  return reports.some((r) => failsAt(r, failOn)) ? EXIT.findings : EXIT.ok;
}

function loadOptions(args: CampaignArgs, token: string | undefined): Parameters<typeof loadCampaign>[0] {
  return {
    ...(args.target !== undefined ? { file: args.target } : {}),
    ...(args["github-org"] ? { githubOrg: args["github-org"] } : {}),
    ...(args["github-topic"] ? { githubTopic: args["github-topic"] } : {}),
    ...(args["api-url"] ? { apiUrl: args["api-url"] } : {}),
    ...(token ? { token } : {}),
    env: process.env,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== "" ? value.trim() : undefined;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
