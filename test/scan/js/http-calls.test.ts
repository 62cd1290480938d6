/**
 * Requests made through HTTP client instances whose base is set where the
 * instance is created: here ofetch's `ofetch.create({ baseURL })`.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { tempRepo } from "../../helpers/temp-repo.js";

const client = (base: string): string =>
  ['import { ofetch } from "ofetch";', `export const api = ofetch.create({ baseURL: ${base} });`].join("\n");
const RUNS = [
  'import { api } from "./client";',
  "export const createRun = (deploymentId: string, inputs: object) =>",
  '  api("/run", { method: "POST", body: { deployment_id: deploymentId, inputs } });',
  'export const getRun = (id: string) => api("/run", { query: { run_id: id } });',
].join("\n");

async function keysOf(base: string): Promise<string[]> {
  const root = tempRepo({
    ".env.production": "VITE_COMFY_API=https://www.comfydeploy.com/api\n",
    "src/api/client.ts": client(base),
    "src/api/runs.ts": RUNS,
  });
  const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
  return result.findings.filter((f) => f.file === "src/api/runs.ts").map((f) => `${f.line}:${f.ruleId}`);
}

describe("requests through an ofetch instance", () => {
  it("take the instance's baseURL: the V1 base the repository's env file sets", async () => {
    expect(await keysOf("import.meta.env.VITE_COMFY_API")).toEqual(["3:legacy-create-run", "4:legacy-get-run"]);
  });

  it("stay quiet on another service's base", async () => {
    expect(await keysOf('"https://api.runpod.ai/v2/abc"')).toEqual([]);
  });
});

describe("requests through an instance a CommonJS module exports whole", () => {
  const files = (base: string): Record<string, string> => ({
    "package.json": '{ "name": "worker", "private": true }\n',
    "src/lib/http.js": [
      'const axios = require("axios");',
      `module.exports = axios.create({ baseURL: ${base} });`,
      "",
    ].join("\n"),
    "src/jobs/render.js": [
      'const http = require("../lib/http");',
      'exports.start = (id, inputs) => http.post("/run", { deployment_id: id, inputs });',
      'exports.status = (id) => http.get("/run", { params: { run_id: id } });',
      "",
    ].join("\n"),
  });
  const keys = async (base: string): Promise<string[]> => {
    const result = await scan({ root: tempRepo(files(base)), hosts: DEFAULT_HOSTS, workers: false });
    return result.findings.filter((f) => f.file === "src/jobs/render.js").map((f) => `${f.line}:${f.ruleId}`);
  };

  it("take the base of the instance require() returns", async () => {
    expect(await keys('"https://www.comfydeploy.com/api"')).toEqual(["2:legacy-create-run", "3:legacy-get-run"]);
  });

  it("stay quiet on another service's base", async () => {
    expect(await keys('"https://api.runpod.ai/v2/abc"')).toEqual([]);
  });
});
