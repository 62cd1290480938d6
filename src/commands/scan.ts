/** `scan`: find every V1 use in a repository and report it in one or more formats. */
import { relative } from "node:path";
import type { Argv } from "yargs";
import {
  CONFIG_OPTION_HELP,
  FAIL_ON_CHOICES,
  type FailOn,
  hostSetFor,
  isCi,
  loadConfig,
  meetsThreshold,
  normalizeHost,
} from "../platform/config.js";
import { EXIT, UsageError } from "../core/errors.js";
import { plural } from "../core/plural.js";
import { terminalSafeLine } from "../core/terminal-safe.js";
import { changedSince } from "../files/changed-files.js";
import { findRepoRoot, fromRepoRoot } from "../files/repo-root.js";
import { resolveTargets, selectedFiles } from "../files/scan-targets.js";
import { appendStepSummary, colorEnabled, writeOutput } from "../platform/output.js";
import { RULE_IDS, type RuleId } from "../rules/catalog.js";
import type { Finding } from "../core/finding.js";
import { scanNextStep } from "./next-step.js";
import { loadBaseline } from "../report/baseline.js";
import { renderGithub } from "../report/github.js";
import { renderJson } from "../report/json.js";
import { renderMarkdown } from "../report/markdown.js";
import { buildReport, repoLinkFrom, type Report } from "../report/model.js";
import { renderSarif } from "../report/sarif.js";
import { renderCompact } from "../report/compact.js";
import { renderJunit } from "../report/junit.js";
import { renderResolvedConfig } from "./print-config.js";
import { renderText } from "../report/text.js";
import { type ScanProgress, scan } from "../scan/engine.js";
import { commandLine } from "../platform/command-line.js";

export const SCAN_FORMATS = ["text", "json", "markdown", "sarif", "github", "junit", "compact"] as const;
type ScanFormat = (typeof SCAN_FORMATS)[number];

export interface ScanArgs {
  paths?: string[];
  format?: ScanFormat;
  output?: string;
  json?: string;
  markdown?: string;
  sarif?: string;
  junit?: string;
  "print-config"?: boolean;
  "fail-on"?: FailOn;
  baseline?: string;
  since?: string;
  "repo-url"?: string;
  include?: string[];
  exclude?: string[];
  "all-files"?: boolean;
  "legacy-host"?: string[];
  config?: string;
  progress?: boolean;
  color?: boolean;
  quiet?: boolean;
  "max-warnings"?: number;
  rule?: RuleId[];
  "report-unused-ignores"?: boolean;
  ripgrep?: boolean;
  online?: boolean;
  "github-api-url"?: string;
}

