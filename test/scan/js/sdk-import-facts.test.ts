/** The `js-sdk` facts: every name a file binds to the SDK package, on each of its V1 SDK findings. */
import { describe, expect, it } from "vitest";
import { factsOf } from "../../../src/core/facts.js";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { JsAnalyzer } from "../../../src/scan/js/analyze.js";

function analyze(file: string, text: string) {
  return new JsAnalyzer("/nonexistent", new Set([file]), DEFAULT_HOSTS).analyze(file, text).findings;
}

describe("js-sdk facts", () => {
  it("name each binding of the package, with its module, names, type-only flag and the span of its specifier", () => {
    const text = [
      'import { ComfyDeployClient as Client, type WebookRequestBody } from "comfydeploy";',
      'import type { ComfyDeploy } from "comfydeploy/dist/index.js";',
      'import * as cd from "comfydeploy";',
      'import sdk from "comfydeploy";',
      'import other from "other-package";',
      "export function make() {",
      '  const { parseWebhookDataSafe: parse, ...rest } = require("comfydeploy");',
      '  const whole = require("comfydeploy");',
      "  return [new Client({ apiToken: 't' }), parse, rest, whole, cd, sdk, other];",
      "}",
    ].join("\n");
    const findings = analyze("a.ts", text);
    const sdk = findings.filter((f) => f.ruleId.startsWith("v1-sdk-"));
    expect(sdk.length).toBeGreaterThan(2);
    const facts = factsOf(sdk[0]!, "js-sdk");
    for (const finding of sdk) expect(factsOf(finding, "js-sdk")).toEqual(facts);
    const bindings = facts!.imports.map(({ span, ...binding }) => ({
      ...binding,
      text: text.slice(span.start, span.end),
    }));
    expect(bindings).toEqual([
      {
        module: "comfydeploy",
        imported: "ComfyDeployClient",
        local: "Client",
        typeOnly: false,
        text: "ComfyDeployClient as Client",
      },
      {
        module: "comfydeploy",
        imported: "WebookRequestBody",
        local: "WebookRequestBody",
        typeOnly: true,
        text: "type WebookRequestBody",
      },
      {
        module: "comfydeploy/dist/index.js",
        imported: "ComfyDeploy",
        local: "ComfyDeploy",
        typeOnly: true,
        text: "ComfyDeploy",
      },
      { module: "comfydeploy", imported: "*", local: "cd", typeOnly: false, text: "* as cd" },
      { module: "comfydeploy", imported: "default", local: "sdk", typeOnly: false, text: "sdk" },
      {
        module: "comfydeploy",
        imported: "parseWebhookDataSafe",
        local: "parse",
        typeOnly: false,
        text: "parseWebhookDataSafe: parse",
      },
      { module: "comfydeploy", imported: "*", local: "whole", typeOnly: false, text: 'whole = require("comfydeploy")' },
    ]);
  });

  it("count `import x = require(...)` as the whole module", () => {
    const text = ['import cd = require("comfydeploy");', "export const c = new cd.ComfyDeployClient({});"].join("\n");
    const client = analyze("a.ts", text).find((f) => f.ruleId === "v1-sdk-client");
    expect(factsOf(client!, "js-sdk")?.imports.map((b) => [b.imported, b.local])).toEqual([["*", "cd"]]);
  });

  it("are on V1 SDK findings only", () => {
    const text = [
      'import { ComfyDeployClient } from "comfydeploy";',
      'export const client = new ComfyDeployClient({ apiToken: "t", apiBase: "https://www.comfydeploy.com" });',
    ].join("\n");
    const findings = analyze("a.ts", text);
    expect(findings.map((f) => f.ruleId)).toContain("legacy-base-url");
    for (const finding of findings)
      expect(factsOf(finding, "js-sdk") !== undefined, finding.ruleId).toBe(finding.ruleId.startsWith("v1-sdk-"));
  });
});
