/** `scan`: find every V1 use in a repository and report it. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { FAIL_ON_CHOICES, type FailOn, hostSetFor, loadConfig, meetsThreshold, normalizeHost } from "../config.js";
import { EXIT, UsageError } from "../errors.js";
import { writeOutput } from "../output.js";
import { renderJson } from "../report/json.js";
import { renderText } from "../report/text.js";
import { type ScanProgress, scan } from "../scan/engine.js";

export const SCAN_FORMATS = ["text", "json"] as const;

export interface ScanArgs {
  path: string;
  format: (typeof SCAN_FORMATS)[number];
  output?: string;
  "fail-on"?: FailOn;
  include?: string[];
  exclude?: string[];
  "legacy-host"?: string[];
  config?: string;
  progress?: boolean;
  color?: boolean;
}

export function scanCommand(yargs: Argv): Argv<ScanArgs> {
  return yargs
    .positional("path", { describe: "Directory to scan", type: "string", default: "." })
    .option("format", {
      alias: "f",
      describe: "Report format: text (grouped by file, with counts) or json (stable contract, see schema/)",
      choices: SCAN_FORMATS,
      default: "text" as const,
    })
    .option("output", { alias: "o", describe: "Write the report to this file instead of stdout", type: "string" })
    .option("fail-on", {
      describe: "Exit 1 when a finding has this severity or higher; 'none' never fails on findings",
      choices: FAIL_ON_CHOICES,
    })
    .option("include", { describe: "Only scan files matching this glob (repeatable)", type: "string", array: true })
    .option("exclude", { describe: "Skip files matching this glob (repeatable)", type: "string", array: true })
    .option("legacy-host", {
      describe: "Another host that serves the V1 API, e.g. a white-label deployment (repeatable)",
      type: "string",
      array: true,
    })
    .option("config", { describe: "Config file (default: comfydeploy-migrate.config.json or package.json key)", type: "string" })
    .option("progress", { describe: "Show progress on stderr (default: when stderr is a terminal)", type: "boolean" })
    .option("color", { describe: "Colour the text report (default: when stdout is a terminal)", type: "boolean" })
    .example("$0 scan", "Scan the current directory, text report")
    .example("$0 scan ./app --format json -o v1-report.json", "Write the JSON report to a file")
    .example("$0 scan --fail-on warning", "Fail CI on warnings too")
    .example("$0 scan --exclude 'docs/**' --legacy-host comfy.internal.example.com", "Skip docs; also treat a self-hosted V1 host as legacy") as Argv<ScanArgs>;
}

export async function runScan(args: ScanArgs): Promise<number> {
  const root = resolve(args.path);
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat) throw new UsageError(`path not found: ${args.path}`);
  if (!rootStat.isDirectory()) throw new UsageError(`not a directory: ${args.path}`);

  const { config } = await loadConfig(root, args.config);
  config.legacyHosts.push(...(args["legacy-host"] ?? []).map(normalizeHost));
  const failOn: FailOn = args["fail-on"] ?? config.failOn ?? "error";
  const showProgress = args.progress ?? Boolean(process.stderr.isTTY);

  const result = await scan({
    root,
    hosts: hostSetFor(config),
    include: [...config.include, ...(args.include ?? [])],
    exclude: [...config.exclude, ...(args.exclude ?? [])],
    ...(showProgress ? { onProgress: progressPrinter() } : {}),
  });

  const color = args.output === undefined && (args.color ?? Boolean(process.stdout.isTTY));
  const rendered = args.format === "json" ? renderJson(result) : renderText(result, { color });
  await writeOutput(rendered, args.output);
  const failing = result.findings.some((f) => meetsThreshold(f.severity, failOn));
  return failing ? EXIT.findings : EXIT.ok;
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
