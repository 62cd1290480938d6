/**
 * Requests made through the code's own helpers: the helper's request is read
 * with its parameters bound to the call's arguments.
 */
import { describe, expect, it } from "vitest";
import { JsAnalyzer } from "../../../src/scan/js/analyze.js";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";

function rulesByLine(file: string, text: string): string[] {
  const analyzer = new JsAnalyzer("/nonexistent", new Set([file]), DEFAULT_HOSTS);
  return analyzer
    .analyze(file, text)
    .findings.map((f) => `${f.line}:${f.ruleId}`)
    .sort();
}

describe("requests through helpers", () => {
  it("takes a call that passes fewer arguments than the helper has parameters (the URL's parameter left unbound)", () => {
    const text = [
      'const BASE = "https://www.comfydeploy.com/api";',
      'function send(options, path = "/run") {',
      "  return fetch(BASE + path, options);",
      "}",
      'export const ping = () => send({ method: "HEAD" });',
    ].join("\n");
    const analyzer = new JsAnalyzer("/nonexistent", new Set(["ping.js"]), DEFAULT_HOSTS);
    expect(analyzer.analyze("ping.js", text).error).toBeUndefined();
  });

  it("reads a module helper's fetch with the caller's path, method and body", () => {
    const text = [
      'const BASE = process.env.API ?? "https://www.comfydeploy.com/api";',
      "async function call(path, options = {}) {",
      "  return fetch(BASE + path, { ...options, headers: { a: 1 } });",
      "}",
      'export const start = (id) => call("/run", { method: "POST", body: JSON.stringify({ deployment_id: id }) });',
      "export const status = (id) => call(`/run?run_id=${id}`);",
    ].join("\n");
    expect(rulesByLine("api.js", text)).toEqual(["1:legacy-base-url", "5:legacy-create-run", "6:legacy-get-run"]);
  });

  it("follows a class's private helper, and a retry inside it does not loop", () => {
    const text = [
      "export class Api {",
      '  constructor(private base = "https://www.comfydeploy.com/api") {}',
      "  private go(p: string, init: RequestInit = {}, n = 0): Promise<Response> {",
      "    return fetch(`${this.base}${p}`, init).catch(() => this.go(p, init, n + 1));",
      "  }",
      '  queue(id: string) { return this.go("/run", { method: "POST", body: JSON.stringify({ deployment_id: id }) }); }',
      "}",
    ].join("\n");
    expect(rulesByLine("api.ts", text)).toEqual(["1:vendored-v1-client", "2:legacy-base-url", "6:legacy-create-run"]);
  });

  it("leaves a helper call quiet when the caller passes only unknowns on", () => {
    const text = [
      "const get = (base, id) => fetch(`${base}/run?run_id=${id}`);",
      "export const poll = (base, id) => get(base, id);",
    ].join("\n");
    expect(rulesByLine("poll.js", text)).toEqual(["1:v1-shape-unknown-base"]);
  });

  it("leaves a helper quiet whose caller sends another service's path", () => {
    const text = [
      'const BASE = "https://api.runpod.ai/v2/abc";',
      "const call = (path, init) => fetch(BASE + path, init);",
      'export const start = () => call("/run", { method: "POST", body: JSON.stringify({ input: {} }) });',
    ].join("\n");
    expect(rulesByLine("runpod.js", text)).toEqual([]);
  });
});
