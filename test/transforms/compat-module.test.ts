/**
 * The V1 compat module fix writes into a package: every flavour scans clean,
 * compiles or loads, keeps V1's webhook answers byte for byte (against the
 * real V1 SDK 0.0.19), and keeps V1's contracts on the real V2 SDK against
 * the emulator.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ComfyDeploy } from "comfydeploy";
import { parseWebhookDataSafe as v1ParseWebhook } from "comfydeploy-v1";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { HOSTS } from "../../src/knowledge/migration.js";
import { scan } from "../../src/scan/engine.js";
import type { Emulator } from "../../src/serve/server.js";
import { sourceStyleOf } from "../../transforms/lib/source-style.js";
import { COMPAT_MODULE_NAME } from "../../transforms/v2-sdk/compat/template.js";
import { compatModuleSource } from "../../transforms/v2-sdk/compat/writer.js";
import { scratchDir } from "../helpers/demo-copy.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";
import { formatDiagnostics, typecheck } from "../helpers/typecheck.js";

/** The compat module's exports this test calls (it is generated, so it has no static type here). */
interface V1Run {
  id: string;
  status: string;
  outputs: Array<{ data: Record<string, unknown> }>;
}
interface CompatModule {
  parseWebhookDataSafe(request: Request, headers?: ResponseInit["headers"]): Promise<[unknown, Response | undefined]>;
  run(client: ComfyDeploy, request: Record<string, unknown>): Promise<{ run_id: string } | null>;
  getRun(client: ComfyDeploy, runId: string): Promise<V1Run | null>;
  runSync(client: ComfyDeploy, request: Record<string, unknown>): Promise<V1Run | { id: string } | null>;
  getUploadUrl(client: ComfyDeploy, type: string, size: number): Promise<unknown>;
  getWebsocketUrl(client: ComfyDeploy, request: { deployment_id: string }): Promise<unknown>;
  serverUrlFromApiBase(apiBase: string | undefined): string | undefined;
  optionsFromV1(options: { apiToken: string; apiBase?: string }): unknown;
  apiBaseOf(client: ComfyDeploy): string;
  apiTokenOf(client: ComfyDeploy): string;
}

const STRICTEST: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true,
  noEmit: true,
};

let dir: string;
const files: Record<"ts" | "esm" | "cjs", string> = { ts: "", esm: "", cjs: "" };

