/**
 * A base kept in a JSON file the code imports or requires is read like one
 * kept in code; the JSON file is read only because an import names it.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const client = (prelude: string, base: string) =>
  [
    prelude,
    "export async function queue(deploymentId: string, inputs: object) {",
    `  return fetch(\`\${${base}}/run\`, { method: "POST", body: JSON.stringify({ deployment_id: deploymentId, inputs }) });`,
    "}",
    `export const status = (id: string) => fetch(\`\${${base}}/run?run_id=\${id}\`);`,
    "",
  ].join("\n");

describe("JSON modules", () => {
  it("reads a default import, a require and a named import of a repository JSON file", async () => {
    const json = JSON.stringify({ comfy: { baseUrl: "https://www.comfydeploy.com/api" } }, null, 2);
    const cases: Array<[string, string, string]> = [
      ["src/comfy.ts", 'import config from "../config.json";', "config.comfy.baseUrl"],
      ["src/comfy.js", 'const config = require("../config.json");', "config.comfy.baseUrl"],
      ["src/comfy.ts", 'import { comfy } from "../config.json";', "comfy.baseUrl"],
    ];
    for (const [file, prelude, base] of cases) {
      const files = { "config.json": json, [file]: client(prelude, base) };
      expect(await rulesIn(files, file), prelude).toEqual(["3:legacy-create-run", "5:legacy-get-run"]);
    }
  });

  it("follows a tsconfig path alias to the JSON file", async () => {
    const files = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["src/*"] } } }),
      "src/settings.json": JSON.stringify({ apiBase: "https://api.comfydeploy.com/api" }),
      "src/lib/comfy.ts": client('import settings from "@/settings.json";', "settings.apiBase"),
    };
    expect(await rulesIn(files, "src/lib/comfy.ts")).toEqual(["3:legacy-create-run", "5:legacy-get-run"]);
  });

  it("keeps another service's base from a JSON file quiet", async () => {
    const files = {
      "config.json": JSON.stringify({ worker: { baseUrl: "https://api.runpod.ai/v2/abc" } }),
      "src/worker.ts": client('import config from "../config.json";', "config.worker.baseUrl"),
    };
    expect(await rulesIn(files, "src/worker.ts")).toEqual([]);
  });
});
