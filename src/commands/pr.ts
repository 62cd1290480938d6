/** `pr`: run fix, commit it to a branch, push it, and create or update one pull request. */
import { terminalSafeLine } from "../core/terminal-safe.js";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { CONFIG_OPTION_HELP, hostSetFor, loadConfig, normalizeHost } from "../platform/config.js";
import { EXIT, RuntimeFailure, UsageError } from "../core/errors.js";
import { treeState } from "../files/git-state.js";
import { nodeRefTarget } from "../../transforms/node-pin/target.js";
import { TRANSFORM_IDS } from "../../transforms/index.js";
import type { TransformId } from "../../transforms/types.js";
import { HOSTS, MIGRATION_FLAG } from "../knowledge/migration.js";
import { writeOutput } from "../platform/output.js";
import { Git } from "../pr/git.js";
import { BOT_IDENTITY, parseIdentity } from "../pr/identity.js";
import { outcomeJson, writeStepOutputs } from "../pr/outcome.js";
import { DEFAULT_BRANCH, DEFAULT_TITLE } from "../pr/defaults.js";
import type { PrSettings } from "../pr/workflow.js";
import { maskKnownSecrets } from "../core/redact.js";
import { TOKEN_ENV } from "../check/live-check.js";
import { commandLine } from "../platform/command-line.js";
import { isUuid } from "../core/uuid.js";

export interface PrArgs {
  path: string;
  base?: string;
  branch: string;
  title: string;
  labels?: string[];
  reviewers?: string[];
  assignees?: string[];
  draft?: boolean;
  "commit-message"?: string;
  "api-url"?: string;
  "api-budget": number;
  repo?: string;
  author?: string;
  committer?: string;
  "dry-run"?: boolean;
  "close-if-clean"?: boolean;
  "deployment-id"?: string;
  "base-url": string;
  wait: number;
  verify: boolean;
  transform?: TransformId[];
  "node-ref"?: string;
  include?: string[];
  exclude?: string[];
  "legacy-host"?: string[];
  config?: string;
}

