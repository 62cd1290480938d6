/**
 * The emulator against the real V2 JS SDK (comfydeploy 2.0.0-beta.69, a
 * devDependency): every response shape `serve` gives must pass the SDK's own
 * inbound schemas, or an app migrated to the SDK cannot be rehearsed on it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ComfyDeploy } from "comfydeploy";
import * as components from "comfydeploy/models/components/index.js";
import * as errors from "comfydeploy/models/errors/index.js";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { isTerminalRunStatus, RUN_CALL_ID_FIELDS } from "../../src/knowledge/run-record.js";
import { parseDeployment } from "../../src/serve/options.js";
import type { Emulator } from "../../src/serve/server.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

const DEPLOYMENTS = {
  success: "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11",
  failed: "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  timeout: "8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d",
  cancelled: "1d2c3b4a-5e6f-4b7c-8d9e-0f1a2b3c4d5e",
  stuck: "2e3d4c5b-6a7f-4c8d-9e0f-1a2b3c4d5e6f",
  "not-migrated": "3f4e5d6c-7b8a-4d9e-8f0a-1b2c3d4e5f60",
} as const;

/** The statuses a client can see, per deployment outcome. */
const STATUSES: Record<keyof typeof DEPLOYMENTS, string[]> = {
  success: ["queued", "started", "running", "uploading", "success"],
  failed: ["queued", "started", "running", "failed"],
  timeout: ["queued", "started", "running", "timeout"],
  cancelled: ["queued", "cancelled"],
  stuck: ["queued"],
  "not-migrated": ["queued", "started", "failed"],
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * Runs move one state per read (`advanceOnRead`), not on a timer: every state
 * is seen however loaded the machine is. The webhook receiver is on this machine.
 */
async function emulatorWithEveryOutcome(): Promise<Emulator> {
  const e = await startTestEmulator({
    advanceOnRead: true,
    allowLocalWebhooks: true,
    deployments: Object.entries(DEPLOYMENTS).map(([outcome, id]) => parseDeployment(`${id}:${outcome}`)),
  });
  closers.push(() => e.close());
  return e;
}

async function hookServer(): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  closers.push(() => new Promise<void>((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function wire(
  e: Emulator,
  method: "GET" | "POST",
  path: string,
  body?: string,
  headers: Record<string, string> = {},
) {
  const response = await request(`${e.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json", ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
}

function expectConforms(schema: z.ZodTypeAny, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  expect(parsed.success, `${what}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
}

describe("response shapes against the V2 SDK's inbound schemas", () => {
  it("the queue response and the run record in every state of every deployment outcome", async () => {
    const e = await emulatorWithEveryOutcome();
    const webhook = await hookServer();
    const seen = new Map<string, Map<string, Record<string, unknown>>>();
    await Promise.all(
      Object.entries(DEPLOYMENTS).map(async ([outcome, id]) => {
        const queued = await wire(
          e,
          "POST",
          "/run/deployment/queue",
          JSON.stringify({ deployment_id: id, flags: ["partner_v2"], webhook, webhook_intermediate_status: true }),
        );
        expect(queued.status).toBe(200);
        expectConforms(components.CreateRunResponse$inboundSchema, queued.json, `queue response (${outcome})`);
        const records = new Map<string, Record<string, unknown>>();
        seen.set(outcome, records);
        const expected = STATUSES[outcome as keyof typeof DEPLOYMENTS];
        // One read per state: a few reads more than states would show a state repeated or skipped.
        for (let i = 0; i < expected.length + 2 && records.size < expected.length; i++) {
          const run = (await wire(e, "GET", `/run/${queued.json.run_id as string}`)).json;
          if (!records.has(String(run.status))) records.set(String(run.status), run);
          if (isTerminalRunStatus(String(run.status))) break;
        }
      }),
    );
    for (const [outcome, records] of seen) {
      expect([...records.keys()], outcome).toEqual(STATUSES[outcome as keyof typeof DEPLOYMENTS]);
      for (const [status, run] of records) {
        expectConforms(
          components.WorkflowRunModel$inboundSchema,
          run,
          `run record, ${outcome} deployment, status ${status}`,
        );
        // Both names of the call id, always equal: the spec's and the one the SDK reads.
        expect(run, status).toHaveProperty(RUN_CALL_ID_FIELDS.spec);
        expect(run[RUN_CALL_ID_FIELDS.vendor], status).toBe(run[RUN_CALL_ID_FIELDS.spec]);
      }
    }
  });

  it("every 422 body is an HTTPValidationError with its detail items", async () => {
    const e = await emulatorWithEveryOutcome();
    const answers = [
      await wire(e, "POST", "/run/deployment/queue", "{}"),
      await wire(e, "POST", "/run/deployment/queue", JSON.stringify({ deployment_id: "abc", gpu: "TPU", inputs: [] })),
      await wire(e, "POST", "/run/deployment/queue", "{not json"),
      await wire(e, "POST", "/run/deployment/queue", "", {}),
      await wire(e, "POST", "/run/deployment/queue", JSON.stringify({ deployment_id: DEPLOYMENTS.success }), {
        "content-type": "text/plain",
      }),
      await wire(
        e,
        "POST",
        "/run/deployment/queue",
        JSON.stringify({ deployment_id: DEPLOYMENTS.success, webhook: "file:///etc/passwd" }),
      ),
      await wire(e, "GET", "/run/not-a-uuid"),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.json)).toBe(422);
      expectConforms(errors.HTTPValidationError$inboundSchema, answer.json, JSON.stringify(answer.json));
      const parsed = errors.HTTPValidationError$inboundSchema.parse(answer.json);
      expect(parsed.detail?.length, JSON.stringify(answer.json)).toBeGreaterThan(0);
    }
  });
});

describe("the real V2 SDK client against serve", () => {
  it("queues a run and reads it with run.get to a terminal status, without an SDKValidationError", async () => {
    const e = await emulatorWithEveryOutcome();
    const client = new ComfyDeploy({ bearer: TEST_TOKEN, serverURL: e.baseUrl });
    const { runId } = await client.run.deployment.queue({
      deploymentId: DEPLOYMENTS.success,
      inputs: { prompt: "a lighthouse at dusk" },
    });
    let run = await client.run.get({ runId });
    const statuses = [run.status];
    for (let i = 0; i < 10 && !isTerminalRunStatus(run.status); i++) {
      run = await client.run.get({ runId });
      if (statuses.at(-1) !== run.status) statuses.push(run.status);
    }
    expect(run.status).toBe("success");
    expect(statuses).toEqual(["queued", "started", "running", "uploading", "success"]);
    expect(run.modalFunctionCallId).toMatch(/^fc-/);
    expect(run.createdAt).toBeInstanceOf(Date);
    expect(run.workflowInputs).toEqual({ prompt: "a lighthouse at dusk" });
    expect(run.outputs?.[0]?.data).toHaveProperty("images");
  });

  it("each failed run ends in its terminal status through the client", async () => {
    const e = await emulatorWithEveryOutcome();
    const client = new ComfyDeploy({ bearer: TEST_TOKEN, serverURL: e.baseUrl });
    for (const outcome of ["failed", "timeout", "cancelled"] as const) {
      const { runId } = await client.run.deployment.queue({ deploymentId: DEPLOYMENTS[outcome] });
      let run = await client.run.get({ runId });
      for (let i = 0; i < 10 && !isTerminalRunStatus(run.status); i++) run = await client.run.get({ runId });
      expect(run.status).toBe(outcome);
      expect(run.endedAt).toBeInstanceOf(Date);
    }
  });

  it("422, 401 and 404 reach the caller as the SDK's own errors, not as SDKValidationError", async () => {
    const e = await emulatorWithEveryOutcome();
    const client = new ComfyDeploy({ bearer: TEST_TOKEN, serverURL: e.baseUrl });
    const invalid = await client.run.deployment.queue({ deploymentId: "not-a-uuid" }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(errors.HTTPValidationError);
    expect((invalid as errors.HTTPValidationError).detail?.[0]?.loc).toEqual(["body", "deployment_id"]);

    const unknownRun = await client.run
      .get({ runId: "3f1b0f0e-0000-4000-8000-000000000000" })
      .catch((error: unknown) => error);
    expect(unknownRun).toBeInstanceOf(errors.SDKError);
    expect(unknownRun).not.toBeInstanceOf(errors.SDKValidationError);
    expect([(unknownRun as errors.SDKError).statusCode, JSON.parse((unknownRun as errors.SDKError).body)]).toEqual([
      404,
      { detail: "Run not found" },
    ]);

    const stranger = new ComfyDeploy({ bearer: "not-the-token", serverURL: e.baseUrl });
    const refused = await stranger.run.deployment
      .queue({ deploymentId: DEPLOYMENTS.success })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(errors.SDKError);
    expect([(refused as errors.SDKError).statusCode, JSON.parse((refused as errors.SDKError).body)]).toEqual([
      401,
      { detail: "Invalid token" },
    ]);
  });
});
