/** Logs kept for tests and diagnostics hold the most recent entries only, so a long-running emulator stays flat. */
export const LOG_LIMIT = 1000;

export function keepLast<T>(log: T[], entry: T, limit: number = LOG_LIMIT): void {
  log.push(entry);
  if (log.length > limit) log.splice(0, log.length - limit);
}
