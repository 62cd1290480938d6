/**
 * The migrated demo app keeps its behaviour. `fix` runs on a copy of
 * fixtures/demo-app (test/.tmp/<random>/); its src/lib/comfy.ts, now on the
 * real V2 SDK, is imported and driven against a local stub of the V2 API:
 * - queueImage still returns the run id, getImageRun still returns status,
 *   live status, progress and the images as { url, filename };
 * - when the API fails, queueImage throws and getImageRun returns null, after
 *   a console.error, exactly as on the V1 SDK's null-returning path;
 * - requests go to the V2 paths with the bearer token.
 * COMFY_DEPLOY_API_BASE keeps its V1 meaning, a bare host (the SDK appended
 * /api in V1 and the migrated client still does), so it names the stub's
 * origin and the stub serves under /api.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { HOSTS } from "../src/knowledge/migration.js";
import { type MigratedCopy, migratedDemoCopy } from "./helpers/demo-copy.js";

interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

const DEPLOYMENT_ID = "6b1f3c2a-8d4e-4f7a-9b2c-1e5d7a9c3f08";
const API_KEY = "test-key";
const APP_URL = "https://app.example.test";
const STAMP = "2025-04-01T10:00:00.000+00:00";

/** A V2 run record as the wire carries it (doc section 5): every required key, timestamps with an offset. */
function runRecord(id: string): Record<string, unknown> {
  return {
    id,
    workflow_version_id: randomUUID(),
    workflow_inputs: { positive_prompt: "a lighthouse at dusk" },
    workflow_id: randomUUID(),
    workflow_api: null,
    machine_id: randomUUID(),
    origin: "api",
    status: "success",
    ended_at: STAMP,
    created_at: STAMP,
    updated_at: STAMP,
    queued_at: STAMP,
    started_at: STAMP,
    gpu_event_id: null,
    gpu: "A10G",
    machine_version: null,
    machine_type: "comfy-deploy-serverless",
    modal_function_call_id: null,
    user_id: "user_1",
    org_id: null,
    live_status: "Executing SaveImage",
    progress: 1,
    is_realtime: false,
    webhook: `${APP_URL}/api/webhook`,
    webhook_status: "success",
    webhook_intermediate_status: false,
    outputs: [
      {
        id: randomUUID(),
        run_id: id,
        data: {
          images: [
            {
              url: "https://cdn.example.test/out/1.png",
              type: "output",
              filename: "1.png",
              subfolder: "",
              is_public: true,
              upload_duration: 0.4,
            },
          ],
          text: ["done"],
        },
        node_meta: { node_class: "SaveImage" },
        created_at: STAMP,
        updated_at: STAMP,
        type: null,
        node_id: "9",
      },
    ],
    number: 7,
    duration: 12.5,
    cold_start_duration: 1.5,
    cold_start_duration_total: 2,
    run_duration: 11,
  };
}

/** A local stand-in for the V2 API: POST /api/run/deployment/queue and GET /api/run/:id. */
class V2Stub {
  readonly requests: RecordedRequest[] = [];
  failing = false;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += String(chunk);
    const path = req.url ?? "";
    this.requests.push({
      method: req.method ?? "",
      path,
      authorization: req.headers.authorization,
      body: raw ? JSON.parse(raw) : undefined,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (this.failing) return send(500, { detail: "internal error" });
    if (req.method === "POST" && path === "/api/run/deployment/queue") return send(200, { run_id: randomUUID() });
    const get = /^\/api\/run\/([^/?]+)$/.exec(path);
    if (req.method === "GET" && get) return send(200, runRecord(decodeURIComponent(get[1]!)));
    send(404, { detail: "Not Found" });
  }
}

interface ComfyModule {
  queueImage(prompt: string): Promise<string>;
  getImageRun(runId: string): Promise<unknown>;
}

interface JobsModule {
  getRun(runId: string): { status: string; images: string[] } | undefined;
}

interface WebhookRoute {
  POST(request: Request): Promise<Response | undefined>;
}

describe("the migrated demo app against a V2 API stub", () => {
  const stub = new V2Stub();
  let copy: MigratedCopy;
  let comfy: ComfyModule;
  let jobs: JobsModule;
  let webhook: WebhookRoute;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    copy = await migratedDemoCopy("demo-migration-");
    const origin = await stub.start();
    const env = {
      COMFY_DEPLOY_API_KEY: API_KEY,
      COMFY_DEPLOY_API_BASE: origin,
      COMFY_DEPLOYMENT_ID: DEPLOYMENT_ID,
      APP_URL,
    };
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    // vitest does not know the app's `@/` path alias: point the webhook route's aliased imports at src/ relatively.
    const route = join(copy.root, "src", "app", "api", "webhook", "route.ts");
    writeFileSync(route, readFileSync(route, "utf8").replaceAll('"@/', '"../../../'));
    comfy = (await import(pathToFileURL(join(copy.root, "src", "lib", "comfy.ts")).href)) as ComfyModule;
    jobs = (await import(pathToFileURL(join(copy.root, "src", "lib", "jobs.ts")).href)) as JobsModule;
    webhook = (await import(pathToFileURL(route).href)) as WebhookRoute;
  });

