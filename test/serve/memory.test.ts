/**
 * The emulator's memory stays flat however many runs are queued: run records
 * are bounded (--max-runs, default 10,000), and so is everything kept per
 * request. Heap after a full GC is compared at two points of one run (a
 * ratio, not an absolute figure): after 10,000 and after 50,000 runs.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Pool } from "undici";
import { afterEach, expect, it } from "vitest";
import { DEFAULT_MAX_RUNS } from "../../src/serve/options.js";
import type { Emulator } from "../../src/serve/server.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const TOTAL = 50_000;
const FIRST_MARK = 10_000;
const IN_FLIGHT = 64;

let emulator: Emulator | undefined;
let pool: Pool | undefined;
afterEach(async () => {
  await pool?.close();
  await emulator?.close();
  pool = emulator = undefined;
});

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

it(`memory stays flat over ${TOTAL.toLocaleString("en")} queued runs`, async () => {
  emulator = await startTestEmulator({ stepMs: 1 });
  const origin = new URL(emulator.baseUrl).origin;
  pool = new Pool(origin, { connections: 16 });
  const body = JSON.stringify({ deployment_id: DEPLOYMENT, inputs: { prompt: "a lighthouse at dusk", seed: 7 } });
  let queued = 0;
  let failed = 0;

  async function queueUntil(target: number): Promise<void> {
    const worker = async (): Promise<void> => {
      while (queued < target) {
        queued++;
        const answer = await pool!.request({
          method: "POST",
          path: "/api/run/deployment/queue",
          headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" },
          body,
        });
        await answer.body.dump();
        if (answer.statusCode !== 200) failed++;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    // Let the last runs finish, so both marks hold finished runs only.
    await new Promise((done) => setTimeout(done, 50));
  }

  await queueUntil(FIRST_MARK);
  const atFirstMark = heapAfterGc();
  expect(emulator.store.size).toBe(DEFAULT_MAX_RUNS);
  await queueUntil(TOTAL);
  const atEnd = heapAfterGc();

  expect(failed).toBe(0);
  expect(emulator.store.size).toBe(DEFAULT_MAX_RUNS);
  const ratio = atEnd / atFirstMark;
  process.stdout.write(
    `serve memory: heap after GC ${(atFirstMark / 2 ** 20).toFixed(1)} MB at ${FIRST_MARK} runs, ${(atEnd / 2 ** 20).toFixed(1)} MB at ${TOTAL} (ratio ${ratio.toFixed(2)})\n`,
  );
  expect(ratio).toBeLessThan(1.2);
}, 120_000);
