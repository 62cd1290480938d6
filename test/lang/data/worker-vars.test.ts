/**
 * A Cloudflare Worker's configured vars, as the base its `env.NAME` reads:
 * wrangler.toml and wrangler.json(c) and their environments.
 */
import { describe, expect, it } from "vitest";
import { parseWorkerVars } from "../../../src/lang/data/worker-vars.js";

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
});
