/** Error kinds the CLI maps to exit codes. Messages are one line, for people. */

export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  runtime: 3,
} as const;

/** The user asked for something that cannot work: bad flag, missing path, bad config. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Something failed while doing the work: I/O, git, network. */
export class RuntimeFailure extends Error {
  override readonly name = "RuntimeFailure";
}

/** V8's RangeError for a recursion deeper than the stack: a parser or walker met input nested too deeply. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
