/**
 * Run statuses that end a run (shared/docs/v1-to-v2.md §5: an inference from
 * the SDKs and the V1 server; other strings, known or not, mean "not yet").
 */
export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set(["success", "failed", "timeout", "cancelled"]);

export function isTerminal(status: string): boolean {
  return TERMINAL_RUN_STATUSES.has(status);
}
