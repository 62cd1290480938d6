/**
 * The live readiness check: queue one run with the migration flag over raw
 * HTTP (the V2 SDK drops unknown fields such as `flags`), follow it to the
 * end, and turn what happened into a verdict.
 *
 * `waitSeconds` is the whole budget: retries in the queue phase, polls, and
 * requests in flight all stop when it runs out (UNKNOWN, with the reason).
 * Only the first queue request always gets its full time-out, so that
 * `--wait 0` still queues the run and reports its id.
 *
 * The result never carries the token, even when the API echoes it: answers
 * are masked before they are cut into excerpts (a cut token would no longer
 * match), and the result is masked once more before it is returned, since it
 * reaches pull request bodies and campaign reports as well as the terminal.
 */
import { request } from "undici";
import { cutoffStatus, type CutoffStatus } from "../knowledge/cutoff.js";
import { ENDPOINTS } from "../knowledge/migration.js";
import { isTerminalRunStatus } from "../knowledge/run-record.js";
import { maskKnownSecrets } from "../core/redact.js";

/** The environment variable that holds the API key for the live check. */
export const TOKEN_ENV = "COMFYDEPLOY_API_KEY";

export type Verdict = "READY" | "NOT_READY" | "UNKNOWN" | "ERROR";

export interface CheckOptions {
  /** API base, ending in /api. */
  baseUrl: string;
  token: string;
  deploymentId: string;
  flag: string;
  gpu?: string;
  /** The whole check's budget in seconds (queueing, retries, polls); past it the answer is UNKNOWN. */
  waitSeconds: number;
  /** Time-out of one HTTP request. */
  requestTimeoutMs: number;
  /** Retries of one request on 429 and 5xx. */
  maxRetries: number;
  /** First poll interval; it grows by half each poll, up to 10 s. */
  pollIntervalMs: number;
  /** Longest wait between retries, whatever Retry-After says. */
  maxBackoffMs: number;
  cutoff?: string;
  now?: Date;
  onStatus?: (status: string, liveStatus: string | null) => void;
}

export interface CheckResult {
  verdict: Verdict;
  reason: string;
  deploymentId: string;
  flag: string;
  baseUrl: string;
  runId?: string;
  status?: string;
  liveStatus?: string | null;
  httpStatus?: number;
  detail?: Array<{ loc: unknown[]; msg: string; type: string }>;
  cutoff: CutoffStatus;
}

interface HttpAnswer {
  status: number;
  json: unknown;
  /** The answer's text with the token masked, for excerpts. */
  text: string;
}

/** When the check must have answered: --wait from the start. */
interface Budget {
  deadline: number;
  seconds: number;
}

class CheckError extends Error {
  constructor(
    readonly verdict: Verdict,
    message: string,
    readonly extra: Partial<CheckResult> = {},
  ) {
    super(message);
  }
}

export function queueRequestOf(options: Pick<CheckOptions, "baseUrl" | "deploymentId" | "flag" | "gpu">): {
  method: "POST";
  url: string;
  body: Record<string, unknown>;
} {
  return {
    method: "POST",
    url: `${options.baseUrl.replace(/\/+$/, "")}${ENDPOINTS.createRun.v2.path}`,
    body: { deployment_id: options.deploymentId, flags: [options.flag], ...(options.gpu ? { gpu: options.gpu } : {}) },
  };
}

export async function runCheck(options: CheckOptions): Promise<CheckResult> {
  const base: CheckResult = {
    verdict: "ERROR",
    reason: "",
    deploymentId: options.deploymentId,
    flag: options.flag,
    baseUrl: options.baseUrl,
    cutoff: cutoffStatus(options.now, options.cutoff),
  };
  const budget: Budget = { deadline: Date.now() + options.waitSeconds * 1000, seconds: options.waitSeconds };
  let result: CheckResult;
  try {
    result = { ...base, ...(await check(options, budget)) };
  } catch (error) {
    if (error instanceof CheckError) result = { ...base, ...error.extra, verdict: error.verdict, reason: error.message };
    else result = { ...base, verdict: "ERROR", reason: networkReason(error) };
  }
  return masked(result, options.token);
}

/** Every text of the result that came from the API, with the token masked. */
function masked(result: CheckResult, token: string): CheckResult {
  const mask = (text: string): string => maskKnownSecrets(text, [token]);
  return {
    ...result,
    reason: mask(result.reason),
    ...(result.status !== undefined ? { status: mask(result.status) } : {}),
    ...(typeof result.liveStatus === "string" ? { liveStatus: mask(result.liveStatus) } : {}),
    ...(result.detail
      ? { detail: result.detail.map((d) => ({ loc: d.loc.map((part) => (typeof part === "string" ? mask(part) : part)), msg: mask(d.msg), type: mask(d.type) })) }
      : {}),
  };
}

async function check(options: CheckOptions, budget: Budget): Promise<Partial<CheckResult>> {
  const queue = queueRequestOf(options);
  const queued = await send(options, budget, "POST", queue.url, queue.body);
  if (queued.status === 401 || queued.status === 403) {
    throw new CheckError("NOT_READY", `the API refused the token (HTTP ${queued.status}): check the key and its workspace`, {
      httpStatus: queued.status,
    });
  }
  if (queued.status === 404) {
    throw new CheckError("NOT_READY", `deployment ${options.deploymentId} was not found (HTTP 404): check the id and the workspace the key belongs to`, {
      httpStatus: 404,
    });
  }
  if (queued.status === 422) {
    const detail = validationDetail(queued.json);
    const summary = detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ");
    throw new CheckError("NOT_READY", `the API rejected the request (HTTP 422): ${summary || queued.text.slice(0, 200)}`, {
      httpStatus: 422,
      detail,
    });
  }
  if (queued.status < 200 || queued.status >= 300) {
    throw new CheckError("ERROR", `queueing failed with HTTP ${queued.status}`, { httpStatus: queued.status });
  }
  const runId = (queued.json as { run_id?: unknown } | undefined)?.run_id;
  if (typeof runId !== "string" || runId === "") {
    throw new CheckError("ERROR", `unexpected answer to the queue request (no run_id): ${queued.text.slice(0, 200)}`, {
      httpStatus: queued.status,
    });
  }
  try {
    return await follow(options, budget, runId);
  } catch (error) {
    throw withRun(error, runId);
  }
}

