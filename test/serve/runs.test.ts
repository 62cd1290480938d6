/** The run store's bounds: bytes kept (not only the run count), oldest dropped first; states that move per read. */
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/serve/server.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function call(method: "GET" | "POST", path: string, body?: unknown) {
  const response = await request(`${emulator!.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
}

/** The bytes the kept records take as served: what the budget is about. */
function servedBytes(e: Emulator): number {
  return e.store.all().reduce((sum, run) => sum + Buffer.byteLength(JSON.stringify(run)), 0);
}

describe("byte budget", () => {
  it("many large runs: the bytes kept stay under the budget, and the oldest runs go first", async () => {
    const budget = 3 * 1024 * 1024;
    emulator = await startTestEmulator({ maxStoreBytes: budget, maxBodyBytes: 512 * 1024, stepMs: 1 });
    const large = "x".repeat(200 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const answer = await call("POST", "/run/deployment/queue", {
        deployment_id: DEPLOYMENT,
        inputs: { i, image: large },
      });
      expect(answer.status).toBe(200);
      ids.push(answer.json.run_id as string);
      expect(emulator.store.bytes).toBeLessThanOrEqual(budget);
    }
    await new Promise((done) => setTimeout(done, 50)); // let the last runs finish and gain their outputs
    expect(emulator.store.bytes).toBeLessThanOrEqual(budget);
    // The store's own count is the served size of what it keeps, not an estimate.
    expect(emulator.store.bytes).toBe(servedBytes(emulator));
    // 200 KB records: a budget of 3 MB keeps the most recent 14, far fewer than the count bound allows.
    const kept = emulator.store.all().map((run) => run.id);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(16);
    expect(kept).toEqual(ids.slice(-kept.length));
    expect((await call("GET", `/run/${ids[0]}`)).status).toBe(404);
    expect((await call("GET", `/run/${ids.at(-1)}`)).status).toBe(200);
  });

  it("a run larger than the whole budget is still kept, alone", async () => {
    emulator = await startTestEmulator({ maxStoreBytes: 10_000, stepMs: 60_000 });
    await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT });
    const big = (
      await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT, inputs: { p: "y".repeat(20_000) } })
    ).json.run_id;
    expect(emulator.store.all().map((run) => run.id)).toEqual([big]);
  });
});

describe("advanceOnRead", () => {
  it("each read of a run shows the next state, so a client sees every state whatever the load", async () => {
    emulator = await startTestEmulator({ advanceOnRead: true, stepMs: 1 });
    const runId = (await call("POST", "/run/deployment/queue", { deployment_id: DEPLOYMENT })).json.run_id as string;
    await new Promise((done) => setTimeout(done, 30)); // no timer moves it meanwhile
    const statuses: string[] = [];
    for (let i = 0; i < 7; i++) statuses.push(String((await call("GET", `/run/${runId}`)).json.status));
    expect(statuses).toEqual(["queued", "started", "running", "uploading", "success", "success", "success"]);
  });
});
