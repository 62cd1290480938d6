/**
 * `scan --print-config`: the configuration a scan would run with, each value
 * beside where it came from (the default, the config file, a flag or the
 * environment), as ESLint's --print-config shows it. Lists merge the config
 * file's entries and the flags', so each entry is named with its origin.
 */
import { basename, relative } from "node:path";
import { DEFAULT_HOSTS } from "../core/urls.js";
import { isCi, normalizeHost, PACKAGE_JSON_KEY, type UserConfig } from "../platform/config.js";
import type { ScanArgs } from "./scan.js";

interface Setting<T> {
  value: T;
  from: string;
}

interface ListEntry {
  value: string;
  from: string;
}

/** A config file as the user would name it: relative to the working directory when below it. */
function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  const name = rel === "" || rel.startsWith("..") ? file : rel;
  return basename(file) === "package.json" ? `${name} "${PACKAGE_JSON_KEY}"` : name;
}

function scalar<T>(
  flag: [string, T | undefined],
  fromFile: T | undefined,
  file: string,
  fallback: Setting<T>,
): Setting<T> {
  if (flag[1] !== undefined) return { value: flag[1], from: flag[0] };
  if (fromFile !== undefined) return { value: fromFile, from: file };
  return fallback;
}

function list(parts: Array<[string, readonly string[]]>): ListEntry[] {
  return parts.flatMap(([from, values]) => values.map((value) => ({ value, from })));
}

export function resolvedConfig(
  config: UserConfig,
  source: string | undefined,
  args: ScanArgs,
  env: NodeJS.ProcessEnv = process.env,
) {
  const file = source ? shown(source) : "(no config file)";
  return {
    configFile: source ? shown(source) : null,
    failOn: scalar(["--fail-on", args["fail-on"]], config.failOn, file, { value: "error", from: "default" }),
    maxWarnings: scalar<number | null>(["--max-warnings", args["max-warnings"]], undefined, file, {
      value: null,
      from: "default",
    }),
    quiet: scalar(["--quiet", args.quiet], undefined, file, { value: false, from: "default" }),
    reportUnusedIgnores: scalar(
      ["--report-unused-ignores", args["report-unused-ignores"]],
      config.reportUnusedIgnores,
      file,
      {
        value: isCi(env),
        from: isCi(env) ? "environment (CI is set)" : "default",
      },
    ),
    include: list([
      [file, config.include],
      ["--include", args.include ?? []],
    ]),
    exclude: list([
      [file, config.exclude],
      ["--exclude", args.exclude ?? []],
    ]),
    legacyHosts: list([
      ["default", DEFAULT_HOSTS.legacy],
      [file, config.legacyHosts],
      ["--legacy-host", (args["legacy-host"] ?? []).map(normalizeHost)],
    ]),
    currentHosts: list([
      ["default", DEFAULT_HOSTS.current],
      [file, config.currentHosts],
    ]),
    ignoreHosts: list([[file, config.ignoreHosts]]),
    rules: Object.fromEntries(
      Object.entries(config.rules).map(([id, setting]) => [id, { value: setting, from: file }]),
    ),
    onlyRules: args.rule ? { value: args.rule, from: "--rule" } : { value: null, from: "default" },
  };
}

export function renderResolvedConfig(config: UserConfig, source: string | undefined, args: ScanArgs): string {
  return `${JSON.stringify(resolvedConfig(config, source, args), null, 2)}\n`;
}
