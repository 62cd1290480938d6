/** `fix`: rewrite V1 uses to V2 where it is safe, leave review markers where it is not. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import pc from "picocolors";
import type { Argv } from "yargs";
import {
  CONFIG_OPTION_HELP,
  FAIL_ON_CHOICES,
  type FailOn,
  hostSetFor,
  loadConfig,
  meetsThreshold,
  normalizeHost,
} from "../platform/config.js";
import { EXIT, UsageError } from "../core/errors.js";
import { type TreeState, treeState } from "../files/git-state.js";
import { nodeRefTarget } from "../../transforms/node-pin/target.js";
import { onInterrupt, ROLLBACK_COMMAND } from "../fix/interrupt.js";
import { fixProgress } from "../fix/progress.js";
import { acquireFixLock, type FixLock } from "../fix/write.js";
import type { FixPlan } from "../fix/runner.js";
import type { Verification } from "../fix/verify.js";
import { TRANSFORM_IDS, TRANSFORM_METAS } from "../../transforms/index.js";
import type { TransformId } from "../../transforms/types.js";
import { appendStepSummary, colorEnabled, writeOutput } from "../platform/output.js";
import { findRepoRoot } from "../files/repo-root.js";
import { eventCounts, listTransforms, renderDiff, renderSummary } from "./fix-output.js";
import { findingsLeftLine, fixNextStep, fixShapingOptions } from "./next-step.js";
import { isActivelySuppressed } from "../core/suppression.js";
import { scan } from "../scan/engine.js";
import type { Finding } from "../core/finding.js";

export interface FixArgs {
  path: string;
  "dry-run"?: boolean;
  transform?: TransformId[];
  "list-transforms"?: boolean;
  "allow-dirty"?: boolean;
  "node-ref"?: string;
  "fail-on"?: FailOn;
  include?: string[];
  exclude?: string[];
  "all-files"?: boolean;
  "remove-unused"?: boolean;
  verify?: boolean;
  "project-tsc"?: boolean;
  "write-read-only"?: boolean;
  "legacy-host"?: string[];
  config?: string;
  color?: boolean;
}

export function fixCommand(yargs: Argv): Argv<FixArgs> {
  return yargs
    .positional("path", { describe: "Repository (or directory in it) to fix", type: "string", default: "." })
    .option("dry-run", {
      alias: "n",
      describe: "Print a unified diff of what would change; write nothing",
      type: "boolean",
    })
    .option("transform", {
      alias: "t",
      describe: "Run only this transform (repeatable; default: all). See --list-transforms",
      choices: TRANSFORM_IDS,
      array: true,
    })
    .option("list-transforms", {
      describe: "List the transforms, what each rewrites and what it marks, then exit",
      type: "boolean",
    })
    .option("allow-dirty", {
      describe: "Run even when the git work tree has uncommitted changes (or is not a git repository)",
      type: "boolean",
    })
    .option("node-ref", {
      describe: "Tag or commit to pin the ComfyUI node (BennyKok/comfyui-deploy) at; v2.1.0 or later (default: v2.1.0)",
      type: "string",
    })
    .option("fail-on", {
      describe: "Exit 1 when findings at or above this severity remain (review markers are warnings)",
      choices: FAIL_ON_CHOICES,
    })
    .option("include", { describe: "Only fix files matching this glob (repeatable)", type: "string", array: true })
    .option("all-files", {
      describe: "Also look at files .gitignore excludes (and node_modules); only .git is skipped",
      type: "boolean",
    })
    .option("exclude", { describe: "Never touch files matching this glob (repeatable)", type: "string", array: true })
    .option("remove-unused", {
      describe: "Remove comfydeploy from package.json files whose package imports it nowhere (default: report only)",
      type: "boolean",
    })
    .option("verify", {
      describe:
        "After writing, check the changed files: tsc -p <nearest tsconfig> with this tool's TypeScript (when the project's dependencies are installed), node --check, Python syntax; no tokens in their environment",
      type: "boolean",
    })
    .option("project-tsc", {
      describe:
        "With --verify: type-check with the project's own node_modules/typescript instead of this tool's (runs code from the repository)",
      type: "boolean",
    })
    .option("write-read-only", {
      describe: "Also rewrite files without write permission (default: leave them, saying so)",
      type: "boolean",
    })
    .option("legacy-host", {
      describe: "Another host that serves the V1 API (repeatable); its URLs are marked, not rewritten",
      type: "string",
      array: true,
    })
    .option("config", { describe: CONFIG_OPTION_HELP, type: "string" })
    .example("$0 fix --dry-run", "Show the diff without writing")
    .example("$0 fix", "Rewrite in place (needs a clean git tree)")
    .example("$0 fix -t v2-endpoints -t node-pin", "Only raw HTTP endpoints and node pins")
    .example("$0 fix --node-ref v2.3.3", "Pin the ComfyUI node at v2.3.3 instead of v2.1.0") as Argv<FixArgs>;
}

export async function runFix(args: FixArgs): Promise<number> {
  if (args["list-transforms"]) {
    await writeOutput(listTransforms(TRANSFORM_METAS), undefined);
    return EXIT.ok;
  }
  const { planFixes } = await import("../fix/runner.js");
  const root = resolve(args.path);
  const rootStat = await stat(root).catch(() => undefined);
  if (args["project-tsc"] && !args.verify) throw new UsageError("--project-tsc goes with --verify");
  if (!rootStat) throw new UsageError(`path not found: ${args.path}`);
  if (!rootStat.isDirectory()) throw new UsageError(`not a directory: ${args.path}`);
  const dryRun = Boolean(args["dry-run"]);
  // Taken before the tree is looked at: a second fix is told another one runs, not that the tree has changes.
  const lock = dryRun ? undefined : await acquireFixLock(root);
  try {
    return await fixWithLock(args, root, lock, dryRun, planFixes);
  } finally {
    lock?.release();
  }
}

async function fixWithLock(
  args: FixArgs,
  root: string,
  lock: FixLock | undefined,
  dryRun: boolean,
  planFixes: typeof import("../fix/runner.js").planFixes,
): Promise<number> {
  const nodeRef = nodeRefTarget(args["node-ref"]);
  let startedAs: TreeState["kind"] = "clean";
  if (!dryRun) {
    const state = await treeState(root);
    if (state.kind === "dirty" && !args["allow-dirty"]) {
      throw new UsageError(
        `the git work tree has uncommitted changes (${state.files.slice(0, 3).join(", ")}${state.files.length > 3 ? ", …" : ""}); commit or stash them, or pass --allow-dirty`,
      );
    }
    if (state.kind === "not-a-repository" && !args["allow-dirty"]) {
      throw new UsageError(
        `${args.path} is not in a git repository, so fix could not be undone; pass --allow-dirty to fix anyway`,
      );
    }
    startedAs = state.kind;
  }

  const { config } = await loadConfig(root, args.config);
  config.legacyHosts.push(...(args["legacy-host"] ?? []).map(normalizeHost));
  const hosts = hostSetFor(config);
  const include = [...config.include, ...(args.include ?? [])];
  const exclude = [...config.exclude, ...(args.exclude ?? [])];
  const allFiles = Boolean(args["all-files"]);
  const removeUnused = Boolean(args["remove-unused"]);
  const progress = fixProgress();
  let written = 0;
  const interrupt = dryRun
    ? undefined
    : onInterrupt(() => process.stderr.write(`\n${interruptedMessage(written, startedAs)}\n`));
  try {
    const plan = await planFixes({
      root,
      hosts,
      include,
      exclude,
      allFiles,
      transforms: args.transform ?? [...TRANSFORM_IDS],
      nodeRef,
      removeUnused,
      rules: config.rules,
      write: !dryRun,
      ...(lock ? { lock } : {}),
      ...(args["write-read-only"] ? { writeReadOnly: true } : {}),
      onWritten: () => written++,
      ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
      ...(progress.onFileDone ? { onFileDone: progress.onFileDone } : {}),
    }).finally(() => progress.end());
    const color = colorEnabled(args.color);
    const failOn: FailOn = args["fail-on"] ?? config.failOn ?? "error";

    if (dryRun) {
      const verifyNote = args.verify
        ? "--verify runs the project's checks on written files: it does nothing with --dry-run.\n"
        : "";
      const left = remainingAfterPlan(plan).filter((f) => meetsThreshold(f.severity, failOn));
      const leftNote = left.length > 0 ? findingsLeftLine(left, args.path, failOn) : undefined;
      await writeOutput(
        renderDiff(plan, color) +
          renderSummary(plan, true, color, args.path, fixShapingOptions(args), leftNote) +
          verifyNote,
        undefined,
      );
      await stepSummary(root, plan, undefined);
      return left.length > 0 ? EXIT.findings : EXIT.ok;
    }
    // The next step comes last, after what the check below finds left.
    await writeOutput(renderSummary(plan, false, color, args.path, "", undefined, false), undefined);
    const verification = args.verify ? await verify(root, plan, Boolean(args["project-tsc"])) : undefined;
    // Only files that had findings or were written can have findings now: the check costs what the fix did, not the tree.
    const touched = new Set([...plan.scan.findings.map((f) => f.file), ...plan.changes.map((c) => c.file)]);
    const after = await scan({
      root,
      hosts,
      include,
      exclude,
      allFiles,
      rules: config.rules,
      onlyFiles: touched,
      ...(touched.size < SCAN_THREADS_FROM ? { workers: false } : {}),
    });
    const remaining = [...after.findings, ...(verification?.findings ?? [])].filter((f) => !isActivelySuppressed(f));
    await stepSummary(
      root,
      plan,
      remaining.map((f) => f.severity),
    );
    const left = remaining.filter((f) => meetsThreshold(f.severity, failOn));
    const { rewrites, markers } = eventCounts(plan);
    const next = fixNextStep(rewrites, markers, false, args.path);
    const closing = [
      ...(left.length > 0 ? [findingsLeftLine(left, args.path, failOn)] : []),
      ...(next ? [pc.createColors(color).bold(next)] : []),
    ];
    if (closing.length > 0) await writeOutput(`${closing.join("\n")}\n`, undefined);
    return left.length > 0 ? EXIT.findings : EXIT.ok;
  } finally {
    interrupt?.dispose();
  }
}

/** Below this many files the check after writing runs in-process (TypeScript is loaded already; worker start-up is not free). */
const SCAN_THREADS_FROM = 400;

