/**
 * V1 shapes on bases the scanner cannot resolve, in JS/TS and Python: once
 * the repository sets a ComfyDeploy API base, they are V1 uses reported with
 * where that base is set, unless their own file says the base is another one.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { factsOf } from "../../src/core/facts.js";
import { scan } from "../../src/scan/engine.js";
import { rulesIn } from "../helpers/scan-rules.js";
import { tempRepo } from "../helpers/temp-repo.js";

const CONFIG_TS = [
  "export const config = {",
  '  comfyApi: process.env.COMFY_API_URL ?? "https://www.comfydeploy.com/api",',
  "};",
  "",
].join("\n");

/** A service whose base is a member with an env fallback the analyser cannot resolve. */
const SERVICE_TS = [
  "export class RenderService {",
  "  private readonly base = this.options.baseUrl ?? process.env.RENDER_API;",
  "  constructor(private readonly options: { baseUrl?: string }) {}",
  "  async queue(prompt: string) {",
  "    const res = await fetch(`${this.base}/run`, {",
  '      method: "POST",',
  '      body: JSON.stringify({ deployment_id: "d-1", inputs: { prompt } }),',
  "    });",
  "    return res.json();",
  "  }",
  "  status(id: string) {",
  "    return fetch(`${this.base}/run?run_id=${id}`);",
  "  }",
  "}",
  "",
].join("\n");

const SETTINGS_PY = [
  "import os",
  "",
  'COMFY_API = os.environ.get("COMFY_API", "https://www.comfydeploy.com/api")',
  "",
].join("\n");

/** httpx on a client whose base_url is a setting this module reads from a framework object. */
const CLIENT_PY = [
  "import httpx",
  "from django.conf import settings",
  "",
  'BASE = getattr(settings, "RENDER_API", None)',
  "",
  "",
  "def queue(prompt):",
  '    r = httpx.post(f"{BASE}/run", json={"deployment_id": "d-1", "inputs": {"prompt": prompt}})',
  '    return r.json()["run_id"]',
  "",
  "",
  "def status(run_id):",
  '    return httpx.get(f"{BASE}/run", params={"run_id": run_id}).json()',
  "",
].join("\n");

describe("V1 shapes on unresolved bases in a repository that sets the V1 base", () => {
  it("reports JS/TS requests on a member/fallback base as V1 uses, with the evidence, for review", async () => {
    const root = tempRepo({ "src/config.ts": CONFIG_TS, "src/render.service.ts": SERVICE_TS });
    const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    const found = result.findings.filter((f) => f.file === "src/render.service.ts");
    expect(found.map((f) => `${f.line}:${f.ruleId}`).sort()).toEqual(["12:legacy-get-run", "5:legacy-create-run"]);
    for (const finding of found) {
      expect(finding.message).toContain("src/config.ts:2");
      expect(finding.fix).toBe("review");
      expect(factsOf(finding, "endpoint")?.heldBase).toEqual({ file: "src/config.ts", line: 2 });
    }
  });

  it("reports Python requests on a base read from a settings object as V1 uses, with the evidence", async () => {
    const root = tempRepo({ "app/settings.py": SETTINGS_PY, "app/comfy.py": CLIENT_PY });
    const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    const found = result.findings.filter((f) => f.file === "app/comfy.py");
    expect(found.map((f) => `${f.line}:${f.ruleId}`).sort()).toEqual(["13:legacy-get-run", "8:legacy-create-run"]);
    for (const finding of found) {
      expect(finding.message).toContain("app/settings.py:3");
      expect(finding.fix).toBe("review");
    }
  });

  it("counts the V2 API host set in an env example as the base the V1 paths are sent on", async () => {
    const files = {
      ".env.example": "RENDER_API=https://api.comfydeploy.com/api\n",
      "src/render.service.ts": SERVICE_TS,
    };
    expect(await rulesIn(files, "src/render.service.ts")).toEqual(["12:legacy-get-run", "5:legacy-create-run"]);
  });

  it("keeps the V1 shape on an unknown base in a repository that sets no ComfyDeploy base", async () => {
    expect(await rulesIn({ "src/render.service.ts": SERVICE_TS }, "src/render.service.ts")).toEqual([
      "12:v1-shape-unknown-base",
      "5:v1-shape-unknown-base",
    ]);
    expect(await rulesIn({ "app/comfy.py": CLIENT_PY }, "app/comfy.py")).toEqual([
      "13:v1-shape-unknown-base",
      "8:v1-shape-unknown-base",
    ]);
  });
});

