#!/usr/bin/env node
/** The command line: yargs wiring, exit codes, and one-line errors for user mistakes. */
// First, so that every module loaded later can come from the compile cache.
import "./platform/compile-cache.js";
import yargs, { type Argv, type CommandModule } from "yargs";
import { hideBin } from "yargs/helpers";
import { EXIT, RuntimeFailure, UsageError } from "./core/errors.js";
import { redactSecrets } from "./core/redact.js";
import { terminalSafeLine } from "./core/terminal-safe.js";
import { invocation } from "./platform/command-line.js";
import { TOOL, versionText } from "./platform/tool-info.js";
import { checkNumbers, explainYargsFailure, type KnownOptions, TOP_LEVEL_OPTIONS } from "./commands/usage-message.js";

const NAME = TOOL.name;

/**
 * Each command's module (and the libraries behind it: TypeScript, jscodeshift,
 * undici, zod) is loaded only when that command runs; --help lists them all
 * from this table.
 */
interface CommandEntry {
  name: string;
  command: string;
  describe: string;
  // biome-ignore lint/suspicious/noExplicitAny: each command parses its own argument type; the table holds them all
  load: () => Promise<{ builder: (y: Argv) => Argv<any>; run: (args: any) => Promise<number> }>;
}

const COMMANDS: CommandEntry[] = [
  {
    name: "scan",
    command: "scan [paths..]",
    describe: "Find every V1 use: legacy host and endpoints, V1 SDKs, old SDK versions, node pins, worker images",
    load: async () => {
      const m = await import("./commands/scan.js");
      return { builder: m.scanCommand, run: m.runScan };
    },
  },
  {
    name: "fix",
    command: "fix [path]",
    describe: "Rewrite V1 uses to V2 where safe; leave review markers elsewhere",
    load: async () => {
      const m = await import("./commands/fix.js");
      return { builder: m.fixCommand, run: m.runFix };
    },
  },
  {
    name: "check",
    command: "check",
    describe: "Queue a test run with the migration flag on V2, follow it, and report readiness",
    load: async () => {
      const m = await import("./commands/check.js");
      return { builder: m.checkCommand, run: m.runCheckCommand };
    },
  },
  {
    name: "report",
    command: "report [path]",
    describe: "One readiness report: code, dependencies, node pins and (optionally) the live check",
    load: async () => {
      const m = await import("./commands/report.js");
      return { builder: m.reportCommand, run: m.runReport };
    },
  },
  {
    name: "pr",
    command: "pr [path]",
    describe: "Run fix, commit to a branch, push it, and open or update one pull request",
    load: async () => {
      const m = await import("./commands/pr.js");
      return { builder: m.prCommand, run: m.runPr };
    },
  },
  {
    name: "campaign",
    command: "campaign <action> [target]",
    describe:
      "Many repositories at once: plan a CI matrix, run (clone, scan, optionally open pull requests), merge into a dashboard, refresh pull request states",
    load: async () => {
      const m = await import("./commands/campaign.js");
      return { builder: m.campaignCommand, run: m.runCampaignCommand };
    },
  },
  {
    name: "serve",
    command: "serve",
    describe: "Run a local emulator of the V2 service (and optionally V1) for tests and offline trials",
    load: async () => {
      const m = await import("./commands/serve.js");
      return { builder: m.serveCommand, run: m.runServe };
    },
  },
];

/** yargs command modules: the requested one fully loaded, the others as names for --help. */
async function commandModules(
  argv: readonly string[],
  setExit: (code: number) => void,
  known: { options: KnownOptions },
): Promise<CommandModule[]> {
  const requested = argv.find((arg) => COMMANDS.some((entry) => entry.name === arg));
  return Promise.all(
    COMMANDS.map(async (entry): Promise<CommandModule> => {
      if (entry.name !== requested) {
        return {
          command: entry.command,
          describe: entry.describe,
          handler: () => {
            throw new Error(`command ${entry.name} was not loaded`);
          },
        };
      }
      const { builder, run } = await entry.load();
      return {
        command: entry.command,
        describe: entry.describe,
        builder: (y: Argv) => {
          const built = builder(y);
          known.options = knownOptions(built);
          skipHelpCache(built);
          return built;
        },
        handler: async (args) => {
          checkNumbers(args, known.options, argv);
          setExit(await run(args));
        },
      };
    }),
  );
}

/**
 * yargs formats a command's whole help before running its handler, so that
 * the handler could still show it; no handler does, and `--help` never runs
 * one. Left unformatted, a scan starts about 25 ms sooner.
 */
