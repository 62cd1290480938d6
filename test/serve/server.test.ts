/** The V2 emulator: validation, errors, records, lifecycle, webhooks, legacy endpoints, load. */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { deflateSync, gzipSync } from "node:zlib";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { parseDeployment } from "../../src/serve/options.js";
import type { Emulator } from "../../src/serve/server.js";
import { WebhookSender } from "../../src/serve/webhooks.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const auth = { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" };
let emulator: Emulator | undefined;

afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function call(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = auth) {
  const response = await request(`${emulator!.baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

/** A request with exactly these bytes and headers (plus the bearer token). */
async function raw(body: string | Buffer, headers: Record<string, string>) {
  const response = await request(`${emulator!.baseUrl}/run/deployment/queue`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers },
    body,
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

async function waitFor(runId: string, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const run = (await call("GET", `/run/${runId}`)).json!;
    if (run.status === status) return run;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`run ${runId} never reached ${status}`);
}

/** The run record's fields, from the spec's section 2.1 table when the spec is beside the repository. */
function specRunFields(): string[] {
  const spec = join(import.meta.dirname, "..", "..", "..", "shared", "spec", "service-interface.md");
  const fallback = [
    "id",
    "workflow_version_id",
    "workflow_inputs",
    "workflow_id",
    "workflow_api",
    "machine_id",
    "origin",
    "status",
    "ended_at",
    "created_at",
    "updated_at",
    "queued_at",
    "started_at",
    "gpu_event_id",
    "gpu",
    "machine_version",
    "machine_type",
    "executor_function_call_id",
    "user_id",
    "org_id",
    "live_status",
    "progress",
    "is_realtime",
    "webhook",
    "webhook_status",
    "webhook_intermediate_status",
    "outputs",
    "number",
    "duration",
    "cold_start_duration",
    "cold_start_duration_total",
    "run_duration",
  ];
  if (!existsSync(spec)) return fallback;
  const text = readFileSync(spec, "utf8");
  const section = text.slice(text.indexOf("### 2.1"), text.indexOf("Gaps in the run record"));
  return [...section.matchAll(/^\| ([a-z_]+) \|/gm)].map((m) => m[1]!);
}

describe("queue validation (FastAPI-style 422)", () => {
  it.each([
    [{}, [{ loc: ["body", "deployment_id"], msg: "Field required", type: "missing" }]],
    [
      { deployment_id: "abc" },
      [{ loc: ["body", "deployment_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" }],
    ],
    [
      { deployment_id: DEPLOYMENT, inputs: [] },
      [{ loc: ["body", "inputs"], msg: "Input should be a valid dictionary", type: "dictionary_type" }],
    ],
    [{ deployment_id: DEPLOYMENT, gpu: "TPU" }, [{ loc: ["body", "gpu"], type: "enum" }]],
    [{ deployment_id: DEPLOYMENT, flags: "partner_v2" }, [{ loc: ["body", "flags"], type: "list_type" }]],
    [
      { deployment_id: DEPLOYMENT, webhook_intermediate_status: "yes" },
      [{ loc: ["body", "webhook_intermediate_status"], type: "boolean_type" }],
    ],
    [{ deployment_id: DEPLOYMENT, webhook: 5 }, [{ loc: ["body", "webhook"], type: "string_type" }]],
  ])("%j → %j", async (body, detail) => {
    emulator = await startTestEmulator();
    const answer = await call("POST", "/run/deployment/queue", body);
    expect(answer.status).toBe(422);
    expect(answer.json!.detail).toMatchObject(detail);
  });

  it("accepts every GPU of the spec, L40S included", async () => {
    emulator = await startTestEmulator();
    for (const gpu of ["T4", "L4", "A10G", "L40S", "A100", "A100-80GB", "H100"]) {
      expect((await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, gpu })).status).toBe(200);
    }
  });

  it("answers malformed JSON and a non-uuid run id with 422", async () => {
    emulator = await startTestEmulator();
    const bad = await call("POST", "/run/deployment/queue", "{not json");
    expect(bad.status).toBe(422);
    expect(bad.json!.detail).toMatchObject([{ loc: ["body", 0], type: "json_invalid" }]);
    const badId = await call("GET", "/run/not-a-uuid");
    expect(badId.status).toBe(422);
    expect(badId.json!.detail).toMatchObject([{ loc: ["path", "run_id"], type: "uuid_parsing" }]);
  });
});

describe("errors", () => {
  it("401 without or with a wrong token, with a JSON detail", async () => {
    emulator = await startTestEmulator();
    const missing = await call(
      "POST",
      "/run/deployment/queue",
      { deployment_id: DEPLOYMENT },
      { "content-type": "application/json" },
    );
    expect([missing.status, missing.json]).toEqual([401, { detail: "Not authenticated" }]);
    const wrong = await call("GET", `/run/${DEPLOYMENT}`, undefined, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
  });

  it("404 for an unknown run and for a deployment outside the configured list", async () => {
    emulator = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    expect((await call("GET", "/run/3f1b0f0e-0000-4000-8000-000000000000")).status).toBe(404);
    const other = await call("POST", "/run/deployment/queue", {
      deployment_id: "3f1b0f0e-0000-4000-8000-000000000000",
    });
    expect([other.status, other.json]).toEqual([404, { detail: "Deployment not found" }]);
  });

  it("413 for a body over the limit; 404 and 405 for other routes", async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 100 });
    expect(
      (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, inputs: { p: "x".repeat(200) } }))
        .status,
    ).toBe(413);
    expect((await call("GET", "/nothing/here")).status).toBe(404);
    expect((await call("GET", "/run")).status).toBe(404); // V1 route, not served without --legacy
    const wrongMethod = await call("GET", "/run/deployment/queue");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("POST");
  });

  it("injects 429 with Retry-After and 500", async () => {
    emulator = await startTestEmulator({ faults: { first429: 1, first500: 1 } as never });
    const first = await call("GET", `/run/${DEPLOYMENT}`);
    expect([first.status, first.headers["retry-after"]]).toEqual([429, "1"]);
    expect((await call("GET", `/run/${DEPLOYMENT}`)).status).toBe(500);
    expect((await call("GET", `/run/${DEPLOYMENT}`)).status).toBe(404);
  });
});

describe("run records and lifecycle", () => {
  it("have every field of the spec with realistic values, and move queued → … → success", async () => {
    emulator = await startTestEmulator({ deployments: [parseDeployment(`${DEPLOYMENT}:L40S`)] });
    const queued = await call("POST", "/run/deployment/queue", {
      deployment_id: DEPLOYMENT,
      inputs: { prompt: "a cat" },
      flags: ["partner_v2"],
    });
    const runId = queued.json!.run_id as string;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const seen = new Set<string>();
    let run: Record<string, unknown> = {};
    for (let i = 0; i < 300 && run.status !== "success"; i++) {
      run = (await call("GET", `/run/${runId}`)).json!;
      seen.add(String(run.status));
      await new Promise((done) => setTimeout(done, 5));
    }
    // Every state seen is on the happy path, in its order (fast polls may skip some).
    const path = ["queued", "started", "running", "uploading", "success"];
    const order = [...seen].map((s) => path.indexOf(s));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(run.status).toBe("success");
    for (const field of specRunFields()) expect(run, field).toHaveProperty(field);
    expect(run.gpu).toBe("L40S");
    expect(run.workflow_inputs).toEqual({ prompt: "a cat" });
    expect(run.flags).toEqual(["partner_v2"]);
    expect(run.progress).toBe(1);
    for (const key of ["created_at", "updated_at", "queued_at", "started_at", "ended_at"]) {
      expect(String(run[key])).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    }
    expect(typeof run.run_duration).toBe("number");
    expect(String(run.executor_function_call_id)).toMatch(/^fc-/);
    const outputs = run.outputs as Array<{ data: { images: Array<{ url: string }>; files: unknown[] } }>;
    expect(outputs[0]!.data.images[0]!.url).toMatch(/\.png$/);
    expect(outputs[0]!.data.files).toHaveLength(1);
  });

  it("numbers runs in increasing order and takes the GPU from the request", async () => {
    emulator = await startTestEmulator();
    const a = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, gpu: "H100" })).json!
      .run_id as string;
    const b = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT })).json!.run_id as string;
    const [ra, rb] = [(await call("GET", `/run/${a}`)).json!, (await call("GET", `/run/${b}`)).json!];
    expect(rb.number as number).toBeGreaterThan(ra.number as number);
    expect([ra.gpu, rb.gpu]).toEqual(["H100", "A10G"]);
  });

  it.each([
    ["failed", "failed"],
    ["timeout", "timeout"],
    ["cancelled", "cancelled"],
  ])("per-deployment rule %s ends runs as %s", async (outcome, status) => {
    emulator = await startTestEmulator({ deployments: [parseDeployment(`${DEPLOYMENT}:${outcome}`)] });
    const runId = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT })).json!.run_id as string;
    const run = await waitFor(runId, status);
    expect(run.ended_at).not.toBeNull();
  });

  it("fails migration-flag runs on a deployment marked not migrated", async () => {
    emulator = await startTestEmulator({ deployments: [parseDeployment(`${DEPLOYMENT}:not-migrated`)] });
    const plain = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT })).json!.run_id as string;
    const flagged = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, flags: ["partner_v2"] }))
      .json!.run_id as string;
    expect((await waitFor(plain, "success")).status).toBe("success");
    expect(String((await waitFor(flagged, "failed")).live_status)).toContain("not on V2");
  });
});

describe("webhooks", () => {
  it("POST the final status with retries, intermediate ones only when asked, and keep webhook_status", async () => {
    const received: Array<{ status: string }> = [];
    let failuresLeft = 1;
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () => {
        if (failuresLeft-- > 0) {
          res.writeHead(503).end();
          return;
        }
        received.push(JSON.parse(body) as { status: string });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((done) => hook.listen(0, "127.0.0.1", done));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    try {
      emulator = await startTestEmulator({ allowLocalWebhooks: true });
      const quiet = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, webhook: hookUrl })).json!
        .run_id as string;
      await waitFor(quiet, "success");
      for (let i = 0; i < 100 && received.length < 1; i++) await new Promise((d) => setTimeout(d, 20));
      expect(received.map((r) => r.status)).toEqual(["success"]);
      for (let i = 0; i < 100 && (await call("GET", `/run/${quiet}`)).json!.webhook_status !== "success"; i++)
        await new Promise((d) => setTimeout(d, 20));
      expect((await call("GET", `/run/${quiet}`)).json!.webhook_status).toBe("success");

      received.length = 0;
      const chatty = (
        await call("POST", "/run/deployment/queue", {
          deployment_id: DEPLOYMENT,
          webhook: hookUrl,
          webhook_intermediate_status: true,
        })
      ).json!.run_id as string;
      await waitFor(chatty, "success");
      for (let i = 0; i < 100 && received.length < 4; i++) await new Promise((d) => setTimeout(d, 20));
      expect(received.map((r) => r.status)).toEqual(["started", "running", "uploading", "success"]);
    } finally {
      hook.close();
    }
  });
});

describe("legacy endpoints", () => {
  it("serve V1 POST /run and GET /run?run_id= with --legacy", async () => {
    emulator = await startTestEmulator({ legacy: true });
    const created = await call("POST", "/run", { deployment_id: DEPLOYMENT, inputs: {} });
    const runId = created.json!.run_id as string;
    const v1 = await call("GET", `/run?run_id=${runId}`);
    expect(v1.status).toBe(200);
    expect(Object.keys(v1.json!).sort()).toEqual(["id", "live_status", "outputs", "progress", "status"]);
  });
});

describe("load", () => {
  it("1,000 concurrent queue requests lose and duplicate no run", async () => {
    emulator = await startTestEmulator({ stepMs: 60_000 });
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, inputs: { i } }),
      ),
    );
    const ids = answers.map((a) => a.json!.run_id as string);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(ids).size).toBe(1000);
    expect(emulator.store.size).toBe(1000);
    const numbers = emulator.store.all().map((r) => r.number as number);
    expect(new Set(numbers).size).toBe(1000);
    const inputs = new Set(emulator.store.all().map((r) => (r.workflow_inputs as { i: number }).i));
    expect(inputs.size).toBe(1000);
  });
});

describe("request bodies: content type and encoding (as strict as the service)", () => {
  const body = JSON.stringify({ deployment_id: DEPLOYMENT, inputs: { prompt: "a fox" } });

  it.each([
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
  ])("a JSON body labelled %s is 422 at loc [body], as FastAPI answers it", async (contentType) => {
    emulator = await startTestEmulator();
    const answer = await raw(body, { "content-type": contentType });
    expect(answer.status).toBe(422);
    expect(answer.json!.detail).toEqual([
      {
        loc: ["body"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        type: "model_attributes_type",
      },
    ]);
    expect(emulator.store.size).toBe(0);
  });

  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON", "application/vnd.acme+json"])(
    "accepts %s",
    async (contentType) => {
      emulator = await startTestEmulator();
      expect((await raw(body, { "content-type": contentType })).status).toBe(200);
    },
  );

  it("a JSON body with no content type (or an empty one) is 422 at loc [body], as FastAPI's strict content-type check answers it", async () => {
    emulator = await startTestEmulator();
    for (const headers of [{}, { "content-type": "" }] as Array<Record<string, string>>) {
      const answer = await raw(body, headers);
      expect(answer.status).toBe(422);
      expect(answer.json!.detail).toEqual([
        {
          loc: ["body"],
          msg: "Input should be a valid dictionary or object to extract fields from",
          type: "model_attributes_type",
        },
      ]);
    }
    expect(emulator.store.size).toBe(0);
  });

  it("an empty JSON body is a missing body (422 at loc [body])", async () => {
    emulator = await startTestEmulator();
    const answer = await raw("", { "content-type": "application/json" });
    expect([answer.status, answer.json!.detail]).toEqual([
      422,
      [{ loc: ["body"], msg: "Field required", type: "missing" }],
    ]);
  });

  it.each([
    ["gzip", gzipSync],
    ["x-gzip", gzipSync],
    ["deflate", deflateSync],
  ] as const)("decodes a real %s body", async (encoding, encode) => {
    emulator = await startTestEmulator();
    const answer = await raw(encode(Buffer.from(body)), {
      "content-type": "application/json",
      "content-encoding": encoding,
    });
    expect(answer.status).toBe(200);
    expect(emulator.store.get(answer.json!.run_id as string)!.workflow_inputs).toEqual({ prompt: "a fox" });
  });

  it("a body labelled gzip that is not gzip is 400, and nothing is queued", async () => {
    emulator = await startTestEmulator();
    const answer = await raw(body, { "content-type": "application/json", "content-encoding": "gzip" });
    expect(answer.status).toBe(400);
    expect(String(answer.json!.detail)).toContain("There was an error parsing the body");
    expect(String(answer.json!.detail)).toContain("gzip");
    expect(emulator.store.size).toBe(0);
  });

  it("an encoding it cannot decode is 415 with the encodings it can", async () => {
    emulator = await startTestEmulator();
    const answer = await raw(body, { "content-type": "application/json", "content-encoding": "zstd" });
    expect(answer.status).toBe(415);
    expect(answer.headers["accept-encoding"]).toBe("gzip, deflate, br");
    expect(emulator.store.size).toBe(0);
  });

  it("limits the decoded size too (a small gzip of a huge body is 413)", async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 10_000 });
    const bomb = gzipSync(
      Buffer.from(JSON.stringify({ deployment_id: DEPLOYMENT, inputs: { p: "x".repeat(1_000_000) } })),
    );
    expect(bomb.length).toBeLessThan(10_000);
    expect((await raw(bomb, { "content-type": "application/json", "content-encoding": "gzip" })).status).toBe(413);
  });
});

describe("webhook addresses", () => {
  it.each([
    ["not a url", "url_parsing"],
    ["", "url_parsing"],
    ["file:///etc/passwd", "url_scheme"],
    ["javascript:alert(1)", "url_scheme"],
    ["ftp://hooks.example.com/run", "url_scheme"],
  ])("%j is 422 (%s)", async (webhook, type) => {
    emulator = await startTestEmulator();
    const answer = await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, webhook });
    expect(answer.status).toBe(422);
    expect(answer.json!.detail).toMatchObject([{ loc: ["body", "webhook"], type }]);
    expect(emulator.store.size).toBe(0);
  });

  it.each(["https://hooks.example.com/comfy?x=1", "http://127.0.0.1:3000/api/webhook"])(
    "accepts %s (a local one with allowLocalWebhooks)",
    async (webhook) => {
      emulator = await startTestEmulator({ stepMs: 60_000, allowLocalWebhooks: true });
      expect((await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, webhook })).status).toBe(200);
    },
  );

  it.each(["file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi", "not a url"])(
    "is never delivered to %s",
    async (url) => {
      const sender = new WebhookSender(3);
      expect(await sender.deliver(url, { id: "r", status: "success" }, true)).toBe(false);
      expect(sender.attempts).toEqual([]);
    },
  );
});

describe("bounded run records", () => {
  const QUICK = "3f1b0f0e-0000-4000-8000-000000000000";

  it("keeps at most maxRuns: the oldest finished run goes first, then the oldest still in flight", async () => {
    emulator = await startTestEmulator({
      maxRuns: 3,
      stepMs: 5,
      deployments: [parseDeployment(`${DEPLOYMENT}:stuck`), parseDeployment(`${QUICK}:cancelled`)],
    });
    const queue = async (deployment: string) =>
      (await call("POST", "/run/deployment/queue", { deployment_id: deployment })).json!.run_id as string;
    const inFlight = await queue(DEPLOYMENT);
    const finished = await queue(QUICK);
    await waitFor(finished, "cancelled");
    const third = await queue(DEPLOYMENT);
    expect(emulator.store.size).toBe(3);

    const fourth = await queue(DEPLOYMENT);
    expect(emulator.store.size).toBe(3);
    expect((await call("GET", `/run/${finished}`)).status).toBe(404);
    expect((await call("GET", `/run/${inFlight}`)).status).toBe(200);

    const fifth = await queue(DEPLOYMENT);
    expect(emulator.store.size).toBe(3);
    expect((await call("GET", `/run/${inFlight}`)).status).toBe(404);
    for (const id of [third, fourth, fifth]) expect((await call("GET", `/run/${id}`)).status).toBe(200);
  });

  it("an evicted run in flight stops moving and sends no webhook", async () => {
    const hits: string[] = [];
    const hook = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.writeHead(200).end();
    });
    await new Promise<void>((done) => hook.listen(0, "127.0.0.1", done));
    try {
      emulator = await startTestEmulator({ maxRuns: 1, stepMs: 30, allowLocalWebhooks: true });
      const webhook = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, webhook });
      const kept = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT })).json!.run_id as string;
      await waitFor(kept, "success");
      await new Promise((done) => setTimeout(done, 50));
      expect(hits).toEqual([]);
      expect(emulator.store.size).toBe(1);
    } finally {
      hook.close();
    }
  });

  it("keeps a bounded log of requests", async () => {
    emulator = await startTestEmulator();
    for (let i = 0; i < 1100; i++) await call("GET", `/run/${DEPLOYMENT}`);
    expect(emulator.requests.length).toBeLessThanOrEqual(1000);
    expect(emulator.requests.at(-1)).toEqual({ method: "GET", path: `/api/run/${DEPLOYMENT}` });
  });
});
