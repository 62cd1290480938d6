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
