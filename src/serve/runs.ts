/**
 * Runs in the emulator: full V2 run records (every field of the spec's run
 * record, wire names in snake_case) moving through
 * queued → started → running → uploading → success, or to the end a
 * deployment's rule asks for, with webhook updates on the way.
 *
 * The store is bounded by count (`maxRuns`) and by bytes (`maxStoreBytes`,
 * each record counted as the JSON it is served as, inputs and outputs
 * included): past either, the run that finished longest ago is dropped, or,
 * when none has finished, the oldest run still in flight (it neither moves
 * nor calls its webhook again). One run is always kept, however large.
 *
 * A run moves on a timer (`stepMs`) or, with `advanceOnRead`, one state per
 * read, so a client's test sees every state whatever the machine's load.
 */
import { randomUUID } from "node:crypto";
import { MIGRATION_FLAG } from "../knowledge/migration.js";
import { isTerminalRunStatus, RUN_CALL_ID_FIELDS } from "../knowledge/run-record.js";
import { DEFAULT_MAX_RUNS, DEFAULT_MAX_STORE_BYTES, type DeploymentRule, type EmulatorOptions } from "./options.js";
import type { QueueRequest } from "./validation.js";
import { WebhookSender } from "./webhooks.js";

export type RunRecord = Record<string, unknown> & {
  id: string;
  status: string;
  live_status: string | null;
  progress: number;
};

interface Step {
  status: string;
  liveStatus: string;
  progress: number;
}

/** Where a run in flight is on its way: the states left, and the timer of the next one. */
interface Progress {
  steps: readonly Step[];
  index: number;
  timer?: NodeJS.Timeout;
}

const HAPPY_PATH: Step[] = [
  { status: "started", liveStatus: "Starting the machine", progress: 0.1 },
  { status: "running", liveStatus: "Executing node 4 (KSampler)", progress: 0.5 },
  { status: "uploading", liveStatus: "Uploading outputs", progress: 0.9 },
  { status: "success", liveStatus: "Done", progress: 1 },
];

