/**
 * The importer follow-up on a tree where every package is the repository's
 * own code: however many rounds a client takes to reach its user (module,
 * barrel, barrel, importer), the tree is searched for imports once.
 */
import type * as childProcess from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { scan } from "../../src/scan/engine.js";
import { findRipgrep, RIPGREP_MIN_FILES } from "../../src/scan/prefilter-pass.js";
import { tempRepo } from "../helpers/temp-repo.js";

const rgRuns: string[][] = [];
vi.mock("node:child_process", async (importOriginal) => {
  const original = await importOriginal<typeof childProcess>();
  const counted = <F extends (...args: never[]) => unknown>(fn: F): F =>
    ((command: string, args: string[], ...rest: unknown[]) => {
      if (command === findRipgrep()) rgRuns.push(args);
      return (fn as unknown as (...a: unknown[]) => unknown)(command, args, ...rest);
    }) as unknown as F;
  return { ...original, execFile: counted(original.execFile), spawn: counted(original.spawn) };
});

const rg = findRipgrep();

describe("the importer follow-up", () => {
  it.skipIf(!rg)("searches the tree for imports once across three rounds, and finds the client's user", async () => {
    const files: Record<string, string> = {
      "packages/a/package.json": '{ "name": "a" }\n',
      "packages/a/render/comfy.js":
        'import { ComfyDeployClient } from "comfydeploy";\nexport const client = new ComfyDeployClient({ apiToken: process.env.T });\n',
      "packages/a/render/index.js": 'export { client } from "./comfy";\n',
      "packages/a/index.js": 'export { client } from "./render";\n',
      "packages/b/package.json": '{ "name": "b" }\n',
      "packages/b/use.js":
        'import { client } from "../a";\nexport const queue = (id) => client.run({ deployment_id: id });\n',
    };
    for (let i = 0; Object.keys(files).length < RIPGREP_MIN_FILES + 10; i++) {
      files[`packages/p${i % 40}/lib/m${i}.js`] =
        `import { h } from "../util/h${i % 7}";\nexport const v${i} = h(${i});\n`;
    }
    const root = tempRepo(files);
    rgRuns.length = 0;
    const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    expect(result.findings.filter((f) => f.file === "packages/b/use.js").map((f) => f.ruleId)).toContain("v1-sdk-call");
    // One run for the prefilter's needles (the paths fit one command line), one for the import index.
    expect(rgRuns).toHaveLength(2);
  });

  it.skipIf(!rg)("reads for imports only the third-party packages a client module lives in", async () => {
    const files: Record<string, string> = {
      "vendor/liba/package.json": '{ "name": "liba" }\n',
      "vendor/liba/comfy.js":
        'import { ComfyDeployClient } from "comfydeploy";\nexport const client = new ComfyDeployClient({ apiToken: process.env.T });\n',
      "vendor/liba/use.js": 'import { client } from "./comfy";\nexport const queue = (id) => client.run({ id });\n',
      "vendor/libb/package.json": '{ "name": "libb" }\n',
    };
    for (let i = 0; Object.keys(files).length < RIPGREP_MIN_FILES + 10; i++)
      files[`vendor/libb/lib/m${i}.js`] = `import { h } from "../util/h${i % 7}";\nexport const v${i} = h(${i});\n`;
    const root = tempRepo(files);
    rgRuns.length = 0;
    const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    expect(result.findings.filter((f) => f.file === "vendor/liba/use.js").map((f) => f.ruleId)).toContain(
      "v1-sdk-call",
    );
    const indexRuns = rgRuns.filter((args) => args.includes("--only-matching"));
    expect(indexRuns.flat().filter((arg) => arg.startsWith("vendor/libb/"))).toEqual([]);
  });

  const nuxtApp = (client: string, config = "nuxt.config.ts"): Record<string, string> => ({
    "package.json": '{ "name": "app", "private": true }\n',
    [config]: "export default {};\n",
    "server/utils/comfy.ts": client,
    "server/api/run.post.ts":
      "export default defineEventHandler(async () => {\n  return useComfy().run({ deployment_id: 'd', inputs: {} });\n});\n",
  });
  const V1_CLIENT =
    'import { ComfyDeployClient } from "comfydeploy";\nexport const useComfy = () => new ComfyDeployClient({ apiToken: "t" });\n';

  it("finds the V1 calls of a Nuxt route on a client its server/utils hand out without an import", async () => {
    const result = await scan({ root: tempRepo(nuxtApp(V1_CLIENT)), hosts: DEFAULT_HOSTS, workers: false });
    expect(
      result.findings.filter((f) => f.file === "server/api/run.post.ts").map((f) => `${f.line}:${f.ruleId}`),
    ).toEqual(["2:v1-sdk-call"]);
  });

  it("finds a route's V1 call on the client of a default export Nuxt names after its module", async () => {
    const files = {
      "package.json": '{ "name": "app", "private": true }\n',
      "nuxt.config.ts": "export default {};\n",
      "server/utils/comfy-client.ts":
        'import { ComfyDeployClient } from "comfydeploy";\nexport default function () {\n  return new ComfyDeployClient({ apiToken: "t" });\n}\n',
      "server/api/run.post.ts": "export default defineEventHandler(() => comfyClient().run({ deployment_id: 'd' }));\n",
    };
    const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
    expect(
      result.findings.filter((f) => f.file === "server/api/run.post.ts").map((f) => `${f.line}:${f.ruleId}`),
    ).toEqual(["1:v1-sdk-call"]);
  });

  it("leaves the route alone on a V2 client, or where no Nuxt config puts the helper in scope", async () => {
    const v2 =
      'import { ComfyDeploy } from "comfydeploy";\nexport const useComfy = () => new ComfyDeploy({ bearer: "t" });\n';
    for (const files of [nuxtApp(v2), nuxtApp(V1_CLIENT, "vite.config.ts")]) {
      const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
      expect(result.findings.filter((f) => f.file === "server/api/run.post.ts")).toEqual([]);
    }
  });

  it.skipIf(!rg)("finds a Nuxt route's auto-imported client in the same one pass for imports", async () => {
    const files = nuxtApp(V1_CLIENT);
    for (let i = 0; Object.keys(files).length < RIPGREP_MIN_FILES + 10; i++)
      files[`server/api/p${i % 40}/m${i}.get.ts`] = `export default defineEventHandler(() => ${i});\n`;
    rgRuns.length = 0;
    const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
    expect(result.findings.filter((f) => f.file === "server/api/run.post.ts").map((f) => f.ruleId)).toEqual([
      "v1-sdk-call",
    ]);
    expect(rgRuns).toHaveLength(2);
  });
});
