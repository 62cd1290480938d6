/**
 * One request of the live check to the V2 API, within the check's budget:
 * retried with capped back-off that honours Retry-After, and never outliving
 * --wait. Failures are CheckErrors that carry their verdict.
 *
 * The queue POST creates a billed run, so it is sent again only when the
 * service cannot have acted on it: after a 429, or a connection that failed
 * before the request went out. After a 5xx, a reset or a time-out it may have
 * created a run, so the check stops and says so. Reads (GET) are retried on
 * 429 and 5xx as well. Answers are read up to a limit, never whole whatever
 * their size.
 */
import { retryAfterMs } from "../platform/retry-after.js";
import { request } from "undici";
import { maskKnownSecrets } from "../core/redact.js";
import type { CheckOptions, CheckResult, Verdict } from "./live-check.js";

/** The largest answer read (8 MiB): a run record is a few kilobytes; a bigger answer is not the API's. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Connection failures that happen before a byte of the request is sent: safe to retry, also for the queue POST. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

export interface HttpAnswer {
  status: number;
  json: unknown;
  /** The answer's text with the token masked, for excerpts. */
  text: string;
}

/** When the check must have answered: --wait from the start. */
export interface Budget {
  deadline: number;
  seconds: number;
}

export class CheckError extends Error {
  constructor(
    readonly verdict: Verdict,
    message: string,
    readonly extra: Partial<CheckResult> = {},
  ) {
    super(message);
  }
}

/**
 * One request, retried on 429 and 5xx with capped backoff that honours
 * Retry-After, all within the budget: a Retry-After beyond it ends the check
 * at once (the service said it will not answer in time), and no request may
 * outlive it.
 */
export async function send(
  options: CheckOptions,
  budget: Budget,
  method: "GET" | "POST",
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const firstQueueRequest = method === "POST"; // the queue request is the check's only POST
  const maxBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  // What the API answered last, so a budget that runs out mid-retry still says why it was retrying.
  let lastStatus: number | undefined;
  const ranOut = (when: string): CheckError =>
    new CheckError(
      "UNKNOWN",
      `--wait (${budget.seconds}s) ran out ${when}${lastStatus !== undefined ? ` (its last answer: HTTP ${lastStatus})` : ""}`,
      lastStatus !== undefined ? { httpStatus: lastStatus } : {},
    );
  for (let attempt = 0; ; attempt++) {
    const left = budget.deadline - Date.now();
    const unbounded = firstQueueRequest && attempt === 0;
    if (!unbounded && left <= 0) throw ranOut("before the API answered");
    const timeoutMs = unbounded ? options.requestTimeoutMs : Math.min(options.requestTimeoutMs, left);
    let response: Awaited<ReturnType<typeof request>>;
    let raw: string;
    try {
      response = await request(url, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: "application/json",
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        // undici's own timers are coarse (about a second); the signal makes the time-out exact.
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      raw = await readAnswer(response, maxBytes);
    } catch (error) {
      if (timeoutMs < options.requestTimeoutMs && isTimeout(error)) throw ranOut("while waiting for the API to answer");
      const waitMs = Math.min(options.maxBackoffMs, 500 * 2 ** attempt);
      if (notSent(error) && attempt < options.maxRetries && waitMs < budget.deadline - Date.now()) {
        await sleep(waitMs);
        continue;
      }
      throw error;
    }
    lastStatus = response.statusCode;
    if (method === "POST" && response.statusCode >= 500) {
      throw new CheckError(
        "ERROR",
        `the API answered HTTP ${response.statusCode} to the queue request, which may still have created a run: not sent again, so that no second run is billed; look for a run of the deployment before checking again`,
        { httpStatus: response.statusCode },
      );
    }
    const retryable = response.statusCode === 429 || response.statusCode >= 500;
    if (!retryable || attempt >= options.maxRetries) {
      if (retryable) {
        throw new CheckError(
          "ERROR",
          `the API kept answering HTTP ${response.statusCode} after ${attempt + 1} attempts`,
          {
            httpStatus: response.statusCode,
          },
        );
      }
      const text = maskKnownSecrets(raw, [options.token]);
      return { status: response.statusCode, json: parseJson(raw, text, response.statusCode), text };
    }
    const retryAfter = retryAfterMs(firstValue(response.headers["retry-after"]));
    const wait = Math.min(options.maxBackoffMs, retryAfter ?? 500 * 2 ** attempt);
    const remaining = budget.deadline - Date.now();
    if (retryAfter !== undefined && retryAfter > remaining) {
      throw new CheckError(
        "UNKNOWN",
        `the API answered HTTP ${response.statusCode} with Retry-After ${Math.ceil(retryAfter / 1000)}s, more than is left of --wait (${budget.seconds}s); try again later`,
        { httpStatus: response.statusCode },
      );
    }
    // A wait that uses up the rest of the budget leaves no time to ask again.
    if (wait >= remaining) {
      throw new CheckError(
        "UNKNOWN",
        `the API answered HTTP ${response.statusCode} until --wait (${budget.seconds}s) ran out`,
        {
          httpStatus: response.statusCode,
        },
      );
    }
    await sleep(wait);
  }
}

/** The answer's text, read up to `maxBytes`: past it, reading stops and the connection is dropped. */
async function readAnswer(response: Awaited<ReturnType<typeof request>>, maxBytes: number): Promise<string> {
  const tooLarge = (): CheckError => {
    response.body.destroy();
    return new CheckError(
      "ERROR",
      `the API's answer (HTTP ${response.statusCode}) is larger than ${maxBytes} bytes; stopped reading it: is --base-url the ComfyDeploy API?`,
      { httpStatus: response.statusCode },
    );
  };
  if (Number(response.headers["content-length"]) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function notSent(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return NOT_SENT_CODES.has(e.code ?? e.cause?.code ?? "");
}

/** `raw` parsed; `text` (masked) for the error. */
function parseJson(raw: string, text: string, status: number): unknown {
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    if (status >= 200 && status < 300)
      throw new CheckError("ERROR", `the API answered HTTP ${status} with malformed JSON: ${text.slice(0, 120)}`);
    return undefined;
  }
}

const firstValue = (header: string | string[] | undefined): string | undefined =>
  Array.isArray(header) ? header[0] : header;

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  return e.name === "TimeoutError" || e.name === "AbortError" || TIMEOUT_CODES.has(e.code ?? e.cause?.code ?? "");
}

/** Network, DNS, TLS and time-out failures, in words. */
export function networkReason(error: unknown): string {
  if (isTimeout(error)) return "the API did not answer in time (request time-out)";
  const e = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  switch (code) {
    case "ECONNREFUSED":
      return "the connection was refused: is the base URL right?";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "the connection was reset by the server";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name could not be resolved (DNS)";
    default:
      if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `TLS failed (${code})`;
      return `network error: ${code ?? e.message ?? String(error)}`;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
