/**
 * `report --format json` and `check --format json` follow their published,
 * versioned JSON Schemas (schema/readiness-report.schema.json and
 * schema/check-result.schema.json), checked on real runs against the emulator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCliAsync, type ServeProcess, startServe } from "../helpers/cli.js";

const READY = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const FAILING = "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const TOKEN = "cd_live_schema_token_5e4d";

const schema = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(REPO_ROOT, "schema", name), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(schema("check-result.schema.json"));
const validateCheck = ajv.getSchema(
  "https://github.com/comfydeploy-migrate/comfydeploy-migrate/raw/main/schema/check-result.schema.json",
)!;
const validateReport = ajv.compile(schema("readiness-report.schema.json"));

let server: ServeProcess;
let baseUrl = "";
let dir = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cdm-schemas-"));
  writeFileSync(join(dir, "a.ts"), 'export const BASE = "https://www.comfydeploy.com/api";\n');
  server = await startServe(["--token", TOKEN, "--step-ms", "20", "-d", READY, "-d", `${FAILING}:failed`]);
  baseUrl = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function expectValid(validate: typeof validateReport, value: unknown): void {
  const ok = validate(value);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

describe("published schemas of report and check JSON", () => {
  it.each([
    [READY, "READY", 0],
    [FAILING, "NOT_READY", 1],
  ])("check --format json for %s (%s) follows schema/check-result.schema.json", async (deployment, verdict, status) => {
    const run = await runCliAsync(["check", "--deployment-id", deployment, "--base-url", baseUrl, "--format", "json"], {
      env: { COMFYDEPLOY_API_KEY: TOKEN },
    });
    expect(run.status, run.stderr).toBe(status);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ schemaVersion: 1, verdict });
    expectValid(validateCheck, result);
  });

  it("check --format json for an unreachable API (ERROR) follows it too", async () => {
    const run = await runCliAsync(
      ["check", "--deployment-id", READY, "--base-url", "http://127.0.0.1:9/api", "--wait", "2", "--format", "json"],
      {
        env: { COMFYDEPLOY_API_KEY: TOKEN },
      },
    );
    expect(run.status).toBe(3);
    expectValid(validateCheck, JSON.parse(run.stdout));
  });

  it("report --format json, without and with the live check, follows schema/readiness-report.schema.json", async () => {
    const plain = await runCliAsync(["report", dir, "--format", "json"]);
    expect(plain.status).toBe(1);
    const withoutCheck = JSON.parse(plain.stdout);
    expect(withoutCheck).toMatchObject({ schemaVersion: 1, verdict: "NOT_READY", findings: 1 });
    expectValid(validateReport, withoutCheck);

    const live = await runCliAsync(
      ["report", dir, "--format", "json", "--deployment-id", READY, "--base-url", baseUrl],
      { env: { COMFYDEPLOY_API_KEY: TOKEN } },
    );
    const withCheck = JSON.parse(live.stdout);
    expect(withCheck.check).toMatchObject({ schemaVersion: 1, verdict: "READY" });
    expectValid(validateReport, withCheck);
  });

  it("the schemas reject what they must: a missing field, an unknown verdict", () => {
    expect(
      validateReport({
        schemaVersion: 1,
        verdict: "MAYBE",
        items: [],
        cutoff: { date: "2025-04-15", daysLeft: 1, summary: "s" },
        findings: 0,
        command: "x",
      }),
    ).toBe(false);
    expect(
      validateCheck({
        schemaVersion: 1,
        verdict: "READY",
        reason: "r",
        flag: "f",
        baseUrl: "b",
        cutoff: { date: "2025-04-15", daysLeft: 1, summary: "s" },
      }),
    ).toBe(false);
    expect(
      validateCheck({
        schemaVersion: 2,
        verdict: "READY",
        reason: "r",
        deploymentId: "d",
        flag: "f",
        baseUrl: "b",
        cutoff: { date: "2025-04-15", daysLeft: 1, summary: "s" },
      }),
    ).toBe(false);
  });
});
