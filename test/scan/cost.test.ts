/**
 * What the scanner leaves out to stay fast on trees of third-party code, and
 * that it loses no V1 use for it: the `/run` needle ends a path segment, the
 * precise byte test takes whole words, minified and bundled files get the
 * text-level rules only, names are followed only into modules that can reach
 * a client, and importers of checked-in libraries are looked for in that
 * library only.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import type { Finding } from "../../src/core/finding.js";
import { thirdPartyPackageOf } from "../../src/files/package-dirs.js";
import { ClientReach } from "../../src/scan/js/client-reach.js";
import { looksGenerated } from "../../src/scan/js/generated-code.js";
import { JsProject } from "../../src/scan/js/project.js";
import { Values } from "../../src/scan/js/values.js";
import { JsSignals, needlePattern, Prefilter, prefilterNeedles } from "../../src/scan/needles.js";
import { findRipgrep } from "../../src/scan/prefilter-pass.js";
import { scan } from "../../src/scan/engine.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const V1_API = "https://www.comfydeploy.com/api";
const scanDir = (root: string) => scan({ root, hosts: DEFAULT_HOSTS, workers: false, ripgrep: false });
const rulesIn = (findings: Finding[], file: string) =>
  [...new Set(findings.filter((f) => f.file === file).map((f) => f.ruleId))].sort();

describe("the /run needle ends a path segment", () => {
  const ends = [
    "fetch(`${base}/run`)",
    "'/run'",
    "/run?run_id=1",
    "/run/deployment/queue",
    "`${base}/run${query}`",
    "x + '/run\r\n",
    "/run",
  ];
  const continues = ["require('./runtime')", "'/run_command'", "'/run-script'", "/runs/1", "/runner"];
  const prefilter = new Prefilter(prefilterNeedles(DEFAULT_HOSTS).filter((n) => n.literal === "/run"));

  it.each(ends)("matches %j", (text) => expect(prefilter.matches(Buffer.from(text))).toBe(true));
  it.each(continues)("does not match %j", (text) => expect(prefilter.matches(Buffer.from(text))).toBe(false));

  const rg = findRipgrep();
  it.skipIf(!rg)("ripgrep reads the needle's pattern the same way", () => {
    const dir = tempDir();
    const cases = [...ends, ...continues];
    for (const [i, text] of cases.entries()) writeFileSync(join(dir, `case${i}.txt`), text);
    const needle = prefilterNeedles(DEFAULT_HOSTS).find((n) => n.literal === "/run")!;
    const run = spawnSync(
      rg!,
      ["--files-with-matches", "--no-config", "--no-unicode", "-e", needlePattern(needle), "."],
      { cwd: dir, encoding: "utf8" },
    );
    const matched = new Set(
      run.stdout
        .split("\n")
        .filter(Boolean)
        .map((f) => f.replace(/^\.\//, "")),
    );
    expect(cases.map((_, i) => matched.has(`case${i}.txt`))).toEqual(cases.map((_, i) => i < ends.length));
  });
});

describe("the precise byte test a JS candidate passes before the parser", () => {
  const signals = new JsSignals(DEFAULT_HOSTS);
  it.each([
    ["const s = await client.getRun(id);", true],
    [`const API = "${V1_API}";`, true],
    ['import { ComfyDeployClient } from "comfydeploy";', true],
    ["fetch(`${base}/run?run_id=${id}`)", true],
    ["const config = getRuntimeConfig(options);", false],
    ["exports.getRunner = () => runner;", false],
    ["const url = `/runtime?run_id_hint=${x}`;", false],
  ])("%j: %s", (text, expected) => expect(signals.matches(Buffer.from(text))).toBe(expected));

  // AWS SDK's clients/omics.d.ts declares getRun(): 170 KB the parser would take for nothing.
  it.each([
    ["getRun(params: Omics.Types.GetRunRequest, callback?: (err: AWSError) => void): Request;", false],
    [
      'import type { ComfyDeployClient } from "comfydeploy";\nexport declare function getRun(id: string): Promise<unknown>;',
      true,
    ],
    ['export declare const RUN_URL: "https://www.comfydeploy.com/api/run";', true],
  ])("in a declaration file %j: %s", (text, expected) =>
    expect(signals.matches(Buffer.from(text), true)).toBe(expected),
  );
});

describe("minified and bundled files", () => {
  const longLine = (n: number) => Array.from({ length: n }, (_, i) => `var a${i}=function(b){return b+${i}};`).join("");

  it("are told apart from hand-written code", () => {
    const generated = (file: string, text: string | Buffer) =>
      looksGenerated(file, Buffer.isBuffer(text) ? text : Buffer.from(text));
    expect(generated("dist/app.js", `${longLine(400)}\n`)).toBe(true);
    expect(generated("public/vendor.min.js", "var a=1;\n")).toBe(true);
    expect(generated("dist/bundle.js", Buffer.alloc(1024 * 1024, "// a comment line that goes on\n"))).toBe(true);
    expect(generated("src/steps.ts", `${"export const step = 1;\n".repeat(400)}`)).toBe(false);
    // One long line of data is not minified code: an inline image, a workflow's JSON.
    expect(generated("src/mask.ts", `export const MASK = "data:image/png;base64,${"A".repeat(8000)}";\n`)).toBe(false);
    expect(
      generated(
        "src/workflow.ts",
        `export const WORKFLOW = ${JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [String(i), { inputs: { seed: i } }])))};\n`,
      ),
    ).toBe(false);
    // A UMD wrapper by hand, with ordinary lines, is parsed like any other file.
    expect(
      generated(
        "public/widget.js",
        `(function (root, factory) {\n  if (typeof define === "function" && define.amd) define([], factory);\n})(this, function () {});\n${"// line\n".repeat(600)}`,
      ),
    ).toBe(false);
    // Small files parse in a moment, minified or not.
    expect(generated("dist/tiny.js", `${longLine(20)}\n`)).toBe(false);
  });

  it("still report the legacy host, V1 endpoints and the SDK, without the parser", async () => {
    const root = tempRepo({
      "public/app.min.js": `${longLine(300)};fetch("${V1_API}/run?run_id="+id);var s=require("comfydeploy");new s.ComfyDeployClient({});\n`,
      "src/ok.js": `export const API = "${V1_API}";\n`,
    });
    const result = await scanDir(root);
    expect(rulesIn(result.findings, "public/app.min.js")).toEqual([
      "legacy-base-url",
      "legacy-get-run",
      "v1-sdk-import",
    ]);
    expect(result.stats).toMatchObject({ analysed: 1, textOnly: 1 });
  });
});

describe("following a name out of a file", () => {
  const project = (files: Record<string, string>) => {
    const root = tempRepo(files);
    return new ClientReach(new Values(new JsProject(root, new Set(Object.keys(files)))));
  };

  it("goes only into modules that can reach a client, through any chain of imports and cycles", () => {
    const reach = project({
      "src/client.ts":
        'import { ComfyDeployClient } from "comfydeploy";\nexport const client = new ComfyDeployClient({});\n',
      "src/factory.ts":
        'import { client } from "./client";\nimport { helper } from "./helper";\nexport const getClient = () => client;\n',
      "src/helper.ts": 'import { getClient } from "./factory";\nexport const helper = 1;\n',
      "src/barrel.ts": 'export * from "./factory";\n',
      "src/date.ts": 'import { pad } from "./pad";\nexport const format = (d: Date) => pad(d.getDate());\n',
      "src/pad.ts": 'import { format } from "./date";\nexport const pad = (n: number) => String(n).padStart(2, "0");\n',
      "src/host.ts": `export const API = "${V1_API}";\n`,
    });
    // helper -> factory -> client: a cycle on the way does not hide the client.
    expect(["src/client.ts", "src/factory.ts", "src/helper.ts", "src/barrel.ts"].map((f) => reach.canReach(f))).toEqual(
      [true, true, true, true],
    );
    // The host's name alone does not make a client; neither does a cycle of date helpers.
    expect(["src/date.ts", "src/pad.ts", "src/host.ts"].map((f) => reach.canReach(f))).toEqual([false, false, false]);
    // Asked again after a "no", the answers stand.
    expect(reach.canReach("src/helper.ts")).toBe(true);
  });

  it("does not count the file under analysis as a source: a library ring that reaches a client only through it is not entered", () => {
    const reach = project({
      // The V1 request shape, in a library whose modules import each other in a ring.
      "lib/topology.js":
        'const { now } = require("./utils");\nexports.status = (id) => fetch("/api/run?run_id=" + id + "&t=" + now());\n',
      "lib/utils.js": 'const { Topology } = require("./topology");\nexports.now = () => Date.now();\n',
      "lib/server.js": 'const { now } = require("./utils");\nexports.Server = class {};\n',
    });
    reach.beginFile("lib/topology.js");
    expect(["lib/utils.js", "lib/server.js"].map((f) => reach.canReach(f))).toEqual([false, false]);
    // For any other file's analysis the ring still leads to the module holding the V1 shape.
    reach.beginFile("lib/server.js");
    expect(reach.canReach("lib/utils.js")).toBe(true);
    // The shape module is itself a source for its importers, whichever file is analysed.
    reach.beginFile("lib/topology.js");
    expect(reach.canReach("lib/utils.js")).toBe(false);
    reach.beginFile("lib/other.js");
    expect(reach.canReach("lib/topology.js")).toBe(true);
  });

  it("still reports a V1 call on a client that comes through a factory module naming nothing V1", async () => {
    const root = tempRepo({
      "package.json": '{ "name": "app", "dependencies": { "comfydeploy": "0.0.19" } }\n',
      "src/client.ts":
        'import { ComfyDeployClient } from "comfydeploy";\nexport const client = new ComfyDeployClient({ apiToken: process.env.TOKEN! });\n',
      "src/get-client.ts": 'import { client } from "./client";\nexport function getClient() {\n  return client;\n}\n',
      "src/render.ts":
        'import { getClient } from "./get-client";\nexport const render = (id: string) => getClient().getRun(id);\n',
    });
    const result = await scanDir(root);
    expect(result.findings.some((f) => f.file === "src/render.ts" && f.ruleId === "v1-sdk-call")).toBe(true);
  });
});

describe("importers of a client module", () => {
  it("are looked for in the repository's own code and in the module's own package, not in other checked-in libraries", async () => {
    const clientModule =
      'const { ComfyDeployClient } = require("comfydeploy");\nmodule.exports.renderClient = new ComfyDeployClient({ apiToken: process.env.T });\n';
    // Names nothing V1 but `.run(`: only the importer follow-up can find it.
    const importer = (path: string) =>
      `const { renderClient } = require("${path}");\nmodule.exports.go = (inputs) => renderClient.run({ deployment_id: "d", inputs });\n`;
    const root = tempRepo({
      "package.json": '{ "name": "app" }\n',
      "vendor/render/package.json": '{ "name": "render", "version": "1.0.0" }\n',
      "vendor/render/lib/client.js": clientModule,
      "vendor/render/lib/use.js": importer("./client"),
      "vendor/other/package.json": '{ "name": "other", "version": "1.0.0" }\n',
      "vendor/other/index.js": importer("../render/lib/client"),
      "src/app.js": importer("../vendor/render/lib/client"),
    });
    const result = await scanDir(root);
    expect(rulesIn(result.findings, "vendor/render/lib/use.js")).toContain("v1-sdk-call");
    expect(rulesIn(result.findings, "src/app.js")).toContain("v1-sdk-call");
    expect(rulesIn(result.findings, "vendor/other/index.js")).toEqual([]);
  });

  it("are parsed in a checked-in library only when an import there resolves to the client module, not to another module of its name", async () => {
    const root = tempRepo({
      "package.json": '{ "name": "app" }\n',
      "vendor/render/package.json": '{ "name": "render", "version": "1.0.0" }\n',
      "vendor/render/lib/client.js":
        'const { ComfyDeployClient } = require("comfydeploy");\nmodule.exports.renderClient = new ComfyDeployClient({ apiToken: process.env.T });\n',
      "vendor/render/lib/use.js":
        'const { renderClient } = require("./client");\nmodule.exports.go = (inputs) => renderClient.run({ deployment_id: "d", inputs });\n',
      // Its own ./client is a task runner: the name matches, the module is another one.
      "vendor/render/lib/tasks/client.js": "module.exports.renderClient = { run: (task) => task() };\n",
      "vendor/render/lib/tasks/use.js":
        'const { renderClient } = require("./client");\nmodule.exports.go = (task) => renderClient.run(task);\n',
    });
    const result = await scanDir(root);
    expect(rulesIn(result.findings, "vendor/render/lib/use.js")).toContain("v1-sdk-call");
    expect(rulesIn(result.findings, "vendor/render/lib/tasks/use.js")).toEqual([]);
    // The client module and its one importer: the namesake's importer is not parsed.
    expect(result.stats.analysed).toBe(2);
    expect(result.digests?.has("vendor/render/lib/tasks/use.js")).toBe(false);
  });

  it("pass a client on through a barrel of re-exports without parsing the barrel", async () => {
    const root = tempRepo({
      "package.json": '{ "name": "app" }\n',
      "vendor/render/package.json": '{ "name": "render", "version": "1.0.0" }\n',
      "vendor/render/lib/client.js":
        'import { ComfyDeployClient } from "comfydeploy";\nexport const renderClient = new ComfyDeployClient({ apiToken: process.env.T });\n',
      // Generated barrels: only re-exports and comments.
      "vendor/render/lib/index.js":
        '// generated\nexport * from "./client";\nexport { default as Other } from "./other";\n/* end */\n',
      "vendor/render/lib/other.js": "export default 1;\n",
      "vendor/render/app/use.js":
        'import { renderClient } from "../lib";\nexport const go = (inputs) => renderClient.run({ deployment_id: "d", inputs });\n',
    });
    const result = await scanDir(root);
    expect(rulesIn(result.findings, "vendor/render/app/use.js")).toContain("v1-sdk-call");
    expect(rulesIn(result.findings, "vendor/render/lib/index.js")).toEqual([]);
    // client.js and use.js: the barrel in between is settled from its text.
    expect(result.stats.analysed).toBe(2);
    expect(result.digests?.has("vendor/render/lib/index.js")).toBe(true);
  });

  it("are not parsed in a checked-in library for runtime typeof checks, only for typeof in a TypeScript type", async () => {
    const client =
      'import { ComfyDeployClient } from "comfydeploy";\nexport const renderClient = new ComfyDeployClient({ apiToken: process.env.T });\n';
    const root = tempRepo({
      "package.json": '{ "name": "app" }\n',
      "vendor/render/package.json": '{ "name": "render", "version": "1.0.0" }\n',
      "vendor/render/lib/client.js": client,
      // A library file calls the module's other export and checks types at run time, as libraries do everywhere.
      "vendor/render/lib/query.js":
        'const { renderClient } = require("./client");\nmodule.exports = (cb) => typeof cb === "function" && "object" === typeof renderClient;\n',
      "vendor/render/src/types.ts":
        'import { renderClient } from "../lib/client";\nexport type RenderClient = typeof renderClient;\n',
    });
    const result = await scanDir(root);
    // client.js and types.ts.
    expect(result.stats.analysed).toBe(2);
    expect(result.digests?.has("vendor/render/lib/query.js")).toBe(false);
    expect(result.digests?.has("vendor/render/src/types.ts")).toBe(true);
  });

  it("know which checked-in package a file is in", () => {
    const files = new Set(["vendor/a/package.json", "vendor/a/node_modules/b/package.json", "third_party/c/x.js"]);
    const has = (path: string) => files.has(path);
    expect(thirdPartyPackageOf("vendor/a/lib/x.js", has)).toBe("vendor/a/");
    expect(thirdPartyPackageOf("vendor/a/node_modules/b/dist/y.js", has)).toBe("vendor/a/node_modules/b/");
    // A vendor-named directory is third-party code only with a package of its own below it.
    expect(thirdPartyPackageOf("third_party/c/x.js", has)).toBeUndefined();
    expect(thirdPartyPackageOf("src/app/vendors/[id]/route.ts", has)).toBeUndefined();
    expect(thirdPartyPackageOf("node_modules/lodash/index.js", has)).toBe("node_modules/");
    expect(thirdPartyPackageOf("src/vendor.ts", has)).toBeUndefined();
    expect(thirdPartyPackageOf("src/app.ts", has)).toBeUndefined();
  });
});
