/**
 * Requests built on an env read the repository's own env files set to a
 * ComfyDeploy base (wrangler vars, `.env`-style files) are built on that base.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const WORKER = [
  "export async function queue(env: Env, inputs: object) {",
  '  return fetch(env.COMFY_BASE + "/run", { method: "POST", body: JSON.stringify({ deployment_id: env.DEPLOYMENT, inputs }) });',
  "}",
  "export const status = (env: Env, id: string) => fetch(`${env.COMFY_BASE}/run?run_id=${id}`);",
  "",
].join("\n");

describe("bases set in the repository's env files", () => {
  it("takes a Worker's env var from wrangler.toml vars", async () => {
    const files = {
      "wrangler.toml": '[vars]\nCOMFY_BASE = "https://www.comfydeploy.com/api"\n',
      "src/comfy.ts": WORKER,
    };
    expect(await rulesIn(files, "src/comfy.ts")).toEqual(["2:legacy-create-run", "4:legacy-get-run"]);
  });

  it("takes process.env, import.meta.env and Deno.env reads from an .env example, on the V2 host too", async () => {
    const files = {
      ".env.example": "COMFY_API=https://api.comfydeploy.com/api\nOTHER=1\n",
      "src/api.ts": [
        "export const queue = (inputs: object) =>",
        '  fetch(`${process.env.COMFY_API}/run`, { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs }) });',
        "export const status = (id: string) => fetch(`${import.meta.env.COMFY_API}/run?run_id=${id}`);",
        'export const poll = (id: string) => fetch(`${Deno.env.get("COMFY_API")}/run?run_id=${id}`);',
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/api.ts")).toEqual(["2:legacy-create-run", "3:legacy-get-run", "4:legacy-get-run"]);
  });

  it("keeps a V1 shape on an unknown base when the env files set the variable to another address", async () => {
    const files = {
      "wrangler.toml": '[vars]\nCOMFY_BASE = "http://127.0.0.1:8787"\n',
      ".env": "COMFY_BASE=https://api.runpod.ai/v2/abc\n",
      "src/comfy.ts": WORKER,
    };
    expect(await rulesIn(files, "src/comfy.ts")).toEqual(["2:v1-shape-unknown-base", "4:v1-shape-unknown-base"]);
  });

  it("takes a Docker Compose service's environment, as a map or as a NAME=value list", async () => {
    for (const environment of [
      "    environment:\n      COMFY_BASE: https://www.comfydeploy.com/api\n      PORT: '3000'\n",
      "    environment:\n      - PORT=3000\n      - COMFY_BASE=https://www.comfydeploy.com/api\n",
    ]) {
      const files = {
        "docker-compose.yml": `services:\n  api:\n    build: .\n${environment}`,
        "src/comfy.ts": WORKER.replaceAll("env.COMFY_BASE", "process.env.COMFY_BASE"),
      };
      expect(await rulesIn(files, "src/comfy.ts"), environment).toEqual(["2:legacy-create-run", "4:legacy-get-run"]);
    }
    const runpod = {
      "compose.yaml": "services:\n  api:\n    environment:\n      COMFY_BASE: https://api.runpod.ai/v2/abc\n",
      "src/comfy.ts": WORKER.replaceAll("env.COMFY_BASE", "process.env.COMFY_BASE"),
    };
    expect(await rulesIn(runpod, "src/comfy.ts")).toEqual(["2:v1-shape-unknown-base", "4:v1-shape-unknown-base"]);
  });
});
