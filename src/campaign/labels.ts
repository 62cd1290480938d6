/**
 * How campaign.json's values read to people: one label per value, shared by
 * campaign.md, campaign.html and `campaign status`, so the three never say
 * different things about the same repository.
 */
import type { Readiness } from "./campaign-model.js";
import type { ChecksState, NodePinState, ReviewState } from "./repo-report.js";

/** The value campaign.json holds, or a dash when the repository was not scanned. */
export function nodePinLabel(state: NodePinState | undefined): string {
  return state ?? "–";
}

export const READINESS_LABEL: Record<Readiness, string> = {
  ready: "ready",
  "not-ready": "not ready",
  failed: "failed",
};

export const CHECKS_LABEL: Record<ChecksState, string> = {
  passed: "checks passed",
  failed: "checks failed",
  pending: "checks pending",
  none: "no checks",
};

export const REVIEW_LABEL: Record<ReviewState, string> = {
  approved: "approved",
  "changes-requested": "changes requested",
  "review-required": "review required",
};
