/**
 * Why a repository is not ready, as short reasons a row can show: the run
 * failed, review markers left by fix, an outdated ComfyUI node pin, other V1
 * findings, a live check that did not pass, a pull request whose checks fail.
 */
import { z } from "zod/v4";
import type { RepoReport } from "./repo-report.js";

export const REASON_KINDS = ["run-failed", "markers", "node-pin", "findings", "live-check", "pr-checks"] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

export const reasonSchema = z.strictObject({ kind: z.enum(REASON_KINDS), text: z.string() });
export type Reason = z.infer<typeof reasonSchema>;

/** Rules whose findings have a reason of their own. */
const MARKER_RULE = "review-marker";
const NODE_PIN_RULE = "node-component-pin";

export function reasonsOf(report: RepoReport): Reason[] {
  const reasons: Reason[] = [];
  if (report.status === "failed" && report.failure)
    reasons.push({ kind: "run-failed", text: `${report.failure.stage} failed: ${report.failure.reason}` });
  const summary = report.scan?.summary;
  const markers = summary?.byRule[MARKER_RULE] ?? 0;
  if (markers > 0) reasons.push({ kind: "markers", text: `${count(markers, "review marker")} left` });
  if (report.nodePins === "outdated") reasons.push({ kind: "node-pin", text: "an outdated ComfyUI node pin" });
  const others =
    (summary?.total ?? 0) - markers - (report.nodePins === "outdated" ? (summary?.byRule[NODE_PIN_RULE] ?? 0) : 0);
  if (others > 0) reasons.push({ kind: "findings", text: `${count(others, "V1 finding")} left` });
  if (report.check && report.check.verdict !== "READY")
    reasons.push({
      kind: "live-check",
      text: `live check ${report.check.verdict.replace("_", " ")}: ${report.check.reason}`,
    });
  if (report.pullRequest?.state === "open" && report.pullRequest.checks === "failed")
    reasons.push({ kind: "pr-checks", text: "a failed check on the pull request" });
  return reasons;
}

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}
