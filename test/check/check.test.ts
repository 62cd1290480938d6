/** The live check against the emulator (and a few hostile servers), for every verdict and fault. */
import { createServer as createTcpServer } from "node:net";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck } from "../../src/check/live-check.js";
import { renderCheckJson, renderCheckText } from "../../src/check/render.js";
import { parseDeployment } from "../../src/serve/options.js";
import type { Emulator } from "../../src/serve/server.js";
import { checkOptions, DEPLOYMENT } from "../helpers/check-api.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function emulator(spec = DEPLOYMENT, extra: Parameters<typeof startTestEmulator>[0] = {}): Promise<Emulator> {
  const e = await startTestEmulator({ deployments: [parseDeployment(spec)], ...extra });
  closers.push(() => e.close());
  return e;
}

const options = checkOptions;

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

  it("ERROR when reading the run keeps answering 500, after the retries", async () => {
    let gets = 0;
    const baseUrl = await fakeApi(
      queuesThen((_req, res) => {
        gets++;
        res.writeHead(500).end();
      }),
    );
    const result = await runCheck(options(baseUrl));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("kept answering HTTP 500 after 4 attempts");
    expect(gets).toBe(4);
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
    const server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end("{run_id: oops"),
    );
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

/** A V2 API on 127.0.0.1 whose answers the test writes; closed after the test. */
async function fakeApi(
  handler: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void,
): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  closers.push(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

const RUN_ID = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f";

/** Queues fine, then answers GETs of the run with `onGet`. */
function queuesThen(
  onGet: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void,
) {
  return (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): void => {
    if (req.method === "POST") {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ run_id: RUN_ID }));
      return;
    }
    onGet(req, res);
  };
}

