/**
 * One failed GitHub API call as one masked line, and what kind of failure it
 * is: callers add their own advice and choose usage error or runtime failure
 * from the kind. A 403 or 429 that is a rate limit is never "forbidden".
 */
import { RuntimeFailure, UsageError } from "../../core/errors.js";
import { maskKnownSecrets } from "../../core/redact.js";
import { type RateLimit, rateLimitOf } from "../retry-after.js";
import { AttemptTimeout, gaveUpOf, seconds } from "./transport.js";

export type FailureKind = "auth" | "forbidden" | "not-found" | "rate-limit" | "budget" | "timeout" | "network" | "http";

export class GitHubFailure extends Error {
  override readonly name = "GitHubFailure";

  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    readonly rateLimit?: RateLimit,
    /** GitHub's own message, masked, on one line. */
    readonly said = "",
  ) {
    super(message);
  }
}

/** A failure with the HTTP status GitHub answered, if any. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof GitHubFailure ? error.status : undefined;
}

interface OctokitError {
  status?: number;
  message?: string;
  cause?: unknown;
  response?: { data?: unknown; headers?: Record<string, string | number | undefined> };
}

export function failureOf(
  error: unknown,
  context: { what: string; apiUrl: string; secrets: ReadonlyArray<string | undefined> },
): GitHubFailure {
  const mask = (text: string): string => maskKnownSecrets(text, context.secrets);
  const gaveUp = gaveUpOf(error);
  if (gaveUp)
    return new GitHubFailure(
      gaveUp.reason === "budget" ? "budget" : "network",
      mask(`GitHub API at ${context.apiUrl}: gave up ${context.what}: ${gaveUp.message}`),
    );
  const failure = error as OctokitError;
  const response = failure?.response;
  if (typeof failure?.status !== "number" || !response) {
    // Octokit keeps fetch's error as the cause, and fetch its reason as the cause of that.
    const cause = failure?.cause as { code?: string; cause?: { code?: string } } | undefined;
    const timedOut = cause?.cause instanceof AttemptTimeout ? cause.cause : undefined;
    const why = timedOut?.message ?? cause?.cause?.code ?? cause?.code ?? failure?.message ?? String(error);
    const message = mask(`GitHub API at ${context.apiUrl} could not be reached while ${context.what} (${why})`);
    return new GitHubFailure(timedOut ? "timeout" : "network", message);
  }
  const status = failure.status;
  // Masked before it is cut: a token cut in two would no longer be recognised.
  const said = mask(githubMessage(response.data)).slice(0, 200);
  const message = `GitHub API: ${context.what} failed (HTTP ${status}${said ? `: ${said}` : ""})`;
  const limit = rateLimitOf(status, response.headers ?? {}, said);
  if (limit) return new GitHubFailure("rate-limit", message, status, limit, said);
  const kind: FailureKind =
    status === 401 ? "auth" : status === 403 ? "forbidden" : status === 404 ? "not-found" : "http";
  return new GitHubFailure(kind, message, status, undefined, said);
}

/** Why no more waiting was done on a rate limit, and when a rerun can work. */
export function rateLimitAdvice(limit: RateLimit, bounds: string, now: number = Date.now()): string {
  const name = limit.kind === "primary" ? "the API rate limit is used up" : "GitHub's secondary rate limit was hit";
  if (limit.waitMs === undefined) return `${name} (${bounds}); wait a few minutes, then rerun`;
  const until = new Date(now + limit.waitMs).toISOString().replace(/\.\d+Z$/, "Z");
  return `${name} (GitHub asks to wait ${seconds(Math.ceil(limit.waitMs / 1000) * 1000)}; ${bounds}); rerun after ${until}`;
}

/** GitHub's message plus the first detail of a validation error, on one line; a page that is not JSON, cut short. */
function githubMessage(data: unknown): string {
  if (typeof data === "string") return data.replace(/\s+/g, " ").trim();
  const body = data as
    | { message?: unknown; errors?: Array<{ message?: unknown; code?: unknown; field?: unknown }> }
    | undefined;
  const message = typeof body?.message === "string" ? body.message : "";
  const first = Array.isArray(body?.errors) ? body.errors[0] : undefined;
  const detail =
    typeof first?.message === "string"
      ? first.message
      : first && typeof first.code === "string"
        ? `${typeof first.field === "string" ? `${first.field} ` : ""}${first.code}`
        : "";
  return [message, detail]
    .filter(Boolean)
    .join(": ")
    .replace(/\s*\n\s*/g, " ");
}

/**
 * The CLI's error for a failed call: refusals (bad token, no access, no such
 * repository) are usage errors, everything else runtime failures; `advice`
 * adds what the caller knows to say per kind.
 */
export function cliErrorOf(error: unknown, advice: Partial<Record<FailureKind, string>>): Error {
  if (error instanceof UnexpectedAnswer) return new RuntimeFailure(error.message);
  if (!(error instanceof GitHubFailure)) return error instanceof Error ? error : new Error(String(error));
  const extra = advice[error.kind];
  const message = extra ? `${error.message}; ${extra}` : error.message;
  return error.kind === "auth" || error.kind === "forbidden" || error.kind === "not-found"
    ? new UsageError(message)
    : new RuntimeFailure(message);
}

/** GitHub answered, but not what the endpoint returns. */
export class UnexpectedAnswer extends Error {}
