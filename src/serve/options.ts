/** Emulator settings: deployments, lifecycle timings, fault injection. */
import { UsageError } from "../core/errors.js";
import { isUuid } from "../core/uuid.js";
import { GPU_TYPES } from "../knowledge/migration.js";

export const RUN_OUTCOMES = ["success", "failed", "timeout", "cancelled", "stuck"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export interface DeploymentRule {
  id: string;
  gpu: (typeof GPU_TYPES)[number];
  /** How runs of this deployment end. `stuck` never leaves the queue. */
  outcome: RunOutcome;
  /** A deployment whose partner worker is not on V2: runs queued with the migration flag fail. */
  migrated: boolean;
}

export interface FaultInjection {
  /** Added to every answer, in milliseconds. */
  latencyMs: number;
  /** Fraction (0..1) of requests answered 429 with Retry-After. */
  rate429: number;
  /** Fraction (0..1) of requests answered 500. */
  rate500: number;
  /** Fraction (0..1) of requests that never get an answer (the client's time-out fires). */
  rateHang: number;
  /** The first N requests are answered 429, then normal service (deterministic tests). */
  first429: number;
  /** The first N requests are answered 500. */
  first500: number;
}

export interface EmulatorOptions {
  token?: string;
  /** Empty: any deployment id is accepted. */
  deployments: DeploymentRule[];
  /** Milliseconds spent in each of queued, started, running, uploading. */
  stepMs: number;
  legacy: boolean;
  faults: FaultInjection;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** Webhook delivery attempts per update. */
  webhookAttempts: number;
  /** Most run records kept (default DEFAULT_MAX_RUNS); finished runs are dropped first. */
  maxRuns?: number;
  /** Most bytes of run records kept, counted as served (default DEFAULT_MAX_STORE_BYTES); finished runs are dropped first. */
  maxStoreBytes?: number;
  /** Each read of a run moves it one state, instead of a timer: a client's test sees every state whatever the load. */
  advanceOnRead?: boolean;
  /** Deliver webhooks to loopback, link-local and metadata addresses too (local testing). */
  allowLocalWebhooks?: boolean;
  /** Told about each answered request (the command's request log). */
  onRequest?: (entry: { method: string; url: string; status: number; ms: number }) => void;
}

/** Enough for any test session, small enough to keep a long-running emulator's memory flat. */
export const DEFAULT_MAX_RUNS = 10_000;

/** 64 MiB: 10,000 ordinary runs fit, and 64 runs with 1 MB inputs (the default --max-body). */
export const DEFAULT_MAX_STORE_BYTES = 64 * 1024 * 1024;

export const DEFAULT_FAULTS: FaultInjection = {
  latencyMs: 0,
  rate429: 0,
  rate500: 0,
  rateHang: 0,
  first429: 0,
  first500: 0,
};

/** `<uuid>[:gpu][:outcome][:not-migrated]`, e.g. `1b0c…:A100:failed`. */
export function parseDeployment(spec: string): DeploymentRule {
  const [id = "", ...rest] = spec.split(":");
  if (!isUuid(id)) throw new UsageError(`--deployment ${spec}: "${id}" is not a uuid`);
  const rule: DeploymentRule = { id: id.toLowerCase(), gpu: "A10G", outcome: "success", migrated: true };
  for (const part of rest) {
    if ((GPU_TYPES as readonly string[]).includes(part)) rule.gpu = part as DeploymentRule["gpu"];
    else if ((RUN_OUTCOMES as readonly string[]).includes(part)) rule.outcome = part as RunOutcome;
    else if (part === "not-migrated") rule.migrated = false;
    else {
      throw new UsageError(
        `--deployment ${spec}: unknown part "${part}" (a GPU: ${GPU_TYPES.join(", ")}; an outcome: ${RUN_OUTCOMES.join(", ")}; or not-migrated)`,
      );
    }
  }
  return rule;
}
