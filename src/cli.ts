#!/usr/bin/env node
/** The command line: yargs wiring, exit codes, and one-line errors for user mistakes. */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { type CheckArgs, checkCommand, runCheckCommand } from "./commands/check.js";
import { type FixArgs, fixCommand, runFix } from "./commands/fix.js";
import { type PrArgs, prCommand, runPr } from "./commands/pr.js";
import { type ReportArgs, reportCommand, runReport } from "./commands/report.js";
import { runScan, scanCommand, type ScanArgs } from "./commands/scan.js";
import { runServe, serveCommand, type ServeArgs } from "./commands/serve.js";
import { EXIT, RuntimeFailure, UsageError } from "./errors.js";
import { redactSecrets } from "./redact.js";
import { engineVersions, TOOL } from "./tool-info.js";

const NAME = TOOL.name;

async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    const engines = await engineVersions();
    process.stdout.write(`${NAME} ${TOOL.version}\njscodeshift ${engines.jscodeshift}\ntypescript ${engines.typescript}\nnode ${engines.node}\n`);
    return EXIT.ok;
  }
  let exitCode: number = EXIT.ok;
  await yargs(argv)
    .scriptName(NAME)
    .usage(`${NAME} <command> [options]\n\nFind and migrate ComfyDeploy V1 API usage to V2.`)
    .command<ScanArgs>(
      "scan [path]",
      "Find every V1 use: legacy host and endpoints, the V1 JS SDK",
      scanCommand,
      async (args) => {
        exitCode = await runScan(args);
      },
    )
    .command<FixArgs>(
      "fix [path]",
      "Rewrite V1 uses to V2 where safe; leave review markers elsewhere",
      fixCommand,
      async (args) => {
        exitCode = await runFix(args);
      },
    )
    .command<CheckArgs>(
      "check",
      "Queue a test run with the migration flag on V2, follow it, and report readiness",
      checkCommand,
      async (args) => {
        exitCode = await runCheckCommand(args);
      },
    )
    .command<ReportArgs>(
      "report [path]",
      "One readiness report: code, dependencies, node pins and (optionally) the live check",
      reportCommand,
      async (args) => {
        exitCode = await runReport(args);
      },
    )
    .command<PrArgs>(
      "pr [path]",
      "Commit the fix to a branch, push it, and create or update one pull request",
      prCommand,
      async (args) => {
        exitCode = await runPr(args);
      },
    )
    .command<ServeArgs>(
      "serve",
      "Run a local emulator of the V2 service (and optionally V1) for tests and offline trials",
      serveCommand,
      async (args) => {
        exitCode = await runServe(args);
      },
    )
    .demandCommand(1, "Name a command; see --help.")
    .strict()
    .version(false)
    .option("version", { alias: "V", describe: "Show the tool, jscodeshift, TypeScript and Node versions", type: "boolean" })
    .help()
    .alias("help", "h")
    .epilogue(
      "Exit codes: 0 ok, 1 findings at or above --fail-on, 2 usage error, 3 runtime failure.\nDocs: https://www.npmjs.com/package/comfydeploy-migrate",
    )
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message ?? "invalid arguments");
    })
    .parseAsync();
  return exitCode;
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = redactSecrets(error instanceof Error ? error.message : String(error)).split("\n")[0];
    if (error instanceof UsageError) {
      process.stderr.write(`${NAME}: ${message}\nRun '${NAME} --help' for usage.\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const prefix = error instanceof RuntimeFailure ? "" : "internal error: ";
    process.stderr.write(`${NAME}: ${prefix}${message}\n`);
    if (process.env.COMFYDEPLOY_MIGRATE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = EXIT.runtime;
  },
);
