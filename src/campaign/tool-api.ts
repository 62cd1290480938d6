/**
 * The one place `campaign` reaches into the rest of the tool: the scanner,
 * the report model, the rule catalog, `fix`, `pr` and `check`. Those modules
 * are being reorganised; when they move, only these imports change.
 *
 * The scanner and report model load with `campaign`; the fix pipeline
 * (jscodeshift, Babel), `pr` and the live check load only when a run asks
 * for them, as the `fix`, `pr` and `check` commands do.
 */
export { scan, type ScanOptions, type ScanResult } from "../scan/engine.js";
export { buildReport, type Report } from "../report/model.js";
export { renderJson as renderScanJson } from "../report/json.js";
export { summarize, type Summary } from "../report/summary.js";
export { getRule, RULE_IDS, type RuleId, type Severity } from "../rules/catalog.js";
export {
  FAIL_ON_CHOICES,
  type FailOn,
  hostSetFor,
  loadConfig,
  meetsThreshold,
  normalizeHost,
} from "../platform/config.js";
export { Git } from "../pr/git.js";
export { parseRemoteUrl, DEFAULT_API_URL } from "../pr/repository.js";
export { BOT_IDENTITY } from "../pr/identity.js";
export { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
export { TRANSFORM_IDS } from "../../transforms/index.js";
export type { PrSettings } from "../pr/workflow.js";
export type { PrOutcome } from "../pr/outcome.js";
export type { CheckResult } from "../check/live-check.js";

/** `fix` without writing: the changes it would make. */
export async function loadFixPlanner(): Promise<typeof import("../fix/runner.js").planFixes> {
  return (await import("../fix/runner.js")).planFixes;
}

/** `pr`'s workflow (commit the fix to a branch, push it, create or update the pull request) and its defaults. */
export async function loadPrTools(): Promise<{
  openOrUpdatePr: typeof import("../pr/workflow.js").openOrUpdatePr;
  defaultBranch: string;
  defaultTitle: string;
}> {
  const { openOrUpdatePr, DEFAULT_BRANCH, DEFAULT_TITLE } = await import("../pr/workflow.js");
  return { openOrUpdatePr, defaultBranch: DEFAULT_BRANCH, defaultTitle: DEFAULT_TITLE };
}

/** `check`: queue one run with the migration flag and follow it; the key comes from the same variable. */
export async function loadCheckTools(): Promise<{
  runCheck: typeof import("../check/live-check.js").runCheck;
  tokenEnv: string;
}> {
  const { runCheck, TOKEN_ENV } = await import("../check/live-check.js");
  return { runCheck, tokenEnv: TOKEN_ENV };
}
