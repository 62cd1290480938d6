/**
 * Runs in the emulator: full V2 run records (every field of the spec's run
 * record, wire names in snake_case) moving through
 * queued → started → running → uploading → success, or to the end a
 * deployment's rule asks for, with webhook updates on the way.
 */
import { randomUUID } from "node:crypto";
import { MIGRATION_FLAG } from "../knowledge/migration.js";
import { isTerminalRunStatus } from "../knowledge/run-record.js";
import type { DeploymentRule, EmulatorOptions } from "./options.js";
import type { QueueRequest } from "./validation.js";
import { WebhookSender } from "./webhooks.js";

export type RunRecord = Record<string, unknown> & { id: string; status: string; live_status: string | null; progress: number };

interface Step {
  status: string;
  liveStatus: string;
  progress: number;
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
  private readonly runs = new Map<string, RunRecord>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private number = 0;
  readonly webhooks: WebhookSender;

  constructor(private readonly options: EmulatorOptions) {
    this.webhooks = new WebhookSender(options.webhookAttempts);
  }

  get size(): number {
    return this.runs.size;
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
      executor_function_call_id: null,
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
    this.schedule(record, deployment, flags.includes(MIGRATION_FLAG));
    return record;
  }

  private schedule(record: RunRecord, deployment: DeploymentRule, migrationCheck: boolean): void {
    const steps = this.stepsFor(deployment, migrationCheck);
    steps.forEach((step, index) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.advance(record, step);
      }, this.options.stepMs * (index + 1));
      this.timers.add(timer);
    });
  }

  private stepsFor(deployment: DeploymentRule, migrationCheck: boolean): Step[] {
    if (migrationCheck && !deployment.migrated) {
      return [
        HAPPY_PATH[0]!,
        { status: "failed", liveStatus: "Worker is not on V2: rebuild it with comfyui-deploy v2.1.0 or newer", progress: 0.1 },
      ];
    }
    switch (deployment.outcome) {
      case "success":
        return HAPPY_PATH;
      case "failed":
        return [HAPPY_PATH[0]!, HAPPY_PATH[1]!, { status: "failed", liveStatus: "Error: node 4 (KSampler) raised an exception", progress: 0.5 }];
      case "timeout":
        return [HAPPY_PATH[0]!, HAPPY_PATH[1]!, { status: "timeout", liveStatus: "Run exceeded the machine's time limit", progress: 0.5 }];
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
      record.executor_function_call_id = `fc-${randomUUID().replace(/-/g, "").slice(0, 24)}`;
      record.cold_start_duration = 1.8;
      record.cold_start_duration_total = 2.4;
    }
    if (step.status === "success") record.outputs = outputsFor(record);
    if (isTerminalRunStatus(step.status)) {
      record.ended_at = timestamp(now);
      const started = Date.parse(String(record.started_at ?? record.queued_at));
      const queued = Date.parse(String(record.queued_at));
      record.run_duration = round((now.getTime() - started) / 1000);
      record.duration = round((now.getTime() - queued) / 1000);
    }
    const final = isTerminalRunStatus(step.status);
    if (record.webhook && (final || record.webhook_intermediate_status)) {
      void this.webhooks.deliver(String(record.webhook), record, final).then((ok) => {
        if (final) record.webhook_status = ok ? "success" : "failed";
      });
    }
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
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
        images: [{ url: `${base}/ComfyUI_00001_.png`, type: "output", filename: "ComfyUI_00001_.png", subfolder: "", is_public: false }],
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
