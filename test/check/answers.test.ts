/** What check reads: answers past a size limit are cut off with one clear line; a 404 says whether the base URL or the deployment is wrong. */
import { describe, expect, it, afterEach } from "vitest";
import { runCheck } from "../../src/check/live-check.js";
import { parseDeployment } from "../../src/serve/options.js";
import { startTestEmulator } from "../helpers/emulator.js";
import { checkOptions, closeAll, closers, DEPLOYMENT, localServer, RUN_ID } from "../helpers/check-api.js";

afterEach(closeAll);

const LIMIT = 256 * 1024;

/** Streams an endless answer, counting the bytes it managed to send before the client hung up. */
async function endlessAnswer(when: "POST" | "GET", contentLength?: number) {
  const sent = { bytes: 0, closed: false };
  const { origin } = await localServer((req, res) => {
    req.resume();
    if (req.method !== when) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ run_id: RUN_ID }));
      return;
    }
    res.writeHead(200, {
      "content-type": "application/json",
      ...(contentLength ? { "content-length": String(contentLength) } : {}),
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = (): void => {
      while (!res.destroyed && sent.bytes < 64 * 1024 * 1024) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    res.on("close", () => (sent.closed = true));
    pump();
  });
  return { baseUrl: `${origin}/api`, sent };
}

describe("answer size", () => {
  it.each(["POST", "GET"] as const)(
    "an endless answer to the %s stops being read past the limit, as one clear ERROR",
    async (when) => {
      const { baseUrl, sent } = await endlessAnswer(when);
      const result = await runCheck(checkOptions(baseUrl, { maxAnswerBytes: LIMIT }));
      expect(result.verdict).toBe("ERROR");
      expect(result.reason).toContain(`larger than ${LIMIT} bytes`);
      expect(result.reason).not.toContain("\n");
      for (let i = 0; i < 100 && !sent.closed; i++) await new Promise((done) => setTimeout(done, 10));
      expect(sent.closed).toBe(true);
      // Socket buffers hold some, but reading stopped far short of the 64 MB on offer.
      expect(sent.bytes).toBeLessThan(16 * 1024 * 1024);
    },
  );

  it("an announced Content-Length over the limit is refused before reading", async () => {
    const { baseUrl } = await endlessAnswer("POST", 10 * 1024 * 1024 * 1024);
    const result = await runCheck(checkOptions(baseUrl, { maxAnswerBytes: LIMIT }));
    expect([result.verdict, result.httpStatus]).toEqual(["ERROR", 200]);
    expect(result.reason).toContain("larger than");
  });

  it("ordinary answers are read whole under the default limit", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    expect((await runCheck(checkOptions(e.baseUrl))).verdict).toBe("READY");
  });
});

describe("a 404 to the queue request", () => {
  it("a base URL without /api says the path is wrong and suggests adding /api", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    const origin = new URL(e.baseUrl).origin;
    const result = await runCheck(checkOptions(origin));
    expect(result.wrongBaseUrl).toBe(true);
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain(`use --base-url ${origin}/api`);
    expect(result.reason).not.toContain("was not found");
    expect(e.store.size).toBe(0);
  });

  it("a base URL with another wrong path says so, without a suggestion it cannot back", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    const result = await runCheck(checkOptions(`${e.baseUrl}/v2`));
    expect(result.wrongBaseUrl).toBe(true);
    expect(result.reason).toContain("serves no V2 queue endpoint");
    expect(result.reason).toContain("ending in /api");
  });

  it("the right base URL and an unknown deployment still names the deployment", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    const other = "11111111-2222-4333-8444-555555555555";
    const result = await runCheck(checkOptions(e.baseUrl, { deploymentId: other }));
    expect(result.wrongBaseUrl).toBeUndefined();
    expect([result.verdict, result.httpStatus]).toEqual(["NOT_READY", 404]);
    expect(result.reason).toContain(`deployment ${other} was not found`);
  });
});