/** ISO 8601 with an explicit offset, as the service sends it. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "+00:00");
}

export class RunStore {
  /** In queue order. */
  private readonly runs = new Map<string, RunRecord>();
  /** Ids of ended runs, in the order they ended: the eviction queue. */
  private readonly finished = new Set<string>();
  /** Runs in flight: their remaining steps (and, on a timer, one pending timer each). */
  private readonly progress = new Map<string, Progress>();
  /** Each run's size as served (JSON bytes), and their sum: what the byte budget counts. */
  private readonly sizes = new Map<string, number>();
  private keptBytes = 0;
  private readonly maxRuns: number;
  private readonly maxBytes: number;
  private number = 0;
  readonly webhooks: WebhookSender;
  /** Told which run was dropped, so what refers to it (an idempotency key) goes too. */
  onEvict?: (id: string) => void;

  constructor(private readonly options: EmulatorOptions) {
    this.webhooks = new WebhookSender(options.webhookAttempts, { allowLocal: Boolean(options.allowLocalWebhooks) });
    this.maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
    this.maxBytes = options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES;
  }

  get size(): number {
    return this.runs.size;
  }

  /** Bytes of the run records kept, counted as they are served. */
  get bytes(): number {
    return this.keptBytes;
  }

  /** A run as a client reads it; with `advanceOnRead`, the read then moves it one state. */
  read(id: string): RunRecord | undefined {
    const record = this.runs.get(id);
    if (!record || !this.options.advanceOnRead) return record;
    const snapshot = { ...record };
    this.step(record);
    return snapshot;
  }

  get(id: string): RunRecord | undefined {
    return this.runs.get(id);
  }

  all(): RunRecord[] {
    return [...this.runs.values()];
  }

  queue(request: QueueRequest, deployment: DeploymentRule): RunRecord {
    const id = randomUUID();
    const now = new Date();
    const flags = request.flags ?? [];
    const record: RunRecord = {
      id,
      workflow_version_id: randomUUID(),
      workflow_inputs: request.inputs,
      workflow_id: randomUUID(),
      workflow_api: { "3": { class_type: "KSampler", inputs: { seed: 42, steps: 20 } } },
      machine_id: randomUUID(),
      origin: "api",
      status: "queued",
      ended_at: null,
      created_at: timestamp(now),
      updated_at: timestamp(now),
      queued_at: timestamp(now),
      started_at: null,
      gpu_event_id: null,
      gpu: request.gpu ?? deployment.gpu,
      machine_version: "v4",
      machine_type: "comfy-deploy-serverless",
      // The spec's name and the vendor's (which the V2 JS SDK requires), always equal.
      [RUN_CALL_ID_FIELDS.spec]: null,
      [RUN_CALL_ID_FIELDS.vendor]: null,
      user_id: "user_emulator",
      org_id: null,
      live_status: "Queued",
      progress: 0,
      is_realtime: false,
      webhook: request.webhook ?? null,
      webhook_status: request.webhook ? "pending" : null,
      webhook_intermediate_status: request.webhook_intermediate_status ?? false,
      outputs: [],
      number: ++this.number,
      duration: null,
      cold_start_duration: null,
      cold_start_duration_total: null,
      run_duration: null,
      // Emulator extension: which flags the run was queued with (the migration check sends one).
      flags,
    };
    this.runs.set(id, record);
    this.measure(record);
    this.progress.set(id, { steps: this.stepsFor(deployment, flags.includes(MIGRATION_FLAG)), index: 0 });
    this.evictOverBudget();
    if (!this.options.advanceOnRead) this.schedule(record);
    return record;
  }

  /** Steps are chained, one timer at a time, so a run in flight holds one timer, not one per state. */
  private schedule(record: RunRecord): void {
    const progress = this.progress.get(record.id);
    if (!progress) return;
    progress.timer = setTimeout(() => {
      this.step(record);
      this.schedule(record);
    }, this.options.stepMs);
  }

  /** Moves a run in flight to its next state; a run that has ended stays as it is. */
  private step(record: RunRecord): void {
    const progress = this.progress.get(record.id);
    const next = progress?.steps[progress.index];
    if (!progress || !next) {
      this.progress.delete(record.id);
      return;
    }
    progress.index++;
    if (progress.index >= progress.steps.length) this.progress.delete(record.id);
    this.advance(record, next);
    this.measure(record);
    this.evictOverBudget();
  }

  /** Records the run's size as served; its inputs and outputs are most of it. */
  private measure(record: RunRecord): void {
    const size = Buffer.byteLength(JSON.stringify(record));
    this.keptBytes += size - (this.sizes.get(record.id) ?? 0);
    this.sizes.set(record.id, size);
  }

  private evictOverBudget(): void {
    while (this.runs.size > 1 && (this.runs.size > this.maxRuns || this.keptBytes > this.maxBytes)) this.evictOne();
  }

  private evictOne(): void {
    const id = first(this.finished) ?? first(this.runs.keys());
    if (id === undefined) return;
    this.runs.delete(id);
    this.finished.delete(id);
    this.keptBytes -= this.sizes.get(id) ?? 0;
    this.sizes.delete(id);
    const timer = this.progress.get(id)?.timer;
    if (timer) clearTimeout(timer);
    this.progress.delete(id);
    this.onEvict?.(id);
  }

  private stepsFor(deployment: DeploymentRule, migrationCheck: boolean): Step[] {
    if (migrationCheck && !deployment.migrated) {
      return [
        HAPPY_PATH[0]!,
        {
          status: "failed",
          liveStatus: "Worker is not on V2: rebuild it with comfyui-deploy v2.1.0 or newer",
          progress: 0.1,
        },
      ];
    }
    switch (deployment.outcome) {
      case "success":
        return HAPPY_PATH;
      case "failed":
        return [
          HAPPY_PATH[0]!,
          HAPPY_PATH[1]!,
          { status: "failed", liveStatus: "Error: node 4 (KSampler) raised an exception", progress: 0.5 },
        ];
      case "timeout":
        return [
          HAPPY_PATH[0]!,
          HAPPY_PATH[1]!,
          { status: "timeout", liveStatus: "Run exceeded the machine's time limit", progress: 0.5 },
        ];
      case "cancelled":
        return [{ status: "cancelled", liveStatus: "Cancelled", progress: 0 }];
      case "stuck":
        return [];
    }
  }

  private advance(record: RunRecord, step: Step): void {
    const now = new Date();
    record.status = step.status;
    record.live_status = step.liveStatus;
    record.progress = step.progress;
    record.updated_at = timestamp(now);
    if (step.status === "started") {
      record.started_at = timestamp(now);
      record.gpu_event_id = randomUUID();
      const callId = `fc-${randomUUID().replace(/-/g, "").slice(0, 24)}`;
      record[RUN_CALL_ID_FIELDS.spec] = callId;
      record[RUN_CALL_ID_FIELDS.vendor] = callId;
      record.cold_start_duration = 1.8;
      record.cold_start_duration_total = 2.4;
    }
    if (step.status === "success") record.outputs = outputsFor(record);
    const final = isTerminalRunStatus(step.status);
    if (final) {
      this.finished.add(record.id);
      record.ended_at = timestamp(now);
      const started = Date.parse(String(record.started_at ?? record.queued_at));
      const queued = Date.parse(String(record.queued_at));
      record.run_duration = round((now.getTime() - started) / 1000);
      record.duration = round((now.getTime() - queued) / 1000);
    }
    if (record.webhook && (final || record.webhook_intermediate_status)) {
      void this.webhooks.deliver(String(record.webhook), record, final).then((ok) => {
        if (final) record.webhook_status = ok ? "success" : "failed";
      });
    }
  }

  close(): void {
    for (const { timer } of this.progress.values()) if (timer) clearTimeout(timer);
    this.progress.clear();
    void this.webhooks.close();
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** One image and one file, shaped like the service's output items (wire names). */
function outputsFor(record: RunRecord): unknown[] {
  const now = timestamp();
  const base = `https://storage.emulator.invalid/outputs/${record.id}`;
  return [
    {
      id: randomUUID(),
      run_id: record.id,
      data: {
        images: [
          {
            url: `${base}/ComfyUI_00001_.png`,
            type: "output",
            filename: "ComfyUI_00001_.png",
            subfolder: "",
            is_public: false,
          },
        ],
        files: [{ url: `${base}/metadata.json`, type: "output", filename: "metadata.json", subfolder: "" }],
      },
      node_meta: { node_class: "SaveImage" },
      created_at: now,
      updated_at: now,
      type: "output",
      node_id: "9",
    },
  ];
}

function first<T>(items: Iterable<T>): T | undefined {
  for (const item of items) return item;
  return undefined;
}
