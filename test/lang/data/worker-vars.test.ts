/**
 * A Cloudflare Worker's configured vars, as the base its `env.NAME` reads:
 * wrangler.toml and wrangler.json(c), environments, the nearest file.
 */
import { describe, expect, it } from "vitest";
import { parseWorkerVars, workerVarsFor } from "../../../src/lang/data/worker-vars.js";

const TOML = [
  'name = "render-proxy"',
  'main = "src/worker.ts"',
  "",
  "[vars]",
  'COMFY_BASE = "https://www.comfydeploy.com/api"',
  'ALLOWED_ORIGIN = "https://shop.example.com"',
  "",
  "[env.staging.vars]",
  'COMFY_BASE = "https://api.comfydeploy.com/api"',
  'STAGING_ONLY = "1"',
  "",
].join("\n");

describe("worker vars", () => {
  it("reads [vars] first, then each environment's vars for names not set yet, with their lines", () => {
    const vars = parseWorkerVars("wrangler.toml", TOML);
    expect(Object.fromEntries([...vars].map(([k, v]) => [k, `${v.line}:${v.value}`]))).toEqual({
      COMFY_BASE: "5:https://www.comfydeploy.com/api",
      ALLOWED_ORIGIN: "6:https://shop.example.com",
      STAGING_ONLY: "10:1",
    });
  });

  it("reads wrangler.jsonc with comments, and nothing from a file that does not parse", () => {
    const jsonc = '{\n  // the API base\n  "vars": { "COMFY_BASE": "https://www.comfydeploy.com/api" },\n}\n';
    expect(parseWorkerVars("wrangler.jsonc", jsonc).get("COMFY_BASE")?.line).toBe(3);
    expect(parseWorkerVars("wrangler.toml", "[vars\nA = ").size).toBe(0);
  });

  it("takes the wrangler file nearest the source", () => {
    const files = new Set(["wrangler.toml", "workers/proxy/wrangler.json", "workers/proxy/src/index.ts", "src/a.ts"]);
    const read = (file: string): string | undefined =>
      file === "wrangler.toml" ? TOML : '{ "vars": { "COMFY_BASE": "https://comfy.internal/api" } }';
    expect(workerVarsFor("workers/proxy/src/index.ts", files, read).get("COMFY_BASE")?.file).toBe(
      "workers/proxy/wrangler.json",
    );
    expect(workerVarsFor("src/a.ts", files, read).get("COMFY_BASE")?.value).toBe("https://www.comfydeploy.com/api");
    expect(workerVarsFor("src/a.ts", new Set(["src/a.ts"]), read).size).toBe(0);
  });
});