/** Once a run exists, every answer names it, so the user can look it up. */
function withRun(error: unknown, runId: string): CheckError {
  if (error instanceof CheckError) {
    if (error.extra.runId) return error;
    return new CheckError(error.verdict, `run ${runId} was queued, but reading it failed: ${error.message}`, { ...error.extra, runId });
  }
  return new CheckError("ERROR", `run ${runId} was queued, but reading it failed: ${networkReason(error)}`, { runId });
}

async function follow(options: CheckOptions, budget: Budget, runId: string): Promise<Partial<CheckResult>> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/run/${encodeURIComponent(runId)}`;
  let interval = options.pollIntervalMs;
  let status = "queued";
  let liveStatus: string | null = null;
  const stillGoing = (): Partial<CheckResult> => ({
    verdict: "UNKNOWN",
    reason: `run ${runId} was still ${status} when --wait (${budget.seconds}s) ran out; check it later or wait longer`,
    runId,
    status,
    liveStatus,
  });
  for (;;) {
    if (Date.now() >= budget.deadline) return stillGoing();
    const answer = await send(options, budget, "GET", url);
    if (answer.status === 401 || answer.status === 403) {
      throw new CheckError("NOT_READY", `the API refused the token while reading run ${runId} (HTTP ${answer.status})`, { runId });
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new CheckError("ERROR", `reading run ${runId} failed with HTTP ${answer.status}`, { runId, httpStatus: answer.status });
    }
    const run = answer.json as { status?: unknown; live_status?: unknown } | undefined;
    if (typeof run?.status !== "string") {
      throw new CheckError("ERROR", `unexpected run record for ${runId}: ${answer.text.slice(0, 200)}`, { runId });
    }
    status = run.status;
    liveStatus = typeof run.live_status === "string" ? run.live_status : null;
    options.onStatus?.(status, liveStatus);
    if (status === "success") return { verdict: "READY", reason: `run ${runId} succeeded on V2 with the ${options.flag} flag`, runId, status, liveStatus };
    if (isTerminalRunStatus(status)) {
      return {
        verdict: "NOT_READY",
        reason: `run ${runId} ended with status ${status}${liveStatus ? ` (${liveStatus})` : ""}`,
        runId,
        status,
        liveStatus,
      };
    }
    if (Date.now() + interval > budget.deadline) return stillGoing();
    await sleep(interval);
    interval = Math.min(10_000, Math.round(interval * 1.5));
  }
}

/**
 * One request, retried on 429 and 5xx with capped backoff that honours
 * Retry-After, all within the budget: a Retry-After beyond it ends the check
 * at once (the service said it will not answer in time), and no request may
 * outlive it.
 */
async function send(options: CheckOptions, budget: Budget, method: "GET" | "POST", url: string, body?: unknown): Promise<HttpAnswer> {
  const firstQueueRequest = method === "POST"; // the queue request is the check's only POST
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
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        // undici's own timers are coarse (about a second); the signal makes the time-out exact.
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      raw = await response.body.text();
    } catch (error) {
      if (timeoutMs < options.requestTimeoutMs && isTimeout(error)) throw ranOut("while waiting for the API to answer");
      throw error;
    }
    lastStatus = response.statusCode;
    const retryable = response.statusCode === 429 || response.statusCode >= 500;
    if (!retryable || attempt >= options.maxRetries) {
      if (retryable) {
        throw new CheckError("ERROR", `the API kept answering HTTP ${response.statusCode} after ${attempt + 1} attempts`, {
          httpStatus: response.statusCode,
        });
      }
      const text = maskKnownSecrets(raw, [options.token]);
      return { status: response.statusCode, json: parseJson(raw, text, response.statusCode), text };
    }
    const retryAfter = retryAfterMs(response.headers["retry-after"]);
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
      throw new CheckError("UNKNOWN", `the API answered HTTP ${response.statusCode} until --wait (${budget.seconds}s) ran out`, {
        httpStatus: response.statusCode,
      });
    }
    await sleep(wait);
  }
}

/** `raw` parsed; `text` (masked) for the error. */
function parseJson(raw: string, text: string, status: number): unknown {
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    if (status >= 200 && status < 300) throw new CheckError("ERROR", `the API answered HTTP ${status} with malformed JSON: ${text.slice(0, 120)}`);
    return undefined;
  }
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function validationDetail(json: unknown): Array<{ loc: unknown[]; msg: string; type: string }> {
  const detail = (json as { detail?: unknown } | undefined)?.detail;
  if (!Array.isArray(detail)) return [];
  return detail
    .filter((d): d is { loc: unknown[]; msg: string; type: string } => typeof d === "object" && d !== null && Array.isArray((d as { loc?: unknown }).loc))
    .map((d) => ({ loc: d.loc, msg: String(d.msg), type: String(d.type) }));
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  return e.name === "TimeoutError" || e.name === "AbortError" || TIMEOUT_CODES.has(e.code ?? e.cause?.code ?? "");
}

/** Network, DNS, TLS and time-out failures, in words. */
function networkReason(error: unknown): string {
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

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
