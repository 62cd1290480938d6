/**
 * Facts about the V2 run record that more than one command needs: which
 * statuses end a run, and the two names one of its fields goes by. From the
 * service interface spec and shared/docs/v1-to-v2.md ("Neutral names").
 */

/** A run in one of these statuses never changes again. */
export const TERMINAL_RUN_STATUSES = ["success", "failed", "timeout", "cancelled"] as const;

export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number];

export function isTerminalRunStatus(status: string): status is TerminalRunStatus {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(status);
}

/**
 * The id of the call on the executing platform: the spec writes it with a
 * neutral word, the vendor's service and its V2 JS SDK (2.0.0-beta.69, which
 * requires it on every run record it reads) with the platform's name.
 */
export const RUN_CALL_ID_FIELDS = {
  spec: "executor_function_call_id",
  vendor: "modal_function_call_id",
} as const;
