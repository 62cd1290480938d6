/**
 * Local V1 clients recognised by what they send: classes, object literals
 * returned by factories and exported functions, whatever they are called,
 * and the app's imports, factory calls and calls of them.
 */
import { describe, expect, it } from "vitest";
import { scan } from "../../../src/scan/engine.js";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { tempRepo } from "../../helpers/temp-repo.js";

async function keysOf(files: Record<string, string>): Promise<string[]> {
  const root = tempRepo(files);
  const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
  return [...new Set(result.findings.map((f) => `${f.file}:${f.line}:${f.ruleId}`))].sort();
}

describe("local V1 clients by what they send", () => {
  it("a factory returning methods over a request helper, and the app that creates and calls it", async () => {
    const keys = await keysOf({
      "lib/render.js": [
        'export function makeRenderer(base = process.env.R || "https://www.comfydeploy.com/api") {',
        "  const send = (path, init) => fetch(base + path, init).then((r) => r.json());",
        "  return {",
        '    start: (d) => send("/run", { method: "POST", body: JSON.stringify({ deployment_id: d }) }),',
        "    check: (id) => send(`/run?run_id=${id}`),",
        "  };",
        "}",
      ].join("\n"),
      "app.js": [
        'import { makeRenderer } from "./lib/render.js";',
        "const r = makeRenderer();",
        "export const go = async () => r.check(await r.start('d'));",
      ].join("\n"),
    });
    expect(keys).toEqual([
      "app.js:1:v1-sdk-import",
      "app.js:2:v1-sdk-client",
      "app.js:3:vendored-v1-client",
      "lib/render.js:1:legacy-base-url",
      "lib/render.js:1:vendored-v1-client",
      "lib/render.js:4:legacy-create-run",
      "lib/render.js:5:legacy-get-run",
    ]);
  });

  it("a class whose methods have other names than V1's, and a module exporting V1-named functions that send V1", async () => {
    const keys = await keysOf({
      "src/jobs.ts": [
        "export class Jobs {",
        '  base = "https://www.comfydeploy.com/api";',
        "  enqueue(id: string) {",
        '    return fetch(`${this.base}/run`, { method: "POST", body: JSON.stringify({ deployment_id: id }) });',
        "  }",
        "}",
        "export async function getRun(id: string) {",
        '  return fetch("https://www.comfydeploy.com/api/run?run_id=" + id);',
        "}",
      ].join("\n"),
      "src/main.ts": [
        'import { Jobs, getRun } from "./jobs";',
        "const jobs = new Jobs();",
        "export const go = (id: string) => Promise.all([jobs.enqueue(id), getRun(id)]);",
      ].join("\n"),
    });
    expect(keys).toEqual([
      "src/jobs.ts:1:vendored-v1-client",
      "src/jobs.ts:2:legacy-base-url",
      "src/jobs.ts:4:legacy-create-run",
      "src/jobs.ts:8:legacy-base-url",
      "src/jobs.ts:8:legacy-get-run",
      "src/main.ts:1:v1-sdk-import",
      "src/main.ts:2:v1-sdk-client",
      "src/main.ts:3:vendored-v1-client",
    ]);
  });

  it("an app's own function that sends V1 is app code: its request is the finding, its callers are not", async () => {
    const keys = await keysOf({
      "src/thumbs.ts": [
        "export async function createThumb(id: string) {",
        '  return fetch("https://www.comfydeploy.com/api/run", { method: "POST", body: JSON.stringify({ deployment_id: id }) });',
        "}",
      ].join("\n"),
      "src/main.ts": [
        'import { createThumb } from "./thumbs";',
        "export const go = (id: string) => createThumb(id);",
      ].join("\n"),
    });
    expect(keys).toEqual(["src/thumbs.ts:2:legacy-base-url", "src/thumbs.ts:2:legacy-create-run"]);
  });

  it("look-alikes with the same names stay quiet: another service's /run, V2 paths, a base the code does not resolve", async () => {
    const keys = await keysOf({
      "lib/runpod.js": [
        "export function makeRunner(key) {",
        '  const send = (path, init) => fetch("https://api.runpod.ai/v2/xyz" + path, init);',
        '  return { start: (input) => send("/run", { method: "POST", body: JSON.stringify({ input }) }), check: (id) => send("/status/" + id) };',
        "}",
      ].join("\n"),
      "lib/v2.js": [
        "export class Jobs {",
        '  enqueue(id) { return fetch("https://api.comfydeploy.com/api/run/deployment/queue", { method: "POST", body: JSON.stringify({ deploymentId: id }) }); }',
        "}",
      ].join("\n"),
      "app.js": [
        'import { makeRunner } from "./lib/runpod.js";',
        'import { Jobs } from "./lib/v2.js";',
        "const r = makeRunner(process.env.KEY);",
        "export const go = (id) => Promise.all([r.start({}), r.check(id), new Jobs().enqueue(id)]);",
      ].join("\n"),
    });
    expect(keys).toEqual([]);
  });

  it("a client holds its connection settings and takes the deployment from its caller; the app's own service does neither", async () => {
    const config =
      'export const config = { comfy: { baseUrl: process.env.COMFY ?? "https://www.comfydeploy.com/api", deploymentId: "d" } };';
    const service = [
      'import { config } from "./config";',
      "export class RenderService {",
      "  constructor(private readonly db: unknown) {}",
      "  start(prompt: string) {",
      "    const body = JSON.stringify({ deployment_id: config.comfy.deploymentId, inputs: { prompt } });",
      '    return fetch(`${config.comfy.baseUrl}/run`, { method: "POST", body });',
      "  }",
      "}",
    ].join("\n");
    const app = [
      'import { RenderService } from "./service";',
      "const renders = new RenderService(null);",
      "export const go = () => renders.start('a cat');",
    ].join("\n");
    const quiet = await keysOf({ "src/config.ts": config, "src/service.ts": service, "src/app.ts": app });
    expect(quiet.filter((k) => k.startsWith("src/app.ts") || k.includes("vendored"))).toEqual([]);
    expect(quiet).toContain("src/service.ts:6:legacy-create-run");

    // Module functions under any names, in a module that binds its base and takes the deployment from the caller.
    const jobs = [
      'const API = process.env.COMFY ?? "https://www.comfydeploy.com/api";',
      "export async function queueFrame(deploymentId: string, prompt: string) {",
      '  return fetch(`${API}/run`, { method: "POST", body: JSON.stringify({ deployment_id: deploymentId, inputs: { prompt } }) });',
      "}",
    ].join("\n");
    const user = ['import { queueFrame } from "./jobs";', "export const go = () => queueFrame('d', 'a cat');"].join(
      "\n",
    );
    expect(await keysOf({ "src/jobs.ts": jobs, "src/user.ts": user })).toEqual([
      "src/jobs.ts:1:legacy-base-url",
      "src/jobs.ts:3:legacy-create-run",
      "src/user.ts:1:v1-sdk-import",
      "src/user.ts:2:vendored-v1-client",
    ]);
    // V1's own names on the app's shared settings, with the deployment fixed: still the app's code.
    const own = [
      'import { config } from "./config";',
      "export async function run(prompt: string) {",
      '  return fetch(`${config.comfy.baseUrl}/run`, { method: "POST", body: JSON.stringify({ deployment_id: config.comfy.deploymentId, inputs: { prompt } }) });',
      "}",
    ].join("\n");
    const caller = ['import { run } from "./own";', "export const go = () => run('a cat');"].join("\n");
    const keys = await keysOf({ "src/config.ts": config, "src/own.ts": own, "src/caller.ts": caller });
    expect(keys.filter((k) => k.startsWith("src/caller.ts"))).toEqual([]);
  });

  it("a class holding its settings in an options object whose type names them, or behind a getter", async () => {
    const keys = await keysOf({
      "src/clients.ts": [
        'const DEFAULTS = { baseUrl: "https://www.comfydeploy.com/api" };',
        "export class OptionsClient {",
        "  private readonly options: { baseUrl: string; apiKey: string };",
        "  constructor(options: Partial<typeof DEFAULTS> & { apiKey: string }) {",
        "    this.options = { ...DEFAULTS, ...options };",
        "  }",
        "  queue(deploymentId: string) {",
        '    return fetch(`${this.options.baseUrl}/run`, { method: "POST", body: JSON.stringify({ deployment_id: deploymentId }) });',
        "  }",
        "}",
        "export class GetterClient {",
        "  constructor(private readonly opts: { baseUrl?: string } = {}) {}",
        "  private get baseUrl(): string {",
        "    return this.opts.baseUrl ?? DEFAULTS.baseUrl;",
        "  }",
        "  queue(deploymentId: string) {",
        '    return fetch(`${this.baseUrl}/run`, { method: "POST", body: JSON.stringify({ deployment_id: deploymentId }) });',
        "  }",
        "}",
      ].join("\n"),
    });
    expect(keys.filter((k) => k.endsWith("vendored-v1-client"))).toEqual([
      "src/clients.ts:11:vendored-v1-client",
      "src/clients.ts:2:vendored-v1-client",
    ]);
  });
});
