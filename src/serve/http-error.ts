/** An answer the emulator gives instead of the route's own: status, JSON body, extra headers. */
import type { ValidationItem } from "./validation.js";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

/** FastAPI's 422: `{"detail": [{loc, msg, type}, …]}`. */
export function unprocessable(detail: ValidationItem[]): HttpError {
  return new HttpError(422, { detail });
}