function skipHelpCache(y: Argv): void {
  const internal = y as unknown as {
    getInternalMethods?: () => { getUsageInstance(): { cacheHelpMessage?: () => void } };
  };
  const usage = internal.getInternalMethods?.().getUsageInstance();
  if (usage && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
}

/** The options yargs knows once a command's builder ran, for "did you mean" and number checks. */
function knownOptions(y: Argv): KnownOptions {
  const options = (
    y as unknown as {
      getOptions(): {
        key: Record<string, unknown>;
        alias: Record<string, string[]>;
        boolean: string[];
        number: string[];
      };
    }
  ).getOptions();
  return { keys: Object.keys(options.key), aliases: options.alias, booleans: options.boolean, numbers: options.number };
}

/** `help` alone or `help <command>`, as git and npm take it: the same as `--help` / `<command> --help`. */
function helpAsFlag(argv: string[]): string[] {
  if (argv[0] !== "help") return argv;
  const [, command, ...rest] = argv;
  if (command === undefined) return ["--help"];
  if (rest.length > 0 || !COMMANDS.some((entry) => entry.name === command)) {
    throw new UsageError(
      `help takes one command name (${COMMANDS.map((entry) => entry.name).join(", ")}), got '${[command, ...rest].join(" ")}'`,
    );
  }
  return [command, "--help"];
}

/**
 * A lone `-` (stdin or stdout to other tools): yargs drops it without a word,
 * so `scan -` would scan the working directory. No command reads stdin.
 */
function refuseDash(argv: readonly string[]): void {
  const end = argv.indexOf("--");
  if ((end === -1 ? argv : argv.slice(0, end)).includes("-")) {
    throw new UsageError(
      "'-' is not read as stdin or stdout: name files and directories as arguments, and omit --output for stdout",
    );
  }
}

async function main(given: string[]): Promise<number> {
  const argv = helpAsFlag(given);
  refuseDash(argv);
  if (asksForVersion(argv)) {
    process.stdout.write(await versionText());
    return EXIT.ok;
  }
  let exitCode: number = EXIT.ok;
  const known = { options: TOP_LEVEL_OPTIONS };
  await yargs(argv)
    .scriptName(invocation())
    .usage(`${invocation()} <command> [options]\n\nFind and migrate ComfyDeploy V1 API usage to V2.`)
    .command(await commandModules(argv, (code) => (exitCode = code), known))
    // Listed for --help only: helpAsFlag turns `help <command>` into `<command> --help` before parsing.
    .command(
      "help [command]",
      "Show the help of a command, as --help after it does",
      () => {},
      () => {},
    )
    .demandCommand(1, "Name a command; see --help.")
    .strict()
    .recommendCommands()
    .option("color", {
      describe:
        "Colour terminal output; --no-color turns it off (default: on a terminal, unless NO_COLOR is set or FORCE_COLOR=0; FORCE_COLOR=1 forces it)",
      type: "boolean",
      global: true,
    })
    .version(false)
    .option("version", {
      alias: "V",
      describe: "Show the tool's version, then jscodeshift's, the scanner's TypeScript (from ts-morph) and Node's",
      type: "boolean",
    })
    .help()
    .alias("help", "h")
    .epilogue(
      `Exit codes: 0 ok, 1 findings at or above --fail-on, 2 usage error, 3 runtime failure.\nDocs: ${TOOL.repository}#readme`,
    )
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      const names = COMMANDS.map((entry) => entry.name);
      throw new UsageError(explainYargsFailure(message ?? "invalid arguments", known.options, names, argv));
    })
    .parseAsync();
  return exitCode;
}

/** `--version` or `-V` as the first argument, or after a command name (`scan --version`), as linters accept it. */
function asksForVersion(argv: readonly string[]): boolean {
  const isFlag = (arg: string | undefined): boolean => arg === "--version" || arg === "-V";
  return isFlag(argv[0]) || (argv.length === 2 && COMMANDS.some((c) => c.name === argv[0]) && isFlag(argv[1]));
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // The first line only, its control characters escaped: messages quote file names and server answers.
    const message = terminalSafeLine(
      redactSecrets(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "",
    );
    if (error instanceof UsageError) {
      process.stderr.write(`${NAME}: ${message}\nRun '${invocation()} --help' for usage.\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const prefix = error instanceof RuntimeFailure ? "" : "internal error: ";
    process.stderr.write(`${NAME}: ${prefix}${message}\n`);
    if (process.env.COMFYDEPLOY_MIGRATE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = EXIT.runtime;
  },
);
