/** check against the right --base-url and an unknown deployment: the id is named as the problem (a wrong base: test/check/answers.test.ts). */
import { afterEach, describe, expect, it } from "vitest";
import { type CheckOptions, runCheck } from "../../src/check/live-check.js";
import { parseDeployment } from "../../src/serve/options.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function options(baseUrl: string, overrides: Partial<CheckOptions> = {}): CheckOptions {
  return {
    baseUrl,
    token: TEST_TOKEN,
    deploymentId: DEPLOYMENT,
    flag: "partner_v2",
    waitSeconds: 5,
    requestTimeoutMs: 2000,
    maxRetries: 1,
    pollIntervalMs: 10,
    maxBackoffMs: 50,
    ...overrides,
  };
}

describe("check --base-url", () => {
  it("still says an unknown deployment was not found when the base URL is right", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    const result = await runCheck(options(e.baseUrl, { deploymentId: "11111111-2222-4333-8444-555555555555" }));
    expect([result.verdict, result.httpStatus]).toEqual(["NOT_READY", 404]);
    expect(result.reason).toContain("was not found");
  });
});
