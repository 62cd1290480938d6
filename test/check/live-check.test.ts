/** check against a wrong --base-url: the path is named as the problem, not the deployment id. */
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
  return { baseUrl, token: TEST_TOKEN, deploymentId: DEPLOYMENT, flag: "partner_v2", waitSeconds: 5, requestTimeoutMs: 2000, maxRetries: 1, pollIntervalMs: 10, maxBackoffMs: 50, ...overrides };
}

describe("check --base-url", () => {
  it("without /api says the base URL is wrong, not that the deployment was not found", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    const withoutApi = e.baseUrl.replace(/\/api\/?$/, "");
    expect(withoutApi).not.toBe(e.baseUrl);
    const result = await runCheck(options(withoutApi));
    expect([result.verdict, result.httpStatus]).toEqual(["ERROR", 404]);
    expect(result.reason).toMatch(/^no V2 API at .*\/run\/deployment\/queue \(HTTP 404\): --base-url must be the API base, ending in \/api/);
    expect(result.reason).not.toContain("was not found");
  });

  it("still says an unknown deployment was not found when the base URL is right", async () => {
    const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
    closers.push(() => e.close());
    const result = await runCheck(options(e.baseUrl, { deploymentId: "11111111-2222-4333-8444-555555555555" }));
    expect([result.verdict, result.httpStatus]).toEqual(["NOT_READY", 404]);
    expect(result.reason).toContain("was not found");
  });
});