describe("what the request's own file says keeps the V1 shape on an unknown base", () => {
  const withBase = (files: Record<string, string>) => ({ "src/config.ts": CONFIG_TS, ...files });

  it("a base the caller passes in, in JS/TS and Python", async () => {
    const js = "export const status = (base: string, id: string) => fetch(`${base}/run?run_id=${id}`);\n";
    const py = 'import httpx\n\n\ndef status(base, run_id):\n    return httpx.get(f"{base}/run?run_id={run_id}")\n';
    expect(await rulesIn(withBase({ "src/status.ts": js }), "src/status.ts")).toEqual(["1:v1-shape-unknown-base"]);
    expect(await rulesIn(withBase({ "app/status.py": py }), "app/status.py")).toEqual(["5:v1-shape-unknown-base"]);
  });

  it("a base the caller passes in, even in a file whose path names another service (it is not that service's base)", async () => {
    const js = "export const status = (base: string, id: string) => fetch(`${base}/run?run_id=${id}`);\n";
    expect(await rulesIn(withBase({ "vendor/openai/status.js": js }), "vendor/openai/status.js")).toEqual([
      "1:v1-shape-unknown-base",
    ]);
  });

  it("a base exported by a package outside the repository", async () => {
    const js = [
      'import { COMFY_BASE } from "@acme/shared-config";',
      "export const statusLink = (id: string) => fetch(`${COMFY_BASE}/run?run_id=${id}`);",
      "",
    ].join("\n");
    expect(await rulesIn(withBase({ "src/link.ts": js }), "src/link.ts")).toEqual(["2:v1-shape-unknown-base"]);
  });

  it("another service's host in the same class", async () => {
    const otherHost = SERVICE_TS.replace(
      "  constructor(",
      '  private readonly fallback = "https://gpu.render-farm.net/v1";\n  constructor(',
    );
    expect(await rulesIn(withBase({ "src/farm.ts": otherHost }), "src/farm.ts")).toEqual([
      "13:v1-shape-unknown-base",
      "6:v1-shape-unknown-base",
    ]);
  });

  it("says nothing of a file named after another inference service, which is that service's client", async () => {
    expect(await rulesIn(withBase({ "src/lib/replicate.ts": SERVICE_TS }), "src/lib/replicate.ts")).toEqual([]);
    const runpod = CLIENT_PY.replaceAll("BASE", "RUNPOD_ENDPOINT");
    expect(await rulesIn(withBase({ "app/jobs.py": runpod }), "app/jobs.py")).toEqual([]);
    // Without a ComfyDeploy base in the repository, nothing changes: the shape is still reported.
    expect(await rulesIn({ "src/lib/replicate.ts": SERVICE_TS }, "src/lib/replicate.ts")).toEqual([
      "12:v1-shape-unknown-base",
      "5:v1-shape-unknown-base",
    ]);
  });

  it("a local ComfyUI address or the app's own origin in the module", async () => {
    const local = CLIENT_PY.replace("\n\n\ndef queue", '\nPREVIEW = "http://127.0.0.1:8188/prompt"\n\n\ndef queue');
    expect(await rulesIn(withBase({ "app/comfy.py": local }), "app/comfy.py")).toEqual([
      "14:v1-shape-unknown-base",
      "9:v1-shape-unknown-base",
    ]);
    const own = [
      "const origin = window.location.origin;",
      "export const status = (id: string) => fetch(`${origin}/run?run_id=${id}`);",
      "",
    ].join("\n");
    expect(await rulesIn(withBase({ "src/own.ts": own }), "src/own.ts")).toEqual(["2:v1-shape-unknown-base"]);
  });
});