export function prCommand(yargs: Argv): Argv<PrArgs> {
  return yargs
    .positional("path", { describe: "Repository checkout (or directory in it) to fix", type: "string", default: "." })
    .option("base", {
      describe:
        "Branch the pull request goes into (default: the repository's default branch; in --dry-run, the checked-out one)",
      type: "string",
    })
    .option("branch", { describe: "Branch the fix is pushed to", type: "string", default: DEFAULT_BRANCH })
    .option("title", {
      describe: "Pull request title (and commit subject unless --commit-message)",
      type: "string",
      default: DEFAULT_TITLE,
    })
    .option("commit-message", {
      describe: "Message of the fix commit (default: the title, then what fix changed)",
      type: "string",
    })
    .option("labels", { describe: "Labels to add (comma list, repeatable)", type: "string", array: true })
    .option("reviewers", {
      describe: "Reviewers to request on a new pull request: user or org/team (comma list, repeatable)",
      type: "string",
      array: true,
    })
    .option("assignees", {
      describe: "Users to assign on a new pull request (comma list, repeatable)",
      type: "string",
      array: true,
    })
    .option("draft", { describe: "Open the pull request as a draft", type: "boolean" })
    .option("close-if-clean", {
      describe: "Close the open pull request when the fix has nothing left to change",
      type: "boolean",
    })
    .option("repo", {
      describe: "GitHub repository owner/name (default: GITHUB_REPOSITORY on Actions, else parsed from origin)",
      type: "string",
    })
    .option("api-url", {
      describe: "GitHub API base, e.g. for GitHub Enterprise (default: GITHUB_API_URL or https://api.github.com)",
      type: "string",
    })
    .option("api-budget", {
      describe: "Seconds all GitHub API calls of the run may take, retries and rate-limit waits included",
      type: "number",
      default: 120,
    })
    .option("author", { describe: `Commit author "Name <email>" (default: ${BOT_IDENTITY.name})`, type: "string" })
    .option("committer", {
      describe: `Commit committer "Name <email>" (default: ${BOT_IDENTITY.name})`,
      type: "string",
    })
    .option("dry-run", {
      alias: "n",
      describe: "Print the plan and the pull request body; no branch, commit, push or API call",
      type: "boolean",
    })
    .option("deployment-id", {
      describe: `Add the live check of this deployment to the body (queues a real, billed run; key from ${TOKEN_ENV})`,
      type: "string",
    })
    .option("base-url", { describe: "V2 API base for the live check", type: "string", default: HOSTS.v2.apiBase })
    .option("wait", {
      describe: "The live check's budget in seconds (queueing, retries, following the run)",
      type: "number",
      default: 300,
    })
    .option("verify", {
      describe:
        "Run the project's own checks (tsc, node --check, Python syntax) on the changed files and report them in the body; --no-verify skips them",
      type: "boolean",
      default: true,
    })
    .option("transform", {
      alias: "t",
      describe: "Run only this transform (repeatable; default: all)",
      choices: TRANSFORM_IDS,
      array: true,
    })
    .option("node-ref", {
      describe: "Tag or commit to pin the ComfyUI node at; v2.1.0 or later (default: v2.1.0)",
      type: "string",
    })
    .option("include", { describe: "Only fix files matching this glob (repeatable)", type: "string", array: true })
    .option("exclude", { describe: "Never touch files matching this glob (repeatable)", type: "string", array: true })
    .option("legacy-host", {
      describe: "Another host that serves the V1 API (repeatable)",
      type: "string",
      array: true,
    })
    .option("config", { describe: CONFIG_OPTION_HELP, type: "string" })
    .example("$0 pr --dry-run", "Show what would be committed and the pull request body")
    .example("GITHUB_TOKEN=… $0 pr --labels migration --reviewers alice", "Open or update the pull request")
    .example("$0 pr --repo acme/app --base develop --draft", "Outside Actions, into develop, as a draft")
    .epilogue(
      "Needs a clean checkout and a token in GITHUB_TOKEN or GH_TOKEN with contents: write and pull-requests: write. " +
        "Prints {operation, number, url, …} as JSON; on Actions also writes number, url and operation to GITHUB_OUTPUT. " +
        "GitHub 5xx answers and rate limits are retried within a bounded total. " +
        "Exit codes: 0 done (created, updated or unchanged), 2 usage error (bad option, token refused), 3 runtime failure (push rejected, API error, rate limit, no answer within --api-budget).",
    ) as Argv<PrArgs>;
}

export async function runPr(args: PrArgs): Promise<number> {
  const env = process.env;
  const token = nonEmpty(env.GITHUB_TOKEN) ?? nonEmpty(env.GH_TOKEN);
  const checkToken = nonEmpty(env[TOKEN_ENV]);
  const secrets = [token, checkToken];
  try {
    const settings = await settingsFrom(args, env, token, checkToken, secrets);
    // The fix pipeline (jscodeshift, Babel) loads only when pr runs, as for fix.
    const { openOrUpdatePr, previewPr } = await import("../pr/workflow.js");
    if (args["dry-run"]) {
      await writeOutput(maskKnownSecrets(await previewPr(settings), secrets), undefined);
      return EXIT.ok;
    }
    const outcome = await openOrUpdatePr(settings);
    await writeOutput(maskKnownSecrets(outcomeJson(outcome), secrets), undefined);
    await writeStepOutputs(env.GITHUB_OUTPUT, outcome);
    return EXIT.ok;
  } catch (error) {
    // Whatever failed, the token must not reach the terminal.
    if (error instanceof UsageError) throw new UsageError(maskKnownSecrets(error.message, secrets));
    if (error instanceof RuntimeFailure) throw new RuntimeFailure(maskKnownSecrets(error.message, secrets));
    if (error instanceof Error) error.message = maskKnownSecrets(error.message, secrets);
    throw error;
  }
}