/** What to tell a user whose fix was stopped halfway. */
function interruptedMessage(written: number, startedAs: TreeState["kind"]): string {
  const done = `fix was interrupted after writing ${written} file${written === 1 ? "" : "s"} (each one whole).`;
  if (startedAs === "clean") return `${done} To undo the run: ${ROLLBACK_COMMAND}`;
  if (startedAs === "dirty")
    return `${done} The tree had uncommitted changes before fix, so review 'git status' before undoing anything.`;
  return `${done} This is not a git repository: restore the files from your copy.`;
}

/** On GitHub Actions, what fix did (or would do) goes to the job summary, paths from the repository root. */
async function stepSummary(
  root: string,
  plan: FixPlan,
  remaining: Array<"error" | "warning" | "info"> | undefined,
): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  const [{ renderFixMarkdown }, { prefix }] = await Promise.all([
    import("../fix/summary-markdown.js"),
    findRepoRoot(root),
  ]);
  await appendStepSummary(
    renderFixMarkdown(plan, { dryRun: remaining === undefined, prefix, ...(remaining ? { remaining } : {}) }),
  );
}

async function verify(root: string, plan: FixPlan, projectTypeScript: boolean): Promise<Verification> {
  const [{ verifyChanges }, { verificationLines }] = await Promise.all([
    import("../fix/verify.js"),
    import("../fix/verify-report.js"),
  ]);
  const verification = await verifyChanges(
    root,
    plan.changes.map((c) => c.file),
    { projectTypeScript },
  );
  await writeOutput(`${verificationLines(verification).join("\n")}\n`, undefined);
  return verification;
}

type LeftFinding = Pick<Finding, "file" | "line" | "ruleId" | "severity">;

/** Without writing, what would still be reported: findings in files no transform changed, plus markers. */
function remainingAfterPlan(plan: FixPlan): LeftFinding[] {
  const changed = new Set(plan.changes.map((c) => c.file));
  const left = plan.scan.findings.filter((f) => !isActivelySuppressed(f) && !changed.has(f.file));
  const markers = plan.changes.flatMap((c) =>
    c.events
      .filter((e) => e.kind === "marker")
      .map((e) => ({ file: c.file, line: e.line, ruleId: "review-marker" as const, severity: "warning" as const })),
  );
  return [...left, ...markers];
}
