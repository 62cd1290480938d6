/** The pull request body's inputs from a scan of the fixed tree, with paths made relative to the repository root. */
import type { Finding } from "../core/finding.js";
import { isActivelySuppressed } from "../core/suppression.js";
import type { FixPlan } from "../fix/runner.js";
import type { Verification } from "../fix/verify.js";
import type { ScanResult } from "../scan/engine.js";
import { buildReport, type RepoLink } from "../report/model.js";
import { TOOL } from "../platform/tool-info.js";
import type { BodyInputs, ChangedFile, ReviewItem } from "./body.js";
import type { PrSettings } from "./settings.js";

/** The body's inputs from a scan of the fixed tree (or, in a dry run, its estimate), paths made repository-relative. */
export function bodyParts(
  settings: PrSettings,
  prefix: string,
  plan: FixPlan,
  after: ScanResult,
  markers: readonly Finding[],
  link: RepoLink | undefined,
): Omit<BodyInputs, "check" | "estimated"> {
  const inRepo = (f: Finding): Finding => ({ ...f, file: `${prefix}${f.file}` });
  const changes: ChangedFile[] = plan.changes.map((c) => ({ file: `${prefix}${c.file}`, events: c.events }));
  const reviewItems: ReviewItem[] = markers
    .filter((f) => !isActivelySuppressed(f))
    .map((f) => ({
      file: `${prefix}${f.file}`,
      line: f.line,
      text: f.message.replace(/^Review marker left by fix:\s*/, ""),
    }))
    .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  const rest: ScanResult = {
    ...after,
    findings: after.findings.filter((f) => f.ruleId !== "review-marker").map(inRepo),
    skipped: after.skipped.map((s) => ({ ...s, file: `${prefix}${s.file}` })),
  };
  const remaining = buildReport(rest, { command: settings.scanCommand, ...(link ? { repo: link } : {}) });
  return {
    changes,
    reviewItems,
    remaining,
    command: settings.command,
    tool: { name: TOOL.name, version: TOOL.version },
  };
}

export function inRepoVerification(verification: Verification, prefix: string): Verification {
  return { ...verification, findings: verification.findings.map((f) => ({ ...f, file: `${prefix}${f.file}` })) };
}
