/**
 * NestJS's injected HttpService: requests on the baseURL the repository
 * registers the HttpModule with, in another module.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const SERVICE = [
  'import { Injectable } from "@nestjs/common";',
  'import { HttpService } from "@nestjs/axios";',
  'import { firstValueFrom } from "rxjs";',
  "",
  "@Injectable()",
  "export class RenderService {",
  "  constructor(private readonly http: HttpService) {}",
  "",
  "  async create(deploymentId: string, inputs: Record<string, string>) {",
  '    const { data } = await firstValueFrom(this.http.post("/run", { deployment_id: deploymentId, inputs }));',
  "    return data.run_id as string;",
  "  }",
  "",
  "  async status(runId: string) {",
  '    const { data } = await firstValueFrom(this.http.get("/run", { params: { run_id: runId } }));',
  "    return data;",
  "  }",
  "}",
  "",
].join("\n");

describe("NestJS HttpService", () => {
  it("takes the baseURL HttpModule.registerAsync's factory reads from ConfigService with a V1 default", async () => {
    const files = {
      "src/render/render.module.ts": [
        'import { Module } from "@nestjs/common";',
        'import { HttpModule } from "@nestjs/axios";',
        'import { ConfigModule, ConfigService } from "@nestjs/config";',
        'import { RenderService } from "./render.service";',
        "",
        "@Module({",
        "  imports: [",
        "    HttpModule.registerAsync({",
        "      imports: [ConfigModule],",
        "      inject: [ConfigService],",
        "      useFactory: (config: ConfigService) => ({",
        '        baseURL: config.get<string>("COMFY_API", "https://www.comfydeploy.com/api"),',
        '        headers: { Authorization: `Bearer ${config.get("COMFY_KEY")}` },',
        "      }),",
        "    }),",
        "  ],",
        "  providers: [RenderService],",
        "})",
        "export class RenderModule {}",
        "",
      ].join("\n"),
      "src/render/render.service.ts": SERVICE,
    };
    expect(await rulesIn(files, "src/render/render.service.ts")).toEqual(["10:legacy-create-run", "15:legacy-get-run"]);
  });

  it("takes HttpModule.register's baseURL constant, and reports nothing with none registered", async () => {
    const registered = {
      "src/app.module.ts": [
        'import { HttpModule } from "@nestjs/axios";',
        'const COMFY_API = process.env.COMFY_API ?? "https://api.comfydeploy.com/api";',
        "export const http = HttpModule.register({ baseURL: COMFY_API, timeout: 10_000 });",
        "",
      ].join("\n"),
      "src/render/render.service.ts": SERVICE,
    };
    expect(await rulesIn(registered, "src/render/render.service.ts")).toEqual([
      "10:legacy-create-run",
      "15:legacy-get-run",
    ]);
    // With none registered the relative path says nothing about the base: quiet, as before.
    const unregistered = { "src/render/render.service.ts": SERVICE };
    expect(await rulesIn(unregistered, "src/render/render.service.ts")).toEqual([]);
  });

  it("takes the base a useClass options factory returns, and requests through axiosRef", async () => {
    const files = {
      "src/http-config.service.ts": [
        'import { HttpModuleOptions, HttpModuleOptionsFactory } from "@nestjs/axios";',
        "export class HttpConfigService implements HttpModuleOptionsFactory {",
        "  createHttpOptions(): HttpModuleOptions {",
        '    return { baseURL: process.env.COMFY_API ?? "https://www.comfydeploy.com/api" };',
        "  }",
        "}",
        "",
      ].join("\n"),
      "src/render.module.ts": [
        'import { HttpModule } from "@nestjs/axios";',
        'import { HttpConfigService } from "./http-config.service";',
        "export const http = HttpModule.registerAsync({ useClass: HttpConfigService });",
        "",
      ].join("\n"),
      "src/render/render.service.ts": SERVICE.replace("this.http.get(", "this.http.axiosRef.get("),
    };
    expect(await rulesIn(files, "src/render/render.service.ts")).toEqual(["10:legacy-create-run", "15:legacy-get-run"]);
  });
});
