/**
 * `report` never says READY while V1 code is reachable, whatever review
 * markers a person deleted: markers only point at V1 use, the scan finds it
 * by itself. Each scenario app is fixed, every marker line deleted, and the
 * verdict compared with what the app does: its contract run against the V2
 * API alone (serve without --legacy) tells whether V1 requests remain. A
 * small app whose request fix could only mark shows both sides: NOT READY
 * with its marker deleted, READY once a person fixed the path.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/check/live-check.js";
import { MARKER_TAG } from "../../src/core/marker.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { cutoffStatus } from "../../src/knowledge/cutoff.js";
import { assessReadiness, type Readiness } from "../../src/readiness/readiness.js";
import { buildReport } from "../../src/report/model.js";
import { scan } from "../../src/scan/engine.js";
import { type FixedRepo, fixRepository } from "../helpers/scenario-fix.js";
import { runScenarioContract } from "../helpers/scenario-run.js";
import { listScenarios } from "../helpers/scenario-spec.js";
import { tempRepo } from "../helpers/temp-repo.js";

const NOW = new Date("2025-04-01T00:00:00Z");
/** A live check that passed: only the code decides the verdict. */
const PASSED: CheckResult = {
  verdict: "READY",
  reason: "run succeeded",
  deploymentId: "d",
  flag: "partner_v2",
  baseUrl: "http://127.0.0.1/api",
  cutoff: cutoffStatus(NOW),
};
const V1_ROUTES = new Set(["POST /api/run", "GET /api/run"]);

/** Deletes every line holding a review marker; the number deleted. */
function deleteMarkers(root: string): number {
  let deleted = 0;
  for (const file of fg.sync("**/*", { cwd: root, dot: true, ignore: ["**/node_modules/**", ".git/**"] })) {
    const text = readFileSync(join(root, file), "utf8");
    if (!text.includes(MARKER_TAG)) continue;
    const lines = text.split("\n");
    const kept = lines.filter((line) => !line.includes(MARKER_TAG));
    deleted += lines.length - kept.length;
    writeFileSync(join(root, file), kept.join("\n"));
  }
  return deleted;
}

async function readinessOf(root: string): Promise<Readiness> {
  const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
  return assessReadiness(buildReport(result, { command: "comfydeploy-migrate report", now: NOW }), PASSED);
}

describe.each(listScenarios())("scenario $name, fixed, with every marker deleted", ({ dir, spec }) => {
  let fixed: FixedRepo;
  let readiness: Readiness;
  beforeAll(async () => {
    fixed = await fixRepository(dir);
    deleteMarkers(fixed.root);
    readiness = await readinessOf(fixed.root);
  }, 120_000);
  afterAll(() => fixed?.remove());

  if (spec.language !== "python" && spec.contract.length > 0) {
    it("is not READY while the app still makes a V1 request or breaks its contract on the V2 API alone", async () => {
      const run = await runScenarioContract({ appDir: fixed.root, sdk: "v2", endpoints: "v2", spec });
      const v1Requests = run.requests.filter((r) => V1_ROUTES.has(`${r.method} ${r.path.split("?")[0]}`));
      const worksOnV2 = run.problems.length === 0 && v1Requests.length === 0;
      if (!worksOnV2)
        expect(readiness.verdict, readiness.items.map((i) => `${i.state} ${i.title}: ${i.detail}`).join("\n")).toBe(
          "NOT_READY",
        );
    }, 120_000);
  } else if (spec.language !== "python") {
    // Raw HTTP in another language: V1 text left in its code (the V1 host, a run_id query, a path ending at /run) is a V1 request.
    it("is not READY while V1 request text remains in its code", () => {
      const code = fg
        .sync("**/*", { cwd: fixed.root, ignore: ["**/*.md", "**/*.json", ".git/**"], dot: true })
        .map((f) => readFileSync(join(fixed.root, f), "utf8"));
      const v1Left = code.some((text) => /www\.comfydeploy\.com|[?&]run_id=|\/run["'`]/.test(text));
      expect(
        readiness.verdict === "NOT_READY" || !v1Left,
        readiness.items.map((i) => `${i.state} ${i.title}: ${i.detail}`).join("\n"),
      ).toBe(true);
    });
  } else {
    it("is not READY while V1 SDK calls with no V2 equivalent remain", () => {
      const code = fg
        .sync("**/*.py", { cwd: fixed.root, ignore: ["**/node_modules/**"] })
        .map((f) => readFileSync(join(fixed.root, f), "utf8"))
        .join("\n");
      const v1Only = /\.comfyui\.|\.files\.get_upload_url/.test(code);
      if (v1Only) expect(readiness.verdict).toBe("NOT_READY");
    });
  }
});

describe("a V1 request fix could only mark, with the marker deleted", () => {
  const BASE = 'const apiBase = process.env.COMFY_API_BASE ?? "https://www.comfydeploy.com/api";\n';
  const app = {
    "package.json": '{ "name": "app", "type": "module" }\n',
    "src/runs.js": [
      BASE,
      "export async function queue(prompt, trace) {",
      "  const url = `${apiBase}/run`;",
      "  trace(url);",
      '  const res = await fetch(url, { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs: { prompt } }) });',
      "  return res.json();",
      "}",
      "",
      "export async function status(id) {",
      "  const res = await fetch(`${apiBase}/run?run_id=${id}`);",
      "  return res.json();",
      "}",
      "",
    ].join("\n"),
  };
  let fixed: FixedRepo;
  beforeAll(async () => {
    fixed = await fixRepository(tempRepo(app));
  }, 120_000);
  afterAll(() => fixed?.remove());

  it("is NOT READY while the POST still goes to the V1 path, and READY once the path is V2", async () => {
    const file = join(fixed.root, "src", "runs.js");
    // fix moved the shared base to the V2 host and marked the request it could not prove.
    expect(readFileSync(file, "utf8")).toContain("https://api.comfydeploy.com/api");
    expect(deleteMarkers(fixed.root)).toBe(1);
    const left = await readinessOf(fixed.root);
    expect(left.verdict).toBe("NOT_READY");
    expect(left.items.find((i) => i.title.startsWith("Code talks to the V2 API"))?.state).toBe("todo");

    writeFileSync(file, readFileSync(file, "utf8").replace("`${apiBase}/run`", "`${apiBase}/run/deployment/queue`"));
    expect((await readinessOf(fixed.root)).verdict).toBe("READY");
  });
});
