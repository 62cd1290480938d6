/** `serve`: run the local V2 service emulator until interrupted. */
import type { Argv } from "yargs";
import { UsageError } from "../core/errors.js";
import {
  DEFAULT_FAULTS,
  DEFAULT_MAX_RUNS,
  DEFAULT_MAX_STORE_BYTES,
  type EmulatorOptions,
  parseDeployment,
} from "../serve/options.js";
import { requestLogLine } from "../serve/request-log.js";
import { startEmulator } from "../serve/server.js";

export interface ServeArgs {
  port: number;
  host: string;
  log?: boolean;
  token?: string;
  deployment?: string[];
  legacy?: boolean;
  "step-ms": number;
  latency: number;
  "rate-429": number;
  "rate-500": number;
  "rate-hang": number;
  "max-body": number;
  "max-runs": number;
  "max-store-bytes": number;
  "advance-on-read"?: boolean;
  "allow-local-webhooks"?: boolean;
  quiet?: boolean;
}

export function serveCommand(yargs: Argv): Argv<ServeArgs> {
  return yargs
    .option("port", {
      alias: "p",
      describe: "Port to listen on; 0 picks a free one (the base URL is printed)",
      type: "number",
      default: 4010,
    })
    .option("host", { describe: "Address to listen on", type: "string", default: "127.0.0.1" })
    .option("token", {
      describe: "Bearer token clients must send (default: any bearer token is accepted, a missing one is refused)",
      type: "string",
    })
    .option("deployment", {
      alias: "d",
      describe:
        "Deployment to serve: <uuid>[:gpu][:outcome][:not-migrated] (repeatable). outcome: success, failed, timeout, cancelled, stuck. Without any, every uuid is accepted",
      type: "string",
      array: true,
    })
    .option("legacy", {
      describe: "Also serve the V1 endpoints (POST /api/run, GET /api/run?run_id=)",
      type: "boolean",
    })
    .option("step-ms", {
      describe: "Time a run spends in each state (queued, started, running, uploading)",
      type: "number",
      default: 1000,
    })
    .option("advance-on-read", {
      describe:
        "Move a run one state each time it is read, instead of every --step-ms: a client's test sees every state, however loaded the machine",
      type: "boolean",
    })
    .option("latency", { describe: "Delay every answer by this many milliseconds", type: "number", default: 0 })
    .option("rate-429", {
      describe: "Fraction (0-1) of requests answered 429 with Retry-After",
      type: "number",
      default: 0,
    })
    .option("rate-500", { describe: "Fraction (0-1) of requests answered 500", type: "number", default: 0 })
    .option("rate-hang", {
      describe: "Fraction (0-1) of requests never answered (client time-outs)",
      type: "number",
      default: 0,
    })
    .option("max-body", {
      describe: "Largest request body in bytes, also after decoding Content-Encoding; larger ones get 413",
      type: "number",
      default: 1024 * 1024,
    })
    .option("max-runs", {
      describe:
        "Most run records kept; past it the run that finished longest ago is dropped (then the oldest still running), and reading it gives 404",
      type: "number",
      default: DEFAULT_MAX_RUNS,
    })
    .option("max-store-bytes", {
      describe:
        "Most bytes of run records kept (inputs and outputs included, as served); past it runs are dropped as for --max-runs",
      type: "number",
      default: DEFAULT_MAX_STORE_BYTES,
    })
    .option("allow-local-webhooks", {
      describe:
        "Deliver webhooks to loopback (127.0.0.0/8, ::1, localhost), link-local (169.254.0.0/16, fe80::/10) and cloud metadata addresses, also after DNS; refused by default. Needed to test a webhook receiver on this machine",
      type: "boolean",
    })
    .option("quiet", {
      alias: "q",
      describe: "Do not log requests (by default one line per request on stderr: method, path, status, time)",
      type: "boolean",
    })
    .example("$0 serve --port 0", "Start on a free port and print the base URL")
    .example(
      "$0 serve -d 0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11:A100 -d 6f1b…:failed --legacy",
      "Two deployments, V1 endpoints too",
    )
    .example("$0 serve --rate-429 0.2 --latency 300", "Exercise a client's retry and time-out handling")
    .example(
      "$0 serve --allow-local-webhooks",
      "Let runs call a webhook receiver on this machine (http://127.0.0.1:3000/api/webhook)",
    )
    .epilogue(
      'Point a V2 SDK client at it: serverURL: "http://127.0.0.1:4010/api" (JavaScript), server_url="http://127.0.0.1:4010/api" (Python).',
    ) as Argv<ServeArgs>;
}

export async function runServe(args: ServeArgs): Promise<number> {
  for (const [name, value] of [
    ["rate-429", args["rate-429"]],
    ["rate-500", args["rate-500"]],
    ["rate-hang", args["rate-hang"]],
  ] as const) {
    if (!(value >= 0 && value <= 1)) throw new UsageError(`--${name} must be between 0 and 1`);
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new UsageError(`--port must be 0-65535`);
  for (const name of ["max-runs", "max-body", "max-store-bytes"] as const) {
    if (!Number.isInteger(args[name]) || args[name] < 1)
      throw new UsageError(`--${name} must be a whole number of at least 1`);
  }
  for (const name of ["step-ms", "latency"] as const) {
    if (!(Number.isFinite(args[name]) && args[name] >= 0))
      throw new UsageError(`--${name} must be zero or more milliseconds`);
  }
  const options: EmulatorOptions = {
    ...(args.token !== undefined ? { token: args.token } : {}),
    deployments: (args.deployment ?? []).map(parseDeployment),
    stepMs: args["step-ms"],
    legacy: Boolean(args.legacy),
    faults: {
      ...DEFAULT_FAULTS,
      latencyMs: args.latency,
      rate429: args["rate-429"],
      rate500: args["rate-500"],
      rateHang: args["rate-hang"],
    },
    maxBodyBytes: args["max-body"],
    webhookAttempts: 4,
    maxRuns: args["max-runs"],
    maxStoreBytes: args["max-store-bytes"],
    advanceOnRead: Boolean(args["advance-on-read"]),
    allowLocalWebhooks: Boolean(args["allow-local-webhooks"]),
    ...(args.quiet ? {} : { onRequest: (entry) => process.stderr.write(`${requestLogLine(entry)}\n`) }),
  };
  const emulator = await startEmulator(options, { host: args.host, port: args.port }).catch(
    (error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot listen on ${args.host}:${args.port}: ${error.code ?? error.message}`);
    },
  );
  process.stdout.write(
    `comfydeploy-migrate serve: V2 emulator listening on ${emulator.baseUrl}${options.legacy ? " (V1 endpoints too)" : ""}\n`,
  );
  process.stdout.write(`  POST ${emulator.baseUrl}/run/deployment/queue\n  GET  ${emulator.baseUrl}/run/{run_id}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void emulator.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  process.stdout.write("comfydeploy-migrate serve: stopped\n");
  return 0;
}
