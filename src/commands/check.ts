/** `check`: queue a test run with the migration flag on V2 and report readiness. */
import { terminalSafeLine } from "../core/terminal-safe.js";
import type { Argv } from "yargs";
import { UsageError } from "../core/errors.js";
import { queueRequestOf, runCheck, TOKEN_ENV } from "../check/live-check.js";
import { renderCheckJson, renderCheckMarkdown, renderCheckText, VERDICT_EXIT } from "../check/render.js";
import { CUTOFF_DATE, GPU_TYPES, HOSTS, MIGRATION_FLAG } from "../knowledge/migration.js";
import { appendStepSummary, writeOutput } from "../platform/output.js";
import { maskKnownSecrets } from "../core/redact.js";
import { isUuid } from "../core/uuid.js";

export interface CheckArgs {
  "deployment-id"?: string;
  "base-url": string;
  token?: string;
  flag: string;
  gpu?: string;
  wait: number;
  cutoff: string;
  format: "text" | "json" | "markdown";
  output?: string;
  "dry-run"?: boolean;
  timeout: number;
}

export function checkCommand(yargs: Argv): Argv<CheckArgs> {
  return yargs
    .option("deployment-id", { describe: "The deployment to queue a test run for (uuid)", type: "string" })
    .option("base-url", { describe: "V2 API base", type: "string", default: HOSTS.v2.apiBase })
    .option("token", {
      describe: `API key (default: the ${TOKEN_ENV} environment variable; prefer that, flags land in shell history)`,
      type: "string",
    })
    .option("flag", { describe: "Migration flag sent with the run", type: "string", default: MIGRATION_FLAG })
    .option("gpu", { describe: "GPU to run on (default: the deployment's)", choices: GPU_TYPES })
    .option("wait", {
      describe:
        "The whole check's budget in seconds (queueing, retries, following the run); when it runs out the answer is UNKNOWN",
      type: "number",
      default: 300,
    })
    .option("timeout", { describe: "Seconds one HTTP request may take", type: "number", default: 30 })
    .option("cutoff", { describe: "Cutoff date to count days against", type: "string", default: CUTOFF_DATE })
    .option("format", {
      alias: "f",
      choices: ["text", "json", "markdown"] as const,
      default: "text" as const,
      describe: "Report format",
    })
    .option("output", { alias: "o", describe: "Write the report to this file", type: "string" })
    .option("dry-run", {
      describe: "Print the request it would send (token redacted) and send nothing",
      type: "boolean",
    })
    .example(
      `${TOKEN_ENV}=… $0 check --deployment-id 0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11`,
      "Queue one real run and follow it",
    )
    .example("$0 check --deployment-id … --dry-run", "Show the request without sending it")
    .example(
      "$0 check --deployment-id … --base-url http://127.0.0.1:4010/api --token t",
      "Against the local emulator (serve)",
    )
    .epilogue(
      "A real check queues a real, billed GPU run. Exit codes: 0 READY, 1 NOT READY, 2 usage error, 3 ERROR (network, TLS, DNS, time-out), 4 UNKNOWN (--wait ran out: the run was still going, or the API asked to retry later).",
    ) as Argv<CheckArgs>;
}

export async function runCheckCommand(args: CheckArgs): Promise<number> {
  const deploymentId = args["deployment-id"];
  if (!deploymentId) throw new UsageError("--deployment-id is required: the check queues a run for one deployment");
  if (!isUuid(deploymentId)) throw new UsageError(`--deployment-id must be a uuid, got "${deploymentId}"`);
  const baseUrl = validBaseUrl(args["base-url"]);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(args.cutoff) || Number.isNaN(Date.parse(args.cutoff)))
    throw new UsageError(`--cutoff must be a date YYYY-MM-DD`);
  if (!(args.wait >= 0)) throw new UsageError("--wait must be zero or more seconds");
  if (!(args.timeout > 0)) throw new UsageError("--timeout must be more than zero seconds");
  const token = args.token ?? process.env[TOKEN_ENV];
  const secrets = [token];

  if (args["dry-run"]) {
    const request = queueRequestOf({ baseUrl, deploymentId, flag: args.flag, ...(args.gpu ? { gpu: args.gpu } : {}) });
    const lines = [
      `${request.method} ${request.url}`,
      `Authorization: Bearer ${token ? "***" : `<missing: set ${TOKEN_ENV}>`}`,
      "Content-Type: application/json",
      "Idempotency-Key: <a new uuid for each check>",
      "",
      JSON.stringify(request.body, null, 2),
      "",
      `Then: GET ${baseUrl.replace(/\/+$/, "")}/run/{run_id} until the run ends (at most ${args.wait}s).`,
    ];
    await writeOutput(`${lines.join("\n")}\n`, args.output);
    return 0;
  }
  if (!token) throw new UsageError(`no API key: set ${TOKEN_ENV} or pass --token`);
  if (!isLoopback(baseUrl)) {
    process.stderr.write(
      `comfydeploy-migrate check: this queues a real run on deployment ${deploymentId}; its GPU time is billed.\n`,
    );
  }
  const showStatus = Boolean(process.stderr.isTTY) && args.format === "text" && args.output === undefined;
  const result = await runCheck({
    baseUrl,
    token,
    deploymentId,
    flag: args.flag,
    ...(args.gpu ? { gpu: args.gpu } : {}),
    waitSeconds: args.wait,
    requestTimeoutMs: args.timeout * 1000,
    maxRetries: 5,
    pollIntervalMs: 1000,
    maxBackoffMs: 30_000,
    cutoff: args.cutoff,
    ...(showStatus
      ? {
          onStatus: (s: string, live: string | null) =>
            process.stderr.write(`\r\x1b[K${terminalSafeLine(`${s}${live ? `: ${live}` : ""}`)}`),
        }
      : {}),
  });
  if (showStatus) process.stderr.write("\r\x1b[K");
  // A base URL that serves no queue endpoint is the user's mistake, not the deployment's state.
  if (result.wrongBaseUrl) throw new UsageError(maskKnownSecrets(result.reason, secrets));
  const rendered =
    args.format === "json"
      ? renderCheckJson(result)
      : args.format === "markdown"
        ? renderCheckMarkdown(result)
        : renderCheckText(result);
  await writeOutput(maskKnownSecrets(rendered, secrets), args.output);
  await appendStepSummary(maskKnownSecrets(renderCheckMarkdown(result), secrets));
  return VERDICT_EXIT[result.verdict];
}

function validBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url is not a URL: ${value}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError(`--base-url must be http(s): ${value}`);
  if (url.username || url.password)
    throw new UsageError("--base-url must not carry credentials; use --token or the environment");
  return value.replace(/\/+$/, "");
}

function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\./.test(host);
}
