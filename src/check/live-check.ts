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
import { randomUUID } from "node:crypto";
import { cutoffStatus, type CutoffStatus } from "../knowledge/cutoff.js";
import { ENDPOINTS } from "../knowledge/migration.js";
import { isTerminalRunStatus } from "../knowledge/run-record.js";
import { maskKnownSecrets } from "../core/redact.js";
import { type Budget, CheckError, networkReason, send, sleep } from "./http.js";
import { notFoundReason } from "./not-found.js";

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
  /** Largest answer read, in bytes (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
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
  /** The base URL, not the deployment, is wrong: it serves no queue endpoint (a user mistake). */
  wrongBaseUrl?: boolean;
  cutoff: CutoffStatus;
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
    if (error instanceof CheckError)
      result = { ...base, ...error.extra, verdict: error.verdict, reason: error.message };
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
      ? {
          detail: result.detail.map((d) => ({
            loc: d.loc.map((part) => (typeof part === "string" ? mask(part) : part)),
            msg: mask(d.msg),
            type: mask(d.type),
          })),
        }
      : {}),
  };
}

async function check(options: CheckOptions, budget: Budget): Promise<Partial<CheckResult>> {
  const queue = queueRequestOf(options);
  // One key for this check: a service that honours it (serve does) queues one run however often the request arrives.
  const queued = await send(options, budget, "POST", queue.url, queue.body, { "idempotency-key": randomUUID() });
  if (queued.status === 401 || queued.status === 403) {
    throw new CheckError(
      "NOT_READY",
      `the API refused the token (HTTP ${queued.status}): check the key and its workspace`,
      {
        httpStatus: queued.status,
      },
    );
  }
  if (queued.status === 404) {
    const wrongBase = await notFoundReason(options, budget, queue.url);
    if (wrongBase) throw new CheckError("ERROR", wrongBase, { httpStatus: 404, wrongBaseUrl: true });
    throw new CheckError(
      "NOT_READY",
      `deployment ${options.deploymentId} was not found (HTTP 404): check the id and the workspace the key belongs to`,
      {
        httpStatus: 404,
      },
    );
  }
  if (queued.status === 422) {
    const detail = validationDetail(queued.json);
    const summary = detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ");
    throw new CheckError(
      "NOT_READY",
      `the API rejected the request (HTTP 422): ${summary || queued.text.slice(0, 200)}`,
      {
        httpStatus: 422,
        detail,
      },
    );
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
    return new CheckError(error.verdict, `run ${runId} was queued, but reading it failed: ${error.message}`, {
      ...error.extra,
      runId,
    });
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
      throw new CheckError(
        "NOT_READY",
        `the API refused the token while reading run ${runId} (HTTP ${answer.status})`,
        { runId },
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new CheckError("ERROR", `reading run ${runId} failed with HTTP ${answer.status}`, {
        runId,
        httpStatus: answer.status,
      });
    }
    const run = answer.json as { status?: unknown; live_status?: unknown } | undefined;
    if (typeof run?.status !== "string") {
      throw new CheckError("ERROR", `unexpected run record for ${runId}: ${answer.text.slice(0, 200)}`, { runId });
    }
    status = run.status;
    liveStatus = typeof run.live_status === "string" ? run.live_status : null;
    options.onStatus?.(status, liveStatus);
    if (status === "success")
      return {
        verdict: "READY",
        reason: `run ${runId} succeeded on V2 with the ${options.flag} flag`,
        runId,
        status,
        liveStatus,
      };
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

function validationDetail(json: unknown): Array<{ loc: unknown[]; msg: string; type: string }> {
  const detail = (json as { detail?: unknown } | undefined)?.detail;
  if (!Array.isArray(detail)) return [];
  return detail
    .filter(
      (d): d is { loc: unknown[]; msg: string; type: string } =>
        typeof d === "object" && d !== null && Array.isArray((d as { loc?: unknown }).loc),
    )
    .map((d) => ({ loc: d.loc, msg: String(d.msg), type: String(d.type) }));
}
