/**
 * Run-time control for the scenario apps (fixtures/scenarios/): the contract
 * each original app's callers rely on (scenario.json) holds when its server
 * module runs against the emulator, with the app's environment pointed at it:
 * - an app on the V1 endpoints (V1 SDK 0.0.19, or raw HTTP) against
 *   `serve --legacy`, and its traffic is V1's (POST /api/run,
 *   GET /api/run?run_id=);
 * - an app already on the V2 endpoints against `serve` without --legacy.
 * The check itself can fail: the V1 apps break their contract against
 * `serve` without --legacy, and an app on the V1 SDK does not even load with
 * the V2 SDK. The same harness is meant to run the migrated apps with the
 * V2 SDK against `serve`.
 */
import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { SCRATCH } from "../helpers/demo-copy.js";
import { runScenarioContract } from "../helpers/scenario-run.js";
import { listScenarios } from "../helpers/scenario-spec.js";

const runnable = listScenarios().filter((s) => s.spec.contract.length > 0 && s.spec.language !== "python");

function leftovers(): string[] {
  try {
    return readdirSync(SCRATCH).filter((name) => name.startsWith("scenario-run-"));
  } catch {
    return [];
  }
}

/** "POST /api/run", "GET /api/run" (query dropped), ... */
function routes(requests: ReadonlyArray<{ method: string; path: string }>): string[] {
  return requests.map((r) => `${r.method} ${r.path.split("?")[0]}`);
}

const V1_ROUTES = ["POST /api/run", "GET /api/run"];
const V2_QUEUE = "POST /api/run/deployment/queue";

describe("every TypeScript scenario with a contract has a run-time control", () => {
  it("runs the TypeScript and JavaScript scenarios that describe a contract", () => {
    expect(runnable.map((s) => s.name)).toEqual([
      "discord-bot-cjs",
      "next-unused-dep",
      "next-v1-sdk",
      "node-esm-v1-sdk",
      "vendored-client",
    ]);
  });
});

describe.each(runnable)("$name", ({ dir, spec }) => {
  const legacy = spec.original.endpoints === "legacy";

  it(`the original keeps its contract with the V1 SDK against serve${legacy ? " --legacy" : ""}`, async () => {
    const report = await runScenarioContract({ appDir: dir, sdk: "v1", endpoints: spec.original.endpoints });
    expect(report.problems).toEqual([]);
    expect(report.steps.map((step) => step.call)).toEqual(spec.contract.map((step) => step.call));
    const seen = routes(report.requests);
    if (legacy) {
      expect(seen).toEqual(expect.arrayContaining(V1_ROUTES));
      expect(seen).not.toContain(V2_QUEUE);
    } else {
      expect(seen).toContain(V2_QUEUE);
      expect(seen.filter((route) => V1_ROUTES.includes(route))).toEqual([]);
    }
  });

  if (legacy) {
    it("against serve without --legacy the original breaks its contract at the first call", async () => {
      const report = await runScenarioContract({ appDir: dir, sdk: "v1", endpoints: "v2" });
      expect(report.problems[0]).toContain(`${spec.contract[0]!.call}():`);
      expect(routes(report.requests)).toEqual(["POST /api/run"]);
    });
  }

  if (spec.original.sdk === "v1") {
    it("with the V2 SDK the original does not load: the V1 client class is missing", async () => {
      const report = await runScenarioContract({ appDir: dir, sdk: "v2", endpoints: "v2" });
      expect(report.steps[0]!.error).toMatch(/SyntaxError: .*'ComfyDeployClient'/);
      expect(report.requests).toEqual([]);
    });
  }
});

describe("the harness cleans up", () => {
  afterAll(() => {
    expect(leftovers()).toEqual([]);
  });

  it("removes its copy when the app cannot be prepared", async () => {
    const app = runnable.find((s) => s.name === "next-v1-sdk")!;
    const broken = { ...app.spec, serverModules: ["app/missing.ts"], contract: [] };
    await expect(
      runScenarioContract({ appDir: app.dir, sdk: "v1", endpoints: "legacy", spec: broken }),
    ).rejects.toThrow();
    expect(leftovers()).toEqual([]);
  });
});
