/**
 * The import index the importer follow-up asks in every round: which files
 * import a module by the name an import spells, built in one pass with rg or
 * by reading the files, with the same answers either way.
 */
import { describe, expect, it } from "vitest";
import { ImportIndex } from "../../src/scan/import-index.js";
import { findRipgrep, RIPGREP_MIN_FILES } from "../../src/scan/prefilter-pass.js";
import { tempRepo } from "../helpers/temp-repo.js";

const importers: Record<string, string> = {
  "apps/web/a.ts": 'import { client } from "../../packages/render/comfy";\n',
  "apps/web/b.js": "const { client } = require('../lib/comfy.js');\n",
  "apps/web/c.tsx": 'export { client } from "@/lib/comfy";\n',
  "apps/web/d.mjs": "const m = await import(`./render/comfy`);\n",
  "apps/web/e.ts": 'import {\n  client,\n  other,\n} from "../render";\n',
  "apps/web/f.ts": 'import { client } from "./comfy.client";\n',
};
const bystanders: Record<string, string> = {
  "apps/web/g.ts": 'import comfy from "comfy";\nimport x from "./comfy-extra";\n',
  "apps/web/h.ts": '// see /comfy" in the docs\nconst path = "./lib/comfy";\n',
  "apps/web/i.ts": 'import { render } from "react-dom/renderer";\n',
};
const files = { ...importers, ...bystanders };

async function answers(index: ImportIndex): Promise<Record<string, string[]>> {
  return {
    comfy: [...index.importersOf(["comfy"])].sort(),
    render: [...index.importersOf(["render"])].sort(),
    both: [...index.importersOf(["comfy", "render"])].sort(),
  };
}

describe("the import index", () => {
  it("answers who imports a module by file name, folder name or alias, and not look-alikes or bare packages", async () => {
    const root = tempRepo(files);
    const index = await ImportIndex.build(root, Object.keys(files).sort(), undefined);
    expect(await answers(index)).toEqual({
      comfy: ["apps/web/a.ts", "apps/web/b.js", "apps/web/c.tsx", "apps/web/d.mjs", "apps/web/f.ts"],
      render: ["apps/web/e.ts"],
      both: ["apps/web/a.ts", "apps/web/b.js", "apps/web/c.tsx", "apps/web/d.mjs", "apps/web/e.ts", "apps/web/f.ts"],
    });
  });

  it("grows as rounds need more files: each covered file is indexed once, and answers take in every file covered", async () => {
    const root = tempRepo(files);
    const index = new ImportIndex(root, undefined);
    await index.cover(["apps/web/a.ts", "apps/web/g.ts"]);
    expect([...index.importersOf(["comfy"])]).toEqual(["apps/web/a.ts"]);
    // b.js is now in the index; a.ts, covered again, is not indexed twice.
    await index.cover(["apps/web/a.ts", "apps/web/b.js"]);
    expect([...index.importersOf(["comfy"])].sort()).toEqual(["apps/web/a.ts", "apps/web/b.js"]);
    expect(index.importersOf(["render"]).size).toBe(0);
  });

  const rg = findRipgrep();
  it.skipIf(!rg)("gives the same answers from one rg pass as from reading the files", async () => {
    // Enough files for rg to be used, most without imports.
    const many: Record<string, string> = { ...files, "apps/wëb/ü.ts": 'import { client } from "../lib/comfy";\n' };
    for (let i = 0; many && Object.keys(many).length < RIPGREP_MIN_FILES; i++)
      many[`filler/f${i}.js`] = `export const v${i} = ${i};\n`;
    const root = tempRepo(many);
    const listed = Object.keys(many).sort();
    const withRg = await ImportIndex.build(root, listed, rg);
    const byReading = await ImportIndex.build(root, listed, undefined);
    expect(await answers(withRg)).toEqual(await answers(byReading));
    expect(withRg.importersOf(["comfy"]).has("apps/wëb/ü.ts")).toBe(true);
  });

  it("indexes the files naming a Nuxt app's auto-imported names, the same with rg as by reading", async () => {
    const many: Record<string, string> = {
      "nuxt.config.ts": "export default defineNuxtConfig({});\n",
      "server/utils/comfy.ts": "export function useComfy() {}\n",
      "server/api/a.post.ts": "export default defineEventHandler(() => useComfy().run({}));\n",
      "server/api/b.get.ts": "const c = useComfyExtra();\nexport default c;\n",
    };
    for (let i = 0; Object.keys(many).length < RIPGREP_MIN_FILES; i++)
      many[`filler/f${i}.js`] = `export const v${i} = ${i};\n`;
    const root = tempRepo(many);
    const listed = Object.keys(many).sort();
    const byReading = await ImportIndex.build(root, listed, undefined);
    // The module naming its own export is indexed too: the follow-up asks AutoImports who sees it.
    const users = ["server/api/a.post.ts", "server/utils/comfy.ts"];
    expect([...byReading.usersOf(["useComfy"])].sort()).toEqual(users);
    if (rg) expect([...(await ImportIndex.build(root, listed, rg)).usersOf(["useComfy"])].sort()).toEqual(users);
  });
});
