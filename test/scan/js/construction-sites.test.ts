/**
 * A client class whose base is a constructor parameter with no default: the
 * repository's `new C(…)` calls say what it is.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const SERVICE = [
  "class RenderService {",
  "  constructor(options) {",
  "    this.baseUrl = options.baseUrl;",
  "  }",
  "  create(inputs) {",
  '    return fetch(`${this.baseUrl}/run`, { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs }) });',
  "  }",
  "  get(id) {",
  "    return fetch(`${this.baseUrl}/run?run_id=${id}`);",
  "  }",
  "}",
  "module.exports = RenderService;",
  "",
].join("\n");

describe("constructor parameters read from the class's constructions", () => {
  it("follows a require'd class constructed in another module with a config object from a third", async () => {
    const files = {
      "src/config.js":
        'module.exports = { comfy: { baseUrl: process.env.COMFY_URL || "https://www.comfydeploy.com/api" } };\n',
      "src/services/RenderService.js": SERVICE,
      "src/services/index.js": [
        'const config = require("../config");',
        'const RenderService = require("./RenderService");',
        "module.exports = { renderService: new RenderService(config.comfy) };",
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/services/RenderService.js")).toEqual(["6:legacy-create-run", "9:legacy-get-run"]);
  });

  it("follows a parameter property set by a construction in the same module", async () => {
    const files = {
      "src/comfy.ts": [
        "export class ComfyClient {",
        "  constructor(private readonly options: { baseUrl: string }) {}",
        "  status(id: string) {",
        "    return fetch(`${this.options.baseUrl}/run?run_id=${id}`);",
        "  }",
        "}",
        'export const comfy = new ComfyClient({ baseUrl: Bun.env.COMFY_URL ?? "https://www.comfydeploy.com/api" });',
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/comfy.ts")).toEqual(["4:legacy-get-run", "7:legacy-base-url"]);
  });

  it("keeps the V1 shape on an unknown base when the construction passes another service's base", async () => {
    const files = {
      "src/services/RenderService.js": SERVICE,
      "src/index.js": [
        'const RenderService = require("./services/RenderService");',
        'module.exports = new RenderService({ baseUrl: "https://render.example.com/api" });',
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/services/RenderService.js")).toEqual([
      "6:v1-shape-unknown-base",
      "9:v1-shape-unknown-base",
    ]);
  });
});
