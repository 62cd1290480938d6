/**
 * Config reads by key: node-config's config/default.json, NestJS's
 * ConfigService over `registerAs` namespaces and `load` factories, the
 * repository's env files, then the reader's default.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const V1 = "https://www.comfydeploy.com/api";

const NEST_SERVICE = [
  'import { Injectable } from "@nestjs/common";',
  'import { ConfigService } from "@nestjs/config";',
  "@Injectable()",
  "export class RenderService {",
  "  constructor(private readonly config: ConfigService) {}",
  "  queue(inputs: object) {",
  '    return fetch(`${this.config.get("comfy.baseUrl")}/run`, { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs }) });',
  "  }",
  "  status(id: string) {",
  '    return fetch(`${this.config.getOrThrow<string>("comfy.baseUrl")}/run?run_id=${id}`);',
  "  }",
  "}",
  "",
].join("\n");

describe("config reads by key", () => {
  it("reads node-config's config/default.json for config.get and for a property path", async () => {
    const files = {
      "config/default.json": JSON.stringify({ comfy: { baseUrl: V1 } }, null, 2),
      "src/render.js": [
        'const config = require("config");',
        "exports.queue = (inputs) =>",
        '  fetch(config.get("comfy.baseUrl") + "/run", { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs }) });',
        "exports.status = (id) => fetch(`${config.comfy.baseUrl}/run?run_id=${id}`);",
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/render.js")).toEqual(["3:legacy-create-run", "4:legacy-get-run"]);
  });

  it("reads a registerAs namespace and a load factory that ConfigModule.forRoot loads", async () => {
    const namespace = {
      "src/config/comfy.config.ts": `import { registerAs } from "@nestjs/config";\nexport default registerAs("comfy", () => ({ baseUrl: process.env.COMFY_API ?? "${V1}" }));\n`,
      "src/render.service.ts": NEST_SERVICE,
    };
    expect(await rulesIn(namespace, "src/render.service.ts")).toEqual(["10:legacy-get-run", "7:legacy-create-run"]);
    const factory = {
      "src/config/configuration.ts": `export default () => ({ port: 3000, comfy: { baseUrl: process.env.COMFY_API || "${V1}" } });\n`,
      "src/app.module.ts":
        'import { ConfigModule } from "@nestjs/config";\nimport configuration from "./config/configuration";\nexport const config = ConfigModule.forRoot({ load: [configuration] });\n',
      "src/render.service.ts": NEST_SERVICE,
    };
    expect(await rulesIn(factory, "src/render.service.ts")).toEqual(["10:legacy-get-run", "7:legacy-create-run"]);
  });

  it("takes a registerAs namespace injected with @Inject(config.KEY)", async () => {
    const files = {
      "src/comfy.config.ts": `import { registerAs } from "@nestjs/config";\nexport const comfyConfig = registerAs("comfy", () => ({ apiUrl: "${V1}" }));\n`,
      "src/gallery.service.ts": [
        'import { Inject } from "@nestjs/common";',
        'import type { ConfigType } from "@nestjs/config";',
        'import { comfyConfig } from "./comfy.config";',
        "export class GalleryService {",
        "  constructor(@Inject(comfyConfig.KEY) private readonly comfy: ConfigType<typeof comfyConfig>) {}",
        "  status(id: string) {",
        "    return fetch(`${this.comfy.apiUrl}/run?run_id=${id}`);",
        "  }",
        "}",
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/gallery.service.ts")).toEqual(["7:legacy-get-run"]);
  });

  it("takes a plain name from the env files, and keeps another namespace's base quiet", async () => {
    const env = {
      ".env.example": `COMFY_API=${V1}\n`,
      "src/render.service.ts": NEST_SERVICE.replaceAll('"comfy.baseUrl"', '"COMFY_API"'),
    };
    expect(await rulesIn(env, "src/render.service.ts")).toEqual(["10:legacy-get-run", "7:legacy-create-run"]);
    const runpod = {
      "src/config/comfy.config.ts": `import { registerAs } from "@nestjs/config";\nexport default registerAs("comfy", () => ({ baseUrl: "https://api.runpod.ai/v2/abc" }));\n`,
      "src/render.service.ts": NEST_SERVICE,
    };
    expect(await rulesIn(runpod, "src/render.service.ts")).toEqual([]);
  });
});
