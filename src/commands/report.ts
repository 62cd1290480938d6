/** `report`: one readiness report combining scan and, optionally, the live check. */
import { findRepoRoot } from "../files/repo-root.js";
import { resolve } from "node:path";
import { stat } from "node:fs/promises";
import type { Argv } from "yargs";
import { runCheck } from "../check/live-check.js";
import { checkJson } from "../check/render.js";
import { CONFIG_OPTION_HELP, hostSetFor, loadConfig } from "../platform/config.js";
import { UsageError } from "../core/errors.js";
import { HOSTS, MIGRATION_FLAG } from "../knowledge/migration.js";
import { writeOutput } from "../platform/output.js";
import {
  assessReadiness,
  readinessJson,
  renderReadinessMarkdown,
  renderReadinessText,
} from "../readiness/readiness.js";
import { buildReport, repoLinkFrom } from "../report/model.js";
import { maskKnownSecrets } from "../core/redact.js";
import { scan } from "../scan/engine.js";
import { isUuid } from "../core/uuid.js";
import { commandLine } from "../platform/command-line.js";
import { TOKEN_ENV } from "../check/live-check.js";

export interface ReportArgs {
  path: string;
  "deployment-id"?: string;
  "base-url": string;
  token?: string;
  flag: string;
  wait: number;
  format: "text" | "json" | "markdown";
  output?: string;
  config?: string;
}

export function reportCommand(yargs: Argv): Argv<ReportArgs> {
  return yargs
    .positional("path", { describe: "Repository to assess", type: "string", default: "." })
    .option("deployment-id", {
      describe: "Also run the live check for this deployment (queues a real, billed run)",
      type: "string",
    })
    .option("base-url", { describe: "V2 API base for the live check", type: "string", default: HOSTS.v2.apiBase })
    .option("token", { describe: `API key for the live check (default: ${TOKEN_ENV})`, type: "string" })
    .option("flag", { describe: "Migration flag for the live check", type: "string", default: MIGRATION_FLAG })
    .option("wait", { describe: "Seconds to follow the live run", type: "number", default: 300 })
    .option("format", {
      alias: "f",
      choices: ["text", "json", "markdown"] as const,
      default: "text" as const,
      describe: "Report format",
    })
    .option("output", { alias: "o", describe: "Write the report to this file", type: "string" })
    .option("config", { describe: CONFIG_OPTION_HELP, type: "string" })
    .example("$0 report", "Code, dependencies and pins: a checklist and a verdict")
    .example(
      "$0 report --deployment-id 0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11 --format markdown -o readiness.md",
      "Add the live check",
    )
    .epilogue(
      "Exit codes: 0 READY, 1 NOT READY, 2 usage error, 3 runtime failure, 4 INCOMPLETE (no live check).",
    ) as Argv<ReportArgs>;
}

export async function runReport(args: ReportArgs): Promise<number> {
  const root = resolve(args.path);
  if (!(await stat(root).catch(() => undefined))?.isDirectory()) throw new UsageError(`not a directory: ${args.path}`);
  const deploymentId = args["deployment-id"];
  const token = args.token ?? process.env[TOKEN_ENV];
  if (deploymentId && !isUuid(deploymentId)) {
    throw new UsageError(`--deployment-id must be a uuid, got "${deploymentId}"`);
  }
  if (deploymentId && !token) throw new UsageError(`the live check needs an API key: set ${TOKEN_ENV} or pass --token`);
  const { config } = await loadConfig(root, args.config);
  const result = await scan({
    root,
    hosts: hostSetFor(config),
    include: config.include,
    exclude: config.exclude,
    rules: config.rules,
  });
  const repo = repoLinkFrom(undefined, process.env);
  // Paths from the repository root, as scan reports them: links in the report resolve on the forge.
  const repoRoot = await findRepoRoot(root);
  const scanReport = buildReport(result, { command: commandLine(), repoRoot, ...(repo ? { repo } : {}) });
  const check = deploymentId
    ? await runCheck({
        baseUrl: args["base-url"].replace(/\/+$/, ""),
        token: token!,
        deploymentId,
        flag: args.flag,
        waitSeconds: args.wait,
        requestTimeoutMs: 30_000,
        maxRetries: 5,
        pollIntervalMs: 1000,
        maxBackoffMs: 30_000,
      })
    : undefined;
  const readiness = assessReadiness(scanReport, check);
  const rendered =
    args.format === "json"
      ? readinessJson(readiness, check ? checkJson(check) : undefined)
      : args.format === "markdown"
        ? renderReadinessMarkdown(readiness)
        : renderReadinessText(readiness);
  await writeOutput(maskKnownSecrets(rendered, [token]), args.output);
  return readiness.verdict === "READY" ? 0 : readiness.verdict === "NOT_READY" ? 1 : 4;
}