  afterEach(() => {
    stub.requests.length = 0;
    stub.failing = false;
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await stub.stop();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    copy?.remove();
  });

  it("rewrote comfy.ts to the V2 SDK", () => {
    const text = readFileSync(join(copy.root, "src", "lib", "comfy.ts"), "utf8");
    expect(text).toContain('import { ComfyDeploy } from "comfydeploy"');
    expect(text).toContain("cd.run.deployment.queue(");
    expect(text).toContain("cd.run.get(");
  });

  it("keeps COMFY_DEPLOY_API_BASE a bare host: .env.example now names the V2 host, and fix said so", () => {
    const env = readFileSync(join(copy.root, ".env.example"), "utf8");
    const base = /^COMFY_DEPLOY_API_BASE=(.*)$/m.exec(env)?.[1];
    expect(`${base}/api`).toBe(HOSTS.v2.apiBase);
    const events = copy.plan.changes.find((c) => c.file === "src/lib/comfy.ts")?.events ?? [];
    expect(events.flatMap((e) => (e.env ? [e.env] : []))).toEqual([
      { variable: "COMFY_DEPLOY_API_BASE", value: `https://${HOSTS.v2.host}` },
    ]);
    expect(
      events.some(
        (e) => e.kind === "marker" && e.message.includes(`set COMFY_DEPLOY_API_BASE to https://${HOSTS.v2.host}`),
      ),
    ).toBe(true);
  });

  it("queueImage queues on POST /api/run/deployment/queue with the bearer token and returns the run id", async () => {
    const runId = await comfy.queueImage("a lighthouse at dusk");
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(stub.requests).toEqual([
      {
        method: "POST",
        path: "/api/run/deployment/queue",
        authorization: `Bearer ${API_KEY}`,
        body: {
          deployment_id: DEPLOYMENT_ID,
          inputs: { positive_prompt: "a lighthouse at dusk" },
          webhook: `${APP_URL}/api/webhook`,
          webhook_intermediate_status: false,
        },
      },
    ]);
  });

  it("getImageRun reads GET /api/run/:id and answers the V1 fields: status, live status, progress, images as { url, filename }", async () => {
    const runId = randomUUID();
    const run = await comfy.getImageRun(runId);
    expect(run).toStrictEqual({
      id: runId,
      status: "success",
      liveStatus: "Executing SaveImage",
      progress: 1,
      images: [{ url: "https://cdn.example.test/out/1.png", filename: "1.png" }],
    });
    expect(stub.requests).toEqual([
      { method: "GET", path: `/api/run/${runId}`, authorization: `Bearer ${API_KEY}`, body: undefined },
    ]);
  });

  it("a failing API makes queueImage throw after console.error, as V1's null result did", async () => {
    stub.failing = true;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(comfy.queueImage("x")).rejects.toThrow("ComfyDeploy did not accept the run");
    expect(logged).toHaveBeenCalledTimes(1);
    expect(stub.requests.map((r) => r.path)).toEqual(["/api/run/deployment/queue"]);
  });

  it("a failing API makes getImageRun return null after console.error, as V1 did", async () => {
    stub.failing = true;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(comfy.getImageRun(randomUUID())).resolves.toBeNull();
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it("the webhook route accepts a V2 webhook body and stores the run with its image URLs", async () => {
    const runId = randomUUID();
    const body = {
      run_id: runId,
      status: "success",
      live_status: "done",
      progress: 1,
      outputs: runRecord(runId).outputs as unknown[],
    };
    const response = await webhook.POST(
      new Request(`${APP_URL}/api/webhook`, { method: "POST", body: JSON.stringify(body) }),
    );
    expect(response?.status).toBe(200);
    expect(await response?.json()).toEqual({ message: "success" });
    expect(jobs.getRun(runId)).toMatchObject({ status: "success", images: ["https://cdn.example.test/out/1.png"] });
  });

  it('the webhook route answers an invalid body with V1\'s 500 "Invalid request" response', async () => {
    const response = await webhook.POST(
      new Request(`${APP_URL}/api/webhook`, { method: "POST", body: JSON.stringify({ hello: "world" }) }),
    );
    expect(response?.status).toBe(500);
    expect(response?.statusText).toBe("Invalid request");
  });
});
