/** The live check against the emulator (and a few hostile servers), for every verdict and fault. */
import { createServer as createTcpServer } from "node:net";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type CheckOptions, runCheck } from "../src/check/live-check.js";
import { renderCheckJson, renderCheckText } from "../src/check/render.js";
import { parseDeployment } from "../src/serve/options.js";
import type { Emulator } from "../src/serve/server.js";
import { startTestEmulator, TEST_TOKEN } from "./helpers/emulator.js";

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function emulator(spec = DEPLOYMENT, extra: Parameters<typeof startTestEmulator>[0] = {}): Promise<Emulator> {
  const e = await startTestEmulator({ deployments: [parseDeployment(spec)], ...extra });
  closers.push(() => e.close());
  return e;
}

function options(baseUrl: string, overrides: Partial<CheckOptions> = {}): CheckOptions {
  return {
    baseUrl,
    token: TEST_TOKEN,
    deploymentId: DEPLOYMENT,
    flag: "partner_v2",
    waitSeconds: 5,
    requestTimeoutMs: 2000,
    maxRetries: 3,
    pollIntervalMs: 10,
    maxBackoffMs: 50,
    now: new Date("2025-04-10T00:00:00Z"),
    ...overrides,
  };
}

describe("check verdicts", () => {
  it("READY when the flagged run succeeds, and the emulator saw the flag", async () => {
    const e = await emulator();
    const seen: string[] = [];
    const result = await runCheck(options(e.baseUrl, { onStatus: (s) => seen.push(s) }));
    expect(result.verdict).toBe("READY");
    expect(seen.at(-1)).toBe("success");
    expect(e.store.all()[0]!.flags).toEqual(["partner_v2"]);
    expect(result.cutoff.daysLeft).toBe(5);
    expect(renderCheckText(result)).toContain("5 days left");
  });

  it("NOT READY on a bad token (401)", async () => {
    const e = await emulator();
    const result = await runCheck(options(e.baseUrl, { token: "wrong-token-123" }));
    expect([result.verdict, result.httpStatus]).toEqual(["NOT_READY", 401]);
    expect(result.reason).toContain("refused the token");
  });

  it("NOT READY on an unknown deployment (404)", async () => {
    const e = await emulator();
    const result = await runCheck(options(e.baseUrl, { deploymentId: "11111111-2222-4333-8444-555555555555" }));
    expect([result.verdict, result.httpStatus]).toEqual(["NOT_READY", 404]);
  });

  it("NOT READY on 422, with the detail items", async () => {
    const e = await emulator();
    const result = await runCheck(options(e.baseUrl, { gpu: "TPU" }));
    expect(result.verdict).toBe("NOT_READY");
    expect(result.detail).toMatchObject([{ loc: ["body", "gpu"], type: "enum" }]);
    expect(result.reason).toContain("body.gpu");
  });

  it("NOT READY when the run fails, with live_status", async () => {
    const e = await emulator(`${DEPLOYMENT}:failed`);
    const result = await runCheck(options(e.baseUrl));
    expect([result.verdict, result.status]).toEqual(["NOT_READY", "failed"]);
    expect(result.liveStatus).toContain("KSampler");
  });

  it("NOT READY when the deployment's worker is not migrated", async () => {
    const e = await emulator(`${DEPLOYMENT}:not-migrated`);
    const result = await runCheck(options(e.baseUrl));
    expect(result.verdict).toBe("NOT_READY");
    expect(result.reason).toContain("not on V2");
  });

  it("UNKNOWN when the run is still queued when --wait runs out", async () => {
    const e = await emulator(`${DEPLOYMENT}:stuck`);
    const result = await runCheck(options(e.baseUrl, { waitSeconds: 0.2 }));
    expect([result.verdict, result.status]).toEqual(["UNKNOWN", "queued"]);
    expect(result.reason).toContain("still queued");
  });

  it("retries 429 (honouring Retry-After, capped) and then succeeds", async () => {
    const e = await emulator(DEPLOYMENT, { faults: { first429: 2 } as never });
    const result = await runCheck(options(e.baseUrl));
    expect(result.verdict).toBe("READY");
    expect(e.requests.filter((r) => r.method === "POST")).toHaveLength(3);
  });

  it("ERROR when 500 persists, after the retries", async () => {
    const e = await emulator(DEPLOYMENT, { faults: { rate500: 1 } as never });
    const result = await runCheck(options(e.baseUrl));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("kept answering HTTP 500 after 4 attempts");
  });

  it("ERROR when the answer is slower than the time-out", async () => {
    const e = await emulator(DEPLOYMENT, { faults: { latencyMs: 500 } as never });
    const result = await runCheck(options(e.baseUrl, { requestTimeoutMs: 100 }));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("did not answer in time");
  });

  it("ERROR when the connection is reset", async () => {
    const server = createTcpServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    closers.push(() => new Promise<void>((done) => server.close(() => done())));
    const result = await runCheck(options(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toMatch(/reset|network error/);
  });

  it("ERROR on malformed JSON", async () => {
    const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{run_id: oops"));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    closers.push(() => new Promise<void>((done) => server.close(() => done())));
    const result = await runCheck(options(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("malformed JSON");
  });

  it("ERROR when nothing listens", async () => {
    const result = await runCheck(options("http://127.0.0.1:9/api"));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("refused");
  });

  it("never puts the token in its reports", async () => {
    const e = await emulator(`${DEPLOYMENT}:failed`);
    const result = await runCheck(options(e.baseUrl));
    expect(renderCheckJson(result) + renderCheckText(result)).not.toContain(TEST_TOKEN);
  });
});
