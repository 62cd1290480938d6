/**
 * Who can reach a client module: a module the scan proved to export a V1
 * client is followed into from its importers whatever its own text shows,
 * and a prefixed client's bare `"run"` path counts as V1's request shape.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { tempRepo } from "../../helpers/temp-repo.js";

async function rulesByLine(files: Record<string, string>, file: string): Promise<string[]> {
  const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
  return result.findings
    .filter((f) => f.file === file)
    .map((f) => `${f.line}:${f.ruleId}`)
    .sort();
}

const ROUTER = [
  'import { RenderApi } from "../services/render-api.js";',
  "const api = new RenderApi(process.env.TOKEN);",
  "export const submit = (id, body) => api.submit(id, body);",
  "export const poll = (id) => api.poll(id);",
  "",
].join("\n");

describe("reaching a local client from its importers", () => {
  it("follows an import into a prefixed client whose paths are a bare quoted run", async () => {
    const files = {
      "package.json": '{ "name": "app", "private": true, "type": "module" }\n',
      "src/services/render-api.js": [
        'import got from "got";',
        "export class RenderApi {",
        '  constructor(token, prefixUrl = "https://www.comfydeploy.com/api") {',
        "    this.http = got.extend({ prefixUrl, headers: { authorization: `Bearer ${token}` } });",
        "  }",
        '  submit(id, inputs) { return this.http.post("run", { json: { deployment_id: id, inputs } }).json(); }',
        '  poll(id) { return this.http.get("run", { searchParams: { run_id: id } }).json(); }',
        "}",
        "",
      ].join("\n"),
      "src/routes/posters.js": ROUTER,
    };
    expect(await rulesByLine(files, "src/routes/posters.js")).toEqual([
      "1:v1-sdk-import",
      "2:v1-sdk-client",
      "3:vendored-v1-client",
      "4:vendored-v1-client",
    ]);
  });

  it("follows an import into a module the scan proved to export a client, though its text shows no V1 path", async () => {
    const files = {
      "package.json": '{ "name": "app", "private": true, "type": "module" }\n',
      "src/services/paths.js": 'export const BASE = "https://www.comfydeploy.com/api";\nexport const RUN = "/run";\n',
      "src/services/render-api.js": [
        'import { BASE, RUN } from "./paths.js";',
        "export class RenderApi {",
        "  constructor(token) { this.token = token; }",
        "  submit(id, inputs) {",
        '    return fetch(BASE + RUN, { method: "POST", body: JSON.stringify({ deployment_id: id, inputs }) });',
        "  }",
        "  poll(id) { return fetch(`${BASE}${RUN}?run_id=${id}`); }",
        "}",
        "",
      ].join("\n"),
      "src/routes/posters.js": ROUTER,
    };
    expect(await rulesByLine(files, "src/routes/posters.js")).toEqual([
      "1:v1-sdk-import",
      "2:v1-sdk-client",
      "3:vendored-v1-client",
      "4:vendored-v1-client",
    ]);
  });
});
