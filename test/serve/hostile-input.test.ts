/** serve under hostile input: malformed paths, idempotent resends, webhooks aimed at this machine or a metadata service. */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/serve/server.js";
import { WebhookSender } from "../../src/serve/webhooks.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function emulator(overrides: Parameters<typeof startTestEmulator>[0] = {}): Promise<Emulator> {
  const e = await startTestEmulator(overrides);
  closers.push(() => e.close());
  return e;
}

async function call(
  e: Emulator,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await request(`${new URL(e.baseUrl).origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json", ...headers },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** A local receiver that counts the webhook calls it gets. */
async function hookServer(): Promise<{ url: string; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  closers.push(() => new Promise<void>((done) => server.close(() => done())));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, port, hits };
}

describe("paths", () => {
  it.each(["/api/run/%", "/api/run/%zz", "/api/run/%E0%A4%A", "/api/run/abc%"])(
    "%s is a 422 at path.run_id, not a 500",
    async (path) => {
      const e = await emulator();
      const answer = await call(e, "GET", path);
      expect(answer.status).toBe(422);
      expect(answer.json!.detail).toMatchObject([{ loc: ["path", "run_id"], type: "uuid_parsing" }]);
    },
  );

  it.each(["/%", "/api/%zz/queue", "//api/run", "/api/run/a/b%"])("%s is a 404", async (path) => {
    const e = await emulator();
    expect((await call(e, "GET", path)).status).toBe(404);
  });
});

describe("Idempotency-Key", () => {
  it("a second queue request with the same key returns the same run and creates nothing", async () => {
    const e = await emulator({ stepMs: 60_000 });
    const body = { deployment_id: DEPLOYMENT, inputs: { prompt: "a fox" } };
    const first = await call(e, "POST", "/api/run/deployment/queue", body, { "idempotency-key": "check-1" });
    const again = await call(e, "POST", "/api/run/deployment/queue", body, { "idempotency-key": "check-1" });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.json!.run_id).toBe(first.json!.run_id);
    expect(e.store.size).toBe(1);
    const other = await call(e, "POST", "/api/run/deployment/queue", body, { "idempotency-key": "check-2" });
    expect(other.json!.run_id).not.toBe(first.json!.run_id);
    expect(e.store.size).toBe(2);
  });

  it("the same key with another request is a 422 and queues nothing", async () => {
    const e = await emulator({ stepMs: 60_000 });
    await call(e, "POST", "/api/run/deployment/queue", { deployment_id: DEPLOYMENT }, { "idempotency-key": "k" });
    const reused = await call(
      e,
      "POST",
      "/api/run/deployment/queue",
      { deployment_id: DEPLOYMENT, inputs: { x: 1 } },
      { "idempotency-key": "k" },
    );
    expect(reused.status).toBe(422);
    expect(reused.json!.detail).toMatchObject([{ loc: ["header", "Idempotency-Key"] }]);
    expect(e.store.size).toBe(1);
  });
});

describe("webhooks to this machine and metadata services", () => {
  it.each([
    "http://127.0.0.1:3000/api/webhook",
    "http://127.8.9.10/hook",
    "http://localhost:3000/hook",
    "http://app.localhost/hook",
    "http://[::1]:3000/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://2130706433/hook",
    "http://0.0.0.0:3000/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/hook",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://[fd00:ec2::254]/latest/meta-data/",
  ])("%s is refused by default (422 naming the option)", async (webhook) => {
    const e = await emulator({ stepMs: 60_000 });
    const answer = await call(e, "POST", "/api/run/deployment/queue", { deployment_id: DEPLOYMENT, webhook });
    expect(answer.status).toBe(422);
    expect(answer.json!.detail).toMatchObject([{ loc: ["body", "webhook"], type: "value_error" }]);
    expect(String((answer.json!.detail as Array<{ msg: string }>)[0]!.msg)).toContain("--allow-local-webhooks");
    expect(e.store.size).toBe(0);
  });

  it("with allowLocalWebhooks a local receiver is queued and called", async () => {
    const hook = await hookServer();
    const e = await emulator({ allowLocalWebhooks: true, stepMs: 1 });
    const answer = await call(e, "POST", "/api/run/deployment/queue", { deployment_id: DEPLOYMENT, webhook: hook.url });
    expect(answer.status).toBe(200);
    for (let i = 0; i < 200 && hook.hits.length === 0; i++) await new Promise((done) => setTimeout(done, 10));
    expect(hook.hits).toEqual(["/hook"]);
  });

  it("a name that resolves to a loopback address is refused when connecting, and never retried", async () => {
    const hook = await hookServer();
    const toLoopback = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4)) as never;
    const url = `http://hooks.example.test:${hook.port}/hook`;

    const guarded = new WebhookSender(3, { lookup: toLoopback });
    expect(await guarded.deliver(url, { id: "r", status: "success" }, true)).toBe(false);
    expect(guarded.attempts).toHaveLength(1);
    await guarded.close();
    expect(hook.hits).toEqual([]);

    // The same resolution with the option: the receiver is reached, so the refusal above was the guard's.
    const allowed = new WebhookSender(3, { lookup: toLoopback, allowLocal: true });
    expect(await allowed.deliver(url, { id: "r", status: "success" }, true)).toBe(true);
    await allowed.close();
    expect(hook.hits).toEqual(["/hook"]);
  });
});

describe("bodies without a Content-Type", () => {
  it("are a 422 at [body], and the README says so", async () => {
    const e = await emulator();
    const response = await request(`${e.baseUrl}/run/deployment/queue`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: JSON.stringify({ deployment_id: DEPLOYMENT }),
    });
    const answer = (await response.body.json()) as { detail: unknown };
    expect(response.statusCode).toBe(422);
    expect(answer.detail).toMatchObject([{ loc: ["body"], type: "model_attributes_type" }]);

    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const serveSection = readme.slice(readme.indexOf("## `serve`"), readme.indexOf("## `pr`"));
    const bodies = serveSection.split("\n").find((line) => line.startsWith("- Bodies are read"));
    expect(bodies).toMatch(/no Content-Type[^.]*422/);
    expect(bodies).not.toMatch(/no Content-Type at all \(FastAPI parses those as JSON/);
  });
});