/** Resolves with the check's result, or rejects when it takes longer than `ms` (the check must bound itself). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

describe("--wait is the whole budget", () => {
  it("a 429 whose Retry-After lies beyond --wait ends at once as UNKNOWN, with the reason", async () => {
    let posts = 0;
    const baseUrl = await fakeApi((req, res) => {
      posts++;
      req.resume();
      res
        .writeHead(429, { "retry-after": "86400", "content-type": "application/json" })
        .end('{"detail":"Too Many Requests"}');
    });
    const result = await within(
      5000,
      runCheck(options(baseUrl, { waitSeconds: 1, maxBackoffMs: 30_000, maxRetries: 5 })),
    );
    expect(result.verdict).toBe("UNKNOWN");
    expect(result.httpStatus).toBe(429);
    expect(result.reason).toContain("Retry-After");
    expect(result.reason).toContain("--wait");
    expect(posts).toBe(1);
    expect(result.runId).toBeUndefined();
  });

  it("back-off on 5xx while reading the run stops when the budget runs out", async () => {
    const baseUrl = await fakeApi(queuesThen((_req, res) => res.writeHead(503).end()));
    const result = await within(
      5000,
      runCheck(options(baseUrl, { waitSeconds: 0.5, maxBackoffMs: 30_000, maxRetries: 50 })),
    );
    expect(result.verdict).toBe("UNKNOWN");
    expect(result.reason).toContain("503");
    expect(result.httpStatus).toBe(503);
  });

  it("when the budget runs out during a retry, the reason still names the API's last answer", async () => {
    // A read answered 503 with Retry-After: 0 (retried at once), then the retry never gets an answer: --wait runs out mid-request.
    let gets = 0;
    const baseUrl = await fakeApi(
      queuesThen((_req, res) => {
        if (gets++ === 0) res.writeHead(503, { "retry-after": "0" }).end();
      }),
    );
    const result = await within(
      5000,
      runCheck(options(baseUrl, { waitSeconds: 0.5, requestTimeoutMs: 30_000, maxBackoffMs: 30_000 })),
    );
    expect(gets).toBe(2);
    expect(result.verdict).toBe("UNKNOWN");
    expect(result.reason).toContain("--wait");
    expect(result.reason).toContain("HTTP 503");
    expect(result.httpStatus).toBe(503);
  });

  it("a request in flight gets no more than what is left of the budget", async () => {
    const baseUrl = await fakeApi(queuesThen(() => undefined)); // the GET never gets an answer
    const result = await within(5000, runCheck(options(baseUrl, { waitSeconds: 0.5, requestTimeoutMs: 30_000 })));
    expect(result.verdict).toBe("UNKNOWN");
    expect(result.reason).toContain("--wait");
    expect(result.runId).toBe(RUN_ID);
  });

  it("--wait 0 still queues the run and reports its id", async () => {
    const baseUrl = await fakeApi(
      queuesThen((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"status":"queued"}')),
    );
    const result = await runCheck(options(baseUrl, { waitSeconds: 0 }));
    expect([result.verdict, result.runId]).toEqual(["UNKNOWN", RUN_ID]);
  });
});

describe("the result never carries the token, even when the API echoes it", () => {
  // Placed so that a 120- or 200-character excerpt would cut the token after its first 10 characters.
  const cut = (at: number): string => `${"x".repeat(at - 10)}${TEST_TOKEN} and more`;
  const json = (res: import("node:http").ServerResponse, status: number, body: string) =>
    res.writeHead(status, { "content-type": "application/json" }).end(body);

  it.each([
    [
      "a queue answer that is not JSON",
      (_req: unknown, res: import("node:http").ServerResponse) => json(res, 200, cut(120)),
    ],
    [
      "a queue answer without run_id",
      (_req: unknown, res: import("node:http").ServerResponse) =>
        json(res, 200, JSON.stringify({ echo: cut(200 - 10) })),
    ],
    [
      "a 422 without detail items",
      (_req: unknown, res: import("node:http").ServerResponse) => json(res, 422, cut(200)),
    ],
    [
      "a 422 whose detail echoes it",
      (_req: unknown, res: import("node:http").ServerResponse) =>
        json(
          res,
          422,
          JSON.stringify({
            detail: [{ loc: ["header", TEST_TOKEN], msg: `token ${TEST_TOKEN} is not valid`, type: "value_error" }],
          }),
        ),
    ],
    ["a malformed run record", queuesThen((_req, res) => json(res, 200, cut(120)))],
    [
      "a run record without a status",
      queuesThen((_req, res) => json(res, 200, JSON.stringify({ echo: cut(200 - 10) }))),
    ],
    [
      "a failed run whose live_status echoes it",
      queuesThen((_req, res) =>
        json(res, 200, JSON.stringify({ status: "failed", live_status: `auth ${TEST_TOKEN}` })),
      ),
    ],
  ] as const)("%s", async (_name, handler) => {
    const baseUrl = await fakeApi((req, res) => {
      req.resume();
      handler(req, res);
    });
    const result = await runCheck(options(baseUrl));
    expect(result.verdict).not.toBe("READY");
    const everything = JSON.stringify(result) + renderCheckText(result) + renderCheckJson(result);
    expect(everything).not.toContain(TEST_TOKEN.slice(0, 10));
    expect(everything).toContain("***");
  });
});

describe("the run id stays in every report once a run exists", () => {
  it("when reading the run resets the connection", async () => {
    const baseUrl = await fakeApi(queuesThen((req) => req.socket.resetAndDestroy()));
    const result = await runCheck(options(baseUrl));
    expect(result.verdict).toBe("ERROR");
    expect(result.runId).toBe(RUN_ID);
    expect(result.reason).toContain(RUN_ID);
    expect(result.reason).toMatch(/reset/);
    expect(renderCheckText(result)).toContain(`run ${RUN_ID}`);
    expect(JSON.parse(renderCheckJson(result)).runId).toBe(RUN_ID);
  });

  it("when reading the run times out", async () => {
    const baseUrl = await fakeApi(queuesThen(() => undefined));
    const result = await runCheck(options(baseUrl, { requestTimeoutMs: 100, waitSeconds: 5 }));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("did not answer in time");
    expect(result.runId).toBe(RUN_ID);
  });

  it("when reading the run keeps failing with 500", async () => {
    const baseUrl = await fakeApi(queuesThen((_req, res) => res.writeHead(500).end()));
    const result = await runCheck(options(baseUrl, { maxRetries: 1 }));
    expect(result.verdict).toBe("ERROR");
    expect(result.runId).toBe(RUN_ID);
    expect(result.reason).toContain(RUN_ID);
  });

  it("when the run record is malformed", async () => {
    const baseUrl = await fakeApi(
      queuesThen((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{oops")),
    );
    const result = await runCheck(options(baseUrl));
    expect([result.verdict, result.runId]).toEqual(["ERROR", RUN_ID]);
  });
});
