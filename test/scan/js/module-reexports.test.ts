/**
 * A client reached through modules passed on: CommonJS barrels
 * (`module.exports = { ...require("./client") }`, `exports.x = require(…)`),
 * `export * as x from`, namespace imports of a local client's module, and
 * factories wrapped in a memoiser. Calls on the reached value are reported as
 * for a direct import; a V2 client passed on the same ways stays quiet.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { tempRepo } from "../../helpers/temp-repo.js";

const V1 =
  'const { ComfyDeployClient } = require("comfydeploy");\nexports.client = new ComfyDeployClient({ apiToken: "t" });\n';
const V2 = 'const { ComfyDeploy } = require("comfydeploy");\nexports.client = new ComfyDeploy({ bearer: "t" });\n';

function barrels(client: string): Record<string, string> {
  return {
    "package.json": '{ "name": "app", "private": true }\n',
    "spread/client.js": client,
    "spread/index.js": 'module.exports = { ...require("./client") };\n',
    "named/client.js": client,
    "named/index.js": 'exports.comfy = require("./client");\n',
    "whole/client.js": client,
    "whole/index.js": 'module.exports = require("./client");\n',
    "member/client.js": client,
    "member/index.js": 'module.exports = { client: require("./client").client };\n',
    "routes/spread.js":
      'const { client } = require("../spread");\nmodule.exports = (id) => client.run({ deployment_id: id });\n',
    "routes/named.js":
      'const lib = require("../named");\nmodule.exports = (id) => lib.comfy.client.run({ deployment_id: id });\n',
    "routes/destructured.js":
      'const lib = require("../named");\nconst { comfy } = lib;\nmodule.exports = (id) => comfy.client.run({ deployment_id: id });\n',
    "routes/whole.js":
      'const { client } = require("../whole");\nmodule.exports = (id) => client.run({ deployment_id: id });\n',
    "routes/member.js": 'const { client } = require("../member");\nmodule.exports = (id) => client.getRun(id);\n',
  };
}

async function callsIn(files: Record<string, string>, under: string): Promise<string[]> {
  const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
  return result.findings
    .filter((f) => f.file.startsWith(under))
    .map((f) => `${f.file}:${f.line}:${f.ruleId}`)
    .sort();
}

describe("clients passed on through modules", () => {
  it("reaches a V1 client through CommonJS barrels of every spelling", async () => {
    expect(await callsIn(barrels(V1), "routes/")).toEqual([
      "routes/destructured.js:3:v1-sdk-call",
      "routes/member.js:2:v1-sdk-call",
      "routes/named.js:2:v1-sdk-call",
      "routes/spread.js:2:v1-sdk-call",
      "routes/whole.js:2:v1-sdk-call",
    ]);
  });

  it("leaves a V2 client passed on the same ways alone", async () => {
    expect(await callsIn(barrels(V2), "routes/")).toEqual([]);
  });

  it("reaches a client through export * as, a namespace import, and a memoised factory", async () => {
    const files = {
      "package.json": '{ "name": "app", "private": true }\n',
      "lib/comfy.ts": [
        'import { ComfyDeployClient } from "comfydeploy";',
        "const memoize = <T>(make: () => T) => make;",
        'export const getClient = memoize(() => new ComfyDeployClient({ apiToken: "t" }));',
        "",
      ].join("\n"),
      "lib/index.ts": 'export * as comfy from "./comfy";\n',
      "app/a.ts": 'import { comfy } from "../lib";\nexport const a = (id: string) => comfy.getClient().getRun(id);\n',
      "app/b.ts":
        'import * as lib from "../lib";\nexport const b = (id: string) => lib.comfy.getClient().getRun(id);\n',
    };
    expect(await callsIn(files, "app/")).toEqual(["app/a.ts:2:v1-sdk-call", "app/b.ts:2:v1-sdk-call"]);
  });

  it("reports a local client class constructed through a namespace import as its import and construction", async () => {
    const files = {
      "package.json": '{ "name": "app", "private": true, "type": "module" }\n',
      "src/render-api.js": [
        "export class RenderApi {",
        '  constructor(base = "https://www.comfydeploy.com/api") { this.base = base; }',
        "  submit(id) {",
        '    return fetch(`${this.base}/run`, { method: "POST", body: JSON.stringify({ deployment_id: id }) });',
        "  }",
        "}",
        "",
      ].join("\n"),
      "src/routes.js": [
        'import * as render from "./render-api.js";',
        "const api = new render.RenderApi();",
        "export const submit = (id) => api.submit(id);",
        "",
      ].join("\n"),
    };
    expect(await callsIn(files, "src/routes.js")).toEqual([
      "src/routes.js:2:v1-sdk-client",
      "src/routes.js:2:v1-sdk-import",
      "src/routes.js:3:vendored-v1-client",
    ]);
  });
});