async function settingsFrom(
  args: PrArgs,
  env: NodeJS.ProcessEnv,
  token: string | undefined,
  checkToken: string | undefined,
  secrets: Array<string | undefined>,
): Promise<PrSettings> {
  const root = resolve(args.path);
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat) throw new UsageError(`path not found: ${args.path}`);
  if (!rootStat.isDirectory()) throw new UsageError(`not a directory: ${args.path}`);
  const dryRun = Boolean(args["dry-run"]);

  const git = new Git(root);
  if (!(await git.isValidBranchName(args.branch)))
    throw new UsageError(`--branch "${args.branch}" is not a valid branch name`);
  if (args.base !== undefined && !(await git.isValidBranchName(args.base)))
    throw new UsageError(`--base "${args.base}" is not a valid branch name`);
  if (!args.title.trim()) throw new UsageError("--title must not be empty");
  if (args["commit-message"] !== undefined && !args["commit-message"].trim())
    throw new UsageError("--commit-message must not be empty");
  const author = parseIdentity(args.author, "--author") ?? BOT_IDENTITY;
  const committer = parseIdentity(args.committer, "--committer") ?? BOT_IDENTITY;
  const reviewers = listOf(args.reviewers).map((r) => r.replace(/^@/, ""));
  const deploymentId = args["deployment-id"];
  if (deploymentId !== undefined && !isUuid(deploymentId))
    throw new UsageError(`--deployment-id must be a uuid, got "${deploymentId}"`);
  if (deploymentId && !checkToken && !dryRun) throw new UsageError(`the live check needs an API key: set ${TOKEN_ENV}`);
  if (!(args.wait >= 0)) throw new UsageError("--wait must be zero or more seconds");
  if (!(args["api-budget"] > 0)) throw new UsageError("--api-budget must be more than zero seconds");
  if (!token && !dryRun) throw new UsageError("no GitHub token: set GITHUB_TOKEN or GH_TOKEN (or pass --dry-run)");

  const state = await treeState(root);
  if (state.kind === "not-a-repository")
    throw new UsageError(`${args.path} is not in a git repository; pr commits the fix to a branch`);
  if (!dryRun) {
    const dirty = state.kind === "dirty" ? state.files : await git.trackedChanges();
    if (dirty.length > 0) {
      throw new UsageError(
        `the git work tree has uncommitted changes (${dirty.slice(0, 3).join(", ")}${dirty.length > 3 ? ", …" : ""}); commit or stash them first`,
      );
    }
  }

  const { config } = await loadConfig(root, args.config);
  config.legacyHosts.push(...(args["legacy-host"] ?? []).map(normalizeHost));
  return {
    root,
    pathArg: args.path,
    branch: args.branch,
    ...(args.base !== undefined ? { base: args.base } : {}),
    title: args.title.trim(),
    labels: listOf(args.labels),
    reviewers: reviewers.filter((r) => !r.includes("/")),
    teamReviewers: reviewers.filter((r) => r.includes("/")),
    assignees: listOf(args.assignees).map((a) => a.replace(/^@/, "")),
    draft: Boolean(args.draft),
    ...(args["commit-message"] !== undefined ? { commitMessage: args["commit-message"].trim() } : {}),
    closeIfClean: Boolean(args["close-if-clean"]),
    verify: args.verify,
    author,
    committer,
    ...(args.repo !== undefined ? { repo: args.repo } : {}),
    ...(args["api-url"] !== undefined ? { apiUrl: args["api-url"] } : {}),
    ...(token ? { token } : {}),
    apiBudgetMs: args["api-budget"] * 1000,
    fix: {
      hosts: hostSetFor(config),
      include: [...config.include, ...(args.include ?? [])],
      exclude: [...config.exclude, ...(args.exclude ?? [])],
      transforms: args.transform ?? [...TRANSFORM_IDS],
      nodeRef: nodeRefTarget(args["node-ref"]),
      rules: config.rules,
    },
    ...(deploymentId
      ? {
          check: {
            deploymentId,
            baseUrl: args["base-url"].replace(/\/+$/, ""),
            token: checkToken ?? "",
            flag: MIGRATION_FLAG,
            waitSeconds: args.wait,
          },
        }
      : {}),
    command: commandLine(),
    scanCommand: commandLine(["scan", args.path]),
    env,
    log: (line) =>
      process.stderr.write(`comfydeploy-migrate pr: ${terminalSafeLine(maskKnownSecrets(line, secrets))}\n`),
  };
}

/** Comma lists and repeated flags, trimmed, without empties or repeats. */
function listOf(values: readonly string[] | undefined): string[] {
  return [
    ...new Set(
      (values ?? [])
        .flatMap((v) => String(v).split(","))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== "" ? value.trim() : undefined;
}
