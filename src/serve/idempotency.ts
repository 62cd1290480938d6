/**
 * Idempotency keys on the queue request (`Idempotency-Key`, as Stripe and the
 * IETF draft name it): a second request with a key already seen returns the
 * run the first one created and queues nothing, so a client may safely resend
 * a billed request whose answer it lost. Reusing a key for another request is
 * a 422. A key lives as long as its run is kept.
 */
import { createHash } from "node:crypto";
import { HttpError } from "./http-error.js";

export const IDEMPOTENCY_HEADER = "idempotency-key";

/** Longest key accepted; the draft suggests UUIDs, Stripe allows 255 characters. */
const MAX_KEY_LENGTH = 255;

export class IdempotencyKeys {
  /** The request is kept as a digest: its inputs are already counted once, in the run's record. */
  private readonly byKey = new Map<string, { runId: string; request: string }>();
  private readonly keyOfRun = new Map<string, string>();

  /** The key of a request, or undefined; a malformed one is a 400. */
  static keyOf(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === "" || key.length > MAX_KEY_LENGTH) {
      throw new HttpError(400, { detail: `Idempotency-Key must be 1-${MAX_KEY_LENGTH} characters` });
    }
    return key;
  }

  /** The run an earlier request with this key created, or undefined; a different request under the same key is a 422. */
  runFor(key: string, request: unknown): string | undefined {
    const seen = this.byKey.get(key);
    if (!seen) return undefined;
    if (seen.request !== digest(request)) {
      throw new HttpError(422, {
        detail: [
          {
            loc: ["header", "Idempotency-Key"],
            msg: "Idempotency-Key was already used with a different request",
            type: "value_error",
          },
        ],
      });
    }
    return seen.runId;
  }

  remember(key: string, request: unknown, runId: string): void {
    this.byKey.set(key, { runId, request: digest(request) });
    this.keyOfRun.set(runId, key);
  }

  /** The run was dropped from the store: its key goes with it. */
  forget(runId: string): void {
    const key = this.keyOfRun.get(runId);
    if (key === undefined) return;
    this.keyOfRun.delete(runId);
    this.byKey.delete(key);
  }
}

function digest(request: unknown): string {
  return createHash("sha256").update(JSON.stringify(request)).digest("base64");
}