beforeAll(async () => {
  // Under the repository, so zod and comfydeploy resolve from its node_modules.
  dir = scratchDir("compat-module-");
  // Its own repository: test/.tmp is ignored by this one, and the scan lists files as git does.
  execFileSync("git", ["init", "-q"], { cwd: dir });
  const flavours = [
    ["ts", `${COMPAT_MODULE_NAME}.ts`, sourceStyleOf("")],
    ["esm", `${COMPAT_MODULE_NAME}.mjs`, { quote: "single", semicolons: false, indent: "    ", trailingComma: false }],
    ["cjs", `${COMPAT_MODULE_NAME}.cjs`, { quote: "double", semicolons: true, indent: "\t", trailingComma: true }],
  ] as const;
  for (const [flavour, name, style] of flavours) {
    files[flavour] = join(dir, name);
    writeFileSync(files[flavour], await compatModuleSource(flavour, files[flavour], style));
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the compat module as written", () => {
  it("scans clean in every flavour: it names no V1 use of its own", async () => {
    const result = await scan({ root: dir, hosts: DEFAULT_HOSTS });
    expect(result.findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual([]);
  });

  it("type-checks under the strictest settings, with and without the DOM library", () => {
    expect(
      formatDiagnostics(typecheck([files.ts], { ...STRICTEST, lib: ["lib.es2023.d.ts", "lib.dom.d.ts"], types: [] })),
    ).toBe("");
    expect(formatDiagnostics(typecheck([files.ts], { ...STRICTEST, lib: ["lib.es2023.d.ts"], types: ["node"] }))).toBe(
      "",
    );
  });

  it("loads as an ES module and as CommonJS", async () => {
    execFileSync(process.execPath, ["--check", files.esm]);
    execFileSync(process.execPath, ["--check", files.cjs]);
    const esm = (await import(pathToFileURL(files.esm).href)) as CompatModule;
    const cjs = (await import(pathToFileURL(files.cjs).href)) as { default: CompatModule };
    expect(Object.keys(esm).sort()).toEqual(Object.keys(cjs.default).sort());
  });
});

describe("parseWebhookDataSafe answers exactly as V1's did", () => {
  const run = {
    status: "success",
    run_id: "6f1d2c9e-0b7a-4e55-9f2c-3d8a1b4c5e60",
    outputs: [{ data: { images: [{ url: "https://cdn.example/a.png", filename: "a.png" }] } }],
  };
  const post =
    (body: string, contentType = "application/json") =>
    () =>
      new Request("https://app.example/api/webhook", {
        method: "POST",
        body,
        headers: { "content-type": contentType },
      });
  const cases: Array<[string, () => Request, ResponseInit["headers"]?]> = [
    ["a V1 body", post(JSON.stringify(run))],
    ["a V2 body (live_status, progress)", post(JSON.stringify({ ...run, live_status: "done", progress: 1 }))],
    ["a cancelled run (outside V1's enum)", post(JSON.stringify({ ...run, status: "cancelled" }))],
    ["a body without run_id", post(JSON.stringify({ status: "running", outputs: [] }))],
    ["a body that is not JSON", post("status=success", "text/plain")],
    [
      "a GET with the fields in the query",
      () => new Request(`https://app.example/api/webhook?status=success&run_id=${run.run_id}`),
    ],
    ["extra response headers", post("{}"), { "access-control-allow-origin": "*" }],
  ];

  it.each(cases)("%s", async (_label, request, headers) => {
    const compat = (await import(pathToFileURL(files.esm).href)) as CompatModule;
    const [v1Data, v1Response] = await v1ParseWebhook(request(), headers);
    const [data, response] = await compat.parseWebhookDataSafe(request(), headers);
    expect(data).toEqual(v1Data);
    expect(response?.status).toBe(v1Response?.status);
    expect(response?.statusText).toBe(v1Response?.statusText);
    expect(await response?.text()).toBe(await v1Response?.text());
    expect([...(response?.headers ?? [])]).toEqual([...(v1Response?.headers ?? [])]);
  });
});

describe("V1's contracts on the real V2 SDK", () => {
  let emulator: Emulator;
  let compat: CompatModule;
  let client: ComfyDeploy;
  const DEPLOYMENT = "0f3b6c2e-8a41-4d9b-b7e5-2c6a9d1e4f70";

  beforeAll(async () => {
    emulator = await startTestEmulator();
    compat = (await import(pathToFileURL(files.esm).href)) as CompatModule;
    client = new ComfyDeploy({ bearer: TEST_TOKEN, serverURL: emulator.baseUrl });
  });
  afterAll(async () => emulator?.close());

  it("run and getRun answer V1's shapes; runSync reads the run until it ends", async () => {
    const queued = await compat.run(client, { deployment_id: DEPLOYMENT, inputs: { prompt: "a lighthouse" } });
    expect(queued?.run_id).toMatch(/^[0-9a-f-]{36}$/);
    const record = await compat.getRun(client, queued!.run_id);
    expect(Object.keys(record!).sort()).toEqual(["id", "live_status", "outputs", "progress", "status"]);
    const done = await compat.runSync(client, { deployment_id: DEPLOYMENT });
    expect(done && "status" in done ? done.status : undefined).toBe("success");
    expect(done && "outputs" in done ? done.outputs[0]?.data : undefined).toHaveProperty("images");
  }, 30_000);

  it("fails as V1 did: logs and answers null", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const rejected = new ComfyDeploy({ bearer: "not-the-token", serverURL: emulator.baseUrl });
      expect(await compat.run(rejected, { deployment_id: DEPLOYMENT })).toBeNull();
      expect(await compat.getRun(client, "00000000-0000-4000-8000-000000000000")).toBeNull();
      expect(await compat.getUploadUrl(client, "image/png", 10)).toBeNull();
      expect(await compat.getWebsocketUrl(client, { deployment_id: DEPLOYMENT })).toBeNull();
      expect(logged).toHaveBeenCalledTimes(4);
    } finally {
      logged.mockRestore();
    }
  });

  it("maps V1 configuration to V2's, moving the retired host", () => {
    expect(compat.serverUrlFromApiBase(`https://${HOSTS.v1.host}`)).toBe(HOSTS.v2.apiBase);
    expect(compat.serverUrlFromApiBase("https://comfy.example.org/")).toBe("https://comfy.example.org/api");
    expect(compat.serverUrlFromApiBase(undefined)).toBeUndefined();
    expect(compat.optionsFromV1({ apiToken: "t", apiBase: `https://${HOSTS.v1.host}` })).toEqual({
      bearer: "t",
      serverURL: HOSTS.v2.apiBase,
    });
    expect(compat.apiBaseOf(client)).toBe(emulator.baseUrl);
    expect(compat.apiTokenOf(client)).toBe(TEST_TOKEN);
  });
});