export function scanCommand(yargs: Argv): Argv<ScanArgs> {
  return yargs
    .positional("paths", {
      describe: "Directories and files to scan; paths in reports are relative to the git top level",
      type: "string",
      array: true,
      default: ["."],
      defaultDescription: ".",
    })
    .option("format", {
      alias: "f",
      describe:
        "Format of the report on stdout (or --output): text, json (stable contract, see schema/), markdown, sarif, github (workflow commands: annotations on the PR diff), junit (JUnit XML for CI test tabs), compact (one `file:line:col: severity rule message` line per finding). Default: github on stdout when GITHUB_ACTIONS=true, else text",
      choices: SCAN_FORMATS,
    })
    .option("output", {
      alias: "o",
      describe: "Write the --format report to this file instead of stdout",
      type: "string",
    })
    .option("json", { describe: "Also write a JSON report to this file", type: "string" })
    .option("markdown", {
      describe: "Also write a Markdown report (fits a GitHub PR/issue body) to this file",
      type: "string",
    })
    .option("sarif", { describe: "Also write a SARIF 2.1.0 report (for code scanning) to this file", type: "string" })
    .option("junit", { describe: "Also write a JUnit XML report (for CI test tabs) to this file", type: "string" })
    .option("print-config", {
      describe:
        "Print the resolved configuration as JSON, with where each value came from (default, config file or flag), and scan nothing",
      type: "boolean",
    })
    .option("fail-on", {
      describe: "Exit 1 when a finding has this severity or higher; 'none' never fails on findings (default: error)",
      choices: FAIL_ON_CHOICES,
    })
    .option("baseline", {
      describe:
        "A previous JSON report: report and fail only on findings not in it (matched by rule, file and content, so moved lines stay known)",
      type: "string",
    })
    .option("since", { describe: "Only scan files changed since this git ref, plus untracked files", type: "string" })
    .option("repo-url", {
      describe:
        "Repository web URL for links in the Markdown report (default on GitHub Actions: GITHUB_SERVER_URL/GITHUB_REPOSITORY at GITHUB_SHA)",
      type: "string",
    })
    .option("include", { describe: "Only scan files matching this glob (repeatable)", type: "string", array: true })
    .option("all-files", {
      describe: "Also look at files .gitignore excludes (and node_modules); only .git is skipped",
      type: "boolean",
    })
    .option("exclude", { describe: "Skip files matching this glob (repeatable)", type: "string", array: true })
    .option("legacy-host", {
      describe: "Another host that serves the V1 API, e.g. a white-label deployment (repeatable)",
      type: "string",
      array: true,
    })
    .option("quiet", {
      alias: "q",
      describe: "Report errors only (warnings still count for --max-warnings)",
      type: "boolean",
    })
    .option("max-warnings", {
      describe: "Exit 1 when there are more than this many warnings (not suppressed, not in the baseline)",
      type: "number",
    })
    .option("rule", { describe: "Only report findings of this rule (repeatable)", choices: RULE_IDS, array: true })
    .option("report-unused-ignores", {
      describe:
        "Report ignore comments that cover no finding, as unused-ignore warnings (default: on when CI is set, or the config's reportUnusedIgnores)",
      type: "boolean",
    })
    .option("config", { describe: CONFIG_OPTION_HELP, type: "string" })
    .option("online", {
      describe:
        "Settle node pins at unknown commits with GitHub's compare API (the only network use of scan; GITHUB_TOKEN raises the rate limit; answers are cached)",
      type: "boolean",
    })
    .option("github-api-url", {
      describe: "GitHub API for --online (default: GITHUB_API_URL or https://api.github.com)",
      type: "string",
    })
    .option("ripgrep", {
      describe:
        "Use ripgrep (the optional @vscode/ripgrep package) for the first pass on large trees; --no-ripgrep forces pure Node",
      type: "boolean",
      default: true,
    })
    .option("progress", { describe: "Show progress on stderr (default: when stderr is a terminal)", type: "boolean" })
    .example("$0 scan", "Scan the current directory, text report")
    .example("$0 scan ./app --format json -o v1-report.json", "Write the JSON report to a file")
    .example("$0 scan src/client.ts lib/", "Only these files and directories")
    .example("$0 scan --format compact | grep legacy-create-run", "One line per finding, for editors and grep")
    .example("$0 scan --junit v1-findings.xml", "JUnit XML for a CI test tab, text on stdout")
    .example(
      "$0 scan --sarif results.sarif --markdown report.md --json report.json",
      "Several reports in one run, text on stdout",
    )
    .example("$0 scan --baseline v1-report.json --since origin/main", "PR check: only changed files, only new findings")
    .example("$0 scan --online", "Also settle ComfyUI node pins at commits the tag table does not know")
    .example("$0 scan --fail-on warning", "Fail CI on warnings too (review markers are warnings)")
    .example("$0 scan --quiet --max-warnings 0", "Show errors only, and fail when any warning is left")
    .example("$0 scan --rule review-marker", "List the review markers fix left")
    .example(
      "$0 scan --exclude 'docs/**' --legacy-host comfy.internal.example.com",
      "Skip docs; treat a self-hosted V1 host as legacy",
    ) as Argv<ScanArgs>;
}

const RENDERERS: Record<ScanFormat, (report: Report, color: boolean) => string> = {
  text: (report, color) => renderText(report, { color }),
  json: (report) => renderJson(report),
  markdown: (report) => renderMarkdown(report),
  sarif: (report) => renderSarif(report),
  github: (report) => renderGithub(report),
  junit: (report) => renderJunit(report),
  compact: (report) => renderCompact(report),
};

