/**
 * Ctrl-C (SIGINT) or SIGTERM while fix writes: the files written so far stay
 * written (each one whole: writes are atomic, and the temp file of the write
 * in progress is removed on exit), and the user is told how to undo the run.
 */

/** The rollback for a run that started on a clean tree (fix's default): back to the last commit. */
export const ROLLBACK_COMMAND = "git checkout -- . && git clean -fd";

/** Runs `beforeExit` on SIGINT or SIGTERM, then exits 130 or 143 as a shell would; dispose() removes the handlers. */
export function onInterrupt(beforeExit: () => void): { dispose(): void } {
  const handler = (signal: NodeJS.Signals): void => {
    beforeExit();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  return {
    dispose() {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
