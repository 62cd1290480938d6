/**
 * The queue POST creates a billed run: check sends it again only when the
 * service cannot have acted on it, and always with an Idempotency-Key.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck } from "../../src/check/live-check.js";
import { parseDeployment } from "../../src/serve/options.js";
import { startTestEmulator } from "../helpers/emulator.js";
import { checkOptions, closeAll, closers, DEPLOYMENT, localServer, RUN_ID } from "../helpers/check-api.js";

afterEach(closeAll);

describe("no second billed run", () => {
  it.each([500, 502, 503, 504])(
    "a queue POST answered %i is sent once, and the reason says why it was not resent",
    async (status) => {
      let posts = 0;
      const { origin } = await localServer((req, res) => {
        req.resume();
        if (req.method === "POST") posts++;
        res.writeHead(status, { "retry-after": "0" }).end();
      });
      const result = await runCheck(checkOptions(`${origin}/api`, { maxRetries: 5 }));
      expect(posts).toBe(1);
      expect([result.verdict, result.httpStatus]).toEqual(["ERROR", status]);
      expect(result.reason).toContain("not sent again");
    },
  );

  it("a gateway that queues the run on serve and then answers 502: one POST reaches serve, one run exists", async () => {
    const emulator = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)], stepMs: 60_000 });
    closers.push(() => emulator.close());
    const { origin } = await localServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void request(`${new URL(emulator.baseUrl).origin}${req.url}`, {
          method: req.method as "POST",
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }).then(async (answer) => {
          await answer.body.dump();
          res.writeHead(502).end();
        });
      });
    });
    const result = await runCheck(checkOptions(`${origin}/api`, { maxRetries: 5 }));
    expect(result.verdict).toBe("ERROR");
    expect(emulator.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(emulator.store.size).toBe(1);
  });

  it("a 429 on the queue POST is retried: the service refused it without acting", async () => {
    let posts = 0;
    const { origin } = await localServer((req, res) => {
      req.resume();
      if (req.method === "POST" && posts++ === 0) return void res.writeHead(429, { "retry-after": "0" }).end();
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(req.method === "POST" ? { run_id: RUN_ID } : { status: "success" }));
    });
    const result = await runCheck(checkOptions(`${origin}/api`));
    expect([result.verdict, posts]).toEqual(["READY", 2]);
  });

  it("a connection refused before the request went out is retried, and the run is queued once", async () => {
    // A port that refuses now and serves a moment later.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
    let posts = 0;
    const later = new Promise<void>((done) =>
      setTimeout(() => {
        void localServer((req, res) => {
          req.resume();
          if (req.method === "POST") posts++;
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify(req.method === "POST" ? { run_id: RUN_ID } : { status: "success" }));
        }, port).then(() => done());
      }, 150),
    );
    const result = await runCheck(checkOptions(`http://127.0.0.1:${port}/api`, { maxBackoffMs: 400, maxRetries: 5 }));
    await later;
    expect([result.verdict, posts]).toEqual(["READY", 1]);
  });

  it("sends an Idempotency-Key with the queue POST, a new one per check", async () => {
    const keys: Array<string | undefined> = [];
    const { origin } = await localServer((req, res) => {
      req.resume();
      if (req.method === "POST") keys.push(req.headers["idempotency-key"] as string | undefined);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(req.method === "POST" ? { run_id: RUN_ID } : { status: "success" }));
    });
    await runCheck(checkOptions(`${origin}/api`));
    await runCheck(checkOptions(`${origin}/api`));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });
});