export async function runScan(args: ScanArgs): Promise<number> {
  for (const option of ["output", "json", "markdown", "sarif", "junit"] as const) {
    if (args[option] === "") {
      throw new UsageError(
        `--${option} needs a file name; for the report on stdout use --format ${option === "output" ? "<format> without --output" : option}`,
      );
    }
  }
  const maxWarnings = args["max-warnings"];
  if (maxWarnings !== undefined && !(Number.isInteger(maxWarnings) && maxWarnings >= 0)) {
    throw new UsageError(`--max-warnings must be a whole number, 0 or more, got ${maxWarnings}`);
  }
  const targets = await resolveTargets(args.paths ?? []);
  const root = targets.root;

  const { config, source } = await loadConfig(root, args.config);
  if (args["print-config"]) {
    await writeOutput(renderResolvedConfig(config, source, args), args.output);
    return EXIT.ok;
  }
  config.legacyHosts.push(...(args["legacy-host"] ?? []).map(normalizeHost));
  const failOn: FailOn = args["fail-on"] ?? config.failOn ?? "error";
  const baseline = args.baseline ? await loadBaseline(args.baseline) : undefined;
  const include = [...config.include, ...(args.include ?? [])];
  const exclude = [...config.exclude, ...(args.exclude ?? [])];
  const since = args.since ? await changedSince(root, args.since) : undefined;
  const selection = await selectedFiles(
    targets,
    { include, exclude, ...(args["all-files"] ? { respectIgnore: false } : {}) },
    since,
  );
  // Four short git runs: asked now, answered while the scan lists and reads.
  const repoRootFound = findRepoRoot(root);
  repoRootFound.catch(() => undefined); // awaited below; a failure must not be an unhandled rejection meanwhile
  for (const file of selection.ignored)
    process.stderr.write(
      `comfydeploy-migrate: ${terminalSafeLine(fromRepoRoot(await repoRootFound, file))} is ignored (.gitignore, --include or --exclude): not scanned\n`,
    );
  const onlyFiles = selection.only;
  const showProgress = args.progress ?? Boolean(process.stderr.isTTY);
  const reportUnusedIgnores = args["report-unused-ignores"] ?? config.reportUnusedIgnores ?? isCi(process.env);

  const result = await scan({
    root,
    hosts: hostSetFor(config),
    include,
    exclude,
    rules: config.rules,
    ...(reportUnusedIgnores ? { reportUnusedIgnores } : {}),
    ...(onlyFiles ? { onlyFiles } : {}),
    ...(args["all-files"] ? { allFiles: true } : {}),
    ...(args.ripgrep === false ? { ripgrep: false } : {}),
    ...(showProgress ? { onProgress: progressPrinter() } : {}),
  });
  if (args.online) {
    const { resolveUnknownNodePins } = await import("../pins/github-compare.js");
    const apiUrl = args["github-api-url"] ?? process.env.GITHUB_API_URL;
    const online = await resolveUnknownNodePins(result.findings, apiUrl ? { apiUrl } : {});
    result.findings = online.findings;
    for (const problem of online.problems)
      process.stderr.write(`comfydeploy-migrate: --online: ${terminalSafeLine(problem)}\n`);
  }
  if (args.rule) result.findings = result.findings.filter((f) => args.rule!.includes(f.ruleId));
  const repoRoot = await repoRootFound;
  const repo = repoLinkFrom(args["repo-url"], process.env);
  const reportOptions = {
    command: commandLine(),
    repoRoot,
    ...(baseline ? { baseline } : {}),
    ...(repo ? { repo } : {}),
  };
  const full = buildReport(result, reportOptions);
  // --quiet hides warnings and info from every report; --max-warnings still counts them.
  const report = args.quiet
    ? buildReport({ ...result, findings: result.findings.filter(isError) }, reportOptions)
    : full;

  const color = args.output === undefined && colorEnabled(args.color);
  // On Actions, stdout is the job log: workflow commands there become annotations on the diff.
  const format: ScanFormat =
    args.format ?? (process.env.GITHUB_ACTIONS === "true" && args.output === undefined ? "github" : "text");
  let rendered = RENDERERS[format](report, color);
  const next =
    format === "text" && args.output === undefined
      ? scanNextStep(report.findings, args.paths ?? ["."], shorterPath(root))
      : undefined;
  if (next) rendered += `${next}\n`;
  await writeOutput(rendered, args.output);
  const extra: Array<[ScanFormat, string | undefined]> = [
    ["json", args.json],
    ["markdown", args.markdown],
    ["sarif", args.sarif],
    ["junit", args.junit],
  ];
  for (const [extraFormat, file] of extra) if (file) await writeOutput(RENDERERS[extraFormat](report, false), file);
  await appendStepSummary(renderMarkdown(report));

  const warnings = full.findings.filter((f) => f.severity === "warning").length;
  const tooManyWarnings = maxWarnings !== undefined && warnings > maxWarnings;
  if (tooManyWarnings)
    process.stderr.write(
      `comfydeploy-migrate: ${plural(warnings, "warning")}, more than --max-warnings ${maxWarnings}\n`,
    );
  const failing = report.findings.some((f) => meetsThreshold(f.severity, failOn));
  return failing || tooManyWarnings ? EXIT.findings : EXIT.ok;
}

/** A directory as the user would type it: relative to the working directory, or absolute when that is shorter. */
function shorterPath(dir: string): string {
  const rel = relative(process.cwd(), dir) || ".";
  return rel.length <= dir.length ? rel : dir;
}

function isError(finding: Finding): boolean {
  return finding.severity === "error";
}

function progressPrinter(): (p: ScanProgress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (p.phase !== "done" && now - last < 100) return;
    last = now;
    const line = `scan: ${p.listed} files listed, ${p.candidates} candidates, ${p.parsed} parsed`;
    process.stderr.write(p.phase === "done" ? `\r\x1b[K` : `\r\x1b[K${line}`);
  };
}
