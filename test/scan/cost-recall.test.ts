/**
 * Review of the scan-cost change (978dd8d..c7c5d6a): V1 uses the scanner at
 * c500c3d reported and the faster scan loses. Each test fails on 6ba3296.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import type { Finding } from "../../src/core/finding.js";
import { scan } from "../../src/scan/engine.js";
import { tempRepo } from "../helpers/temp-repo.js";

const scanDir = (root: string) => scan({ root, hosts: DEFAULT_HOSTS, workers: false, ripgrep: false });
const rulesIn = (findings: Finding[], file: string) =>
  [...new Set(findings.filter((f) => f.file === file).map((f) => f.ruleId))].sort();

/** A 4.4 KB one-line data URL: a default mask or placeholder image, as apps inline them. */
const DATA_URL = `data:image/png;base64,${"A".repeat(4400)}`;
const SDK_CLIENT =
  'import { ComfyDeployClient } from "comfydeploy";\nexport const client = new ComfyDeployClient({ apiToken: process.env.TOKEN! });\n';
const PACKAGE = '{ "name": "app", "dependencies": { "comfydeploy": "0.0.19" } }\n';

describe("hand-written files with one long line are not bundles (generated-code.ts)", () => {
  it("a client module holding an inline data URL still exports its client to importers", async () => {
    const root = tempRepo({
      "package.json": PACKAGE,
      "src/comfy.ts": `${SDK_CLIENT}export const BLANK_MASK = "${DATA_URL}";\n`,
      "src/render.ts":
        'import { client } from "./comfy";\nexport const render = () => client.run({ deployment_id: "d", inputs: {} });\n',
    });
    const { findings } = await scanDir(root);
    expect(rulesIn(findings, "src/comfy.ts")).toContain("v1-sdk-client");
    expect(rulesIn(findings, "src/render.ts")).toContain("v1-sdk-call");
  });

  it("an importer holding an inline data URL is still analysed", async () => {
    const root = tempRepo({
      "package.json": PACKAGE,
      "src/comfy.ts": SDK_CLIENT,
      "src/render.ts": `import { client } from "./comfy";\nconst MASK = "${DATA_URL}";\nexport const render = () => client.run({ deployment_id: "d", inputs: { mask: MASK } });\n`,
    });
    const { findings } = await scanDir(root);
    expect(rulesIn(findings, "src/render.ts")).toContain("v1-sdk-call");
  });

  it("the package.json of a package whose only SDK importer has a long line is not called unused", async () => {
    const root = tempRepo({
      "package.json": PACKAGE,
      "src/comfy.ts": `${SDK_CLIENT}export const BLANK_MASK = "${DATA_URL}";\n`,
    });
    const { findings } = await scanDir(root);
    const dependency = findings.find((f) => f.file === "package.json" && f.ruleId === "v1-sdk-dependency");
    expect(dependency?.message).not.toMatch(/no code in this package imports/);
  });

  it("a hand-written UMD widget still reports its POST /run on the V1 host", async () => {
    const helpers = Array.from(
      { length: 150 },
      (_, i) => `  function helper${i}(x) {\n    return x + ${i};\n  }\n`,
    ).join("");
    const root = tempRepo({
      "public/comfy-widget.js": `(function (root, factory) {
  if (typeof define === "function" && define.amd) define([], factory);
  else root.ComfyWidget = factory();
})(this, function () {
  var API = "https://www.comfydeploy.com/api";
  function start(deploymentId, inputs) {
    return fetch(API + "/run", {
      method: "POST",
      body: JSON.stringify({ deployment_id: deploymentId, inputs: inputs }),
    }).then(function (r) { return r.json(); });
  }
  function status(runId) {
    return fetch(API + "/run?run_id=" + runId).then(function (r) { return r.json(); });
  }
${helpers}  return { start: start, status: status };
});
`,
    });
    const { findings } = await scanDir(root);
    expect(
      findings.some((f) => f.file === "public/comfy-widget.js" && f.line === 7 && f.ruleId === "legacy-create-run"),
    ).toBe(true);
  });
});

describe("first-party directories named vendor(s) are not third-party code (package-dirs.ts, engine.ts findImporters)", () => {
  it("a Next.js route under app/vendors/ that calls a client from lib/ is reported", async () => {
    const root = tempRepo({
      "package.json": PACKAGE,
      "src/lib/comfy.ts": SDK_CLIENT,
      "src/app/vendors/[id]/route.ts":
        'import { client } from "../../../lib/comfy";\nexport const POST = () => client.run({ deployment_id: "d", inputs: {} });\n',
    });
    const { findings } = await scanDir(root);
    expect(rulesIn(findings, "src/app/vendors/[id]/route.ts")).toContain("v1-sdk-call");
  });

  it("a workspace app named vendor (a vendor portal) that calls a shared client is reported", async () => {
    const root = tempRepo({
      "package.json": '{ "name": "mono", "private": true, "workspaces": ["apps/*", "packages/*"] }\n',
      "packages/comfy/package.json": PACKAGE.replace('"app"', '"@acme/comfy"'),
      "packages/comfy/src/index.ts": SDK_CLIENT,
      "apps/vendor/package.json": '{ "name": "vendor-portal" }\n',
      "apps/vendor/src/render.ts":
        'import { client } from "../../../packages/comfy/src";\nexport const render = () => client.run({ deployment_id: "d", inputs: {} });\n',
    });
    const { findings } = await scanDir(root);
    expect(rulesIn(findings, "apps/vendor/src/render.ts")).toContain("v1-sdk-call");
  });
});

describe("the text test for 'may define a client' agrees with vendored-class recognition (client-reach.ts)", () => {
  it("a copy of the client whose two V1 methods are overloads of run is followed into", async () => {
    const root = tempRepo({
      "src/render-client.ts": `export class RenderClient {
  constructor(private base: string) {}
  run(body: { deployment_id: string }): Promise<unknown>;
  run(body: { deployment_id: string }, wait: true): Promise<unknown>;
  async run(body: { deployment_id: string }, wait?: boolean) {
    return (await fetch(\`\${this.base}/run\`, { method: "POST", body: JSON.stringify(body) })).json();
  }
  async status(id: string) {
    return (await fetch(\`\${this.base}/run?run_id=\${id}\`)).json();
  }
}
`,
      "src/app.ts":
        'import { RenderClient } from "./render-client";\nconst client = new RenderClient(process.env.API!);\nexport const go = () => client.run({ deployment_id: "d" });\n',
    });
    const { findings } = await scanDir(root);
    expect(rulesIn(findings, "src/render-client.ts")).toContain("vendored-v1-client");
    expect(rulesIn(findings, "src/app.ts")).toContain("vendored-v1-client");
  });
});
