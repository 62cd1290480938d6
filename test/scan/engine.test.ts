/**
 * The engine's hand-offs between the JS/TS analyser and the file scanners.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { scan } from "../../src/scan/engine.js";
import { tempRepo } from "../helpers/temp-repo.js";

describe("the scan engine", () => {
  it("also gives a JS/TS source to the file scanners that read it: a script generating a Dockerfile pins the node", async () => {
    const root = tempRepo({
      "tools/gen-dockerfile.ts": [
        'const DEPLOY_SHA = "7ec3e1c0c8393366f5273f39ccca5e01d271bc74";',
        "export const dockerfile = `RUN git clone https://github.com/bennykok/comfyui-deploy /n/deploy && git -C /n/deploy reset --hard ${DEPLOY_SHA}`;",
        "",
      ].join("\n"),
      "src/app.ts": 'export const routes = ["/api/health"];\n',
    });
    const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false, ripgrep: false });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.ruleId}`)).toEqual([
      "tools/gen-dockerfile.ts:1:node-component-pin",
    ]);
  });
});
