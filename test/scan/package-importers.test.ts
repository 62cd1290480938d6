/**
 * The follow-up's search of third-party packages: only the client modules'
 * own packages, only files whose import specifiers name a module, and no
 * file lost whether the search was prepared before the round or made when
 * the round asks, with rg or without it.
 */
import { describe, expect, it } from "vitest";
import { thirdPartyPackages } from "../../src/scan/importer-follow-up.js";
import { importedNames, PackageImporters } from "../../src/scan/package-importers.js";
import { findRipgrep } from "../../src/scan/prefilter-pass.js";
import { tempRepo } from "../helpers/temp-repo.js";

const rg = findRipgrep();

function tree(fillers: number): { root: string; files: string[] } {
  const files: Record<string, string> = {
    "package.json": '{ "name": "app" }\n',
    "src/app.js": 'import { client } from "../vendor/render/lib/client";\n',
    "vendor/render/package.json": '{ "name": "render" }\n',
    "vendor/render/lib/client.js": "export const client = {};\n",
    "vendor/render/lib/use.js": 'import { client } from "./client.js";\n',
    "vendor/render/lib/mention.js": "// see ./client for details\n",
    "vendor/render/lib/barrel/index.js": 'export * from "../client";\n',
    "vendor/render/app/main.js": 'import { client } from "../lib/barrel";\n',
    "vendor/other/package.json": '{ "name": "other" }\n',
    "vendor/other/use.js": 'import { client } from "./client";\n',
  };
  for (let i = 0; i < fillers; i++) files[`vendor/render/lib/filler/f${i}.js`] = `export const v${i} = ${i};\n`;
  return { root: tempRepo(files), files: Object.keys(files).filter((f) => f.endsWith(".js")) };
}

function search(root: string, files: string[], ripgrep: string | undefined): PackageImporters {
  return new PackageImporters(
    root,
    ripgrep,
    files,
    thirdPartyPackages(new Set([...files, "vendor/render/package.json"])),
  );
}

describe("importedNames", () => {
  it("is a module's file name, or its folder's for an index file", () => {
    expect([...importedNames(["a/b/client.ts", "a/barrel/index.js", "x/es.string.anchor.js"])]).toEqual([
      "client",
      "barrel",
      "es.string.anchor",
    ]);
  });
});

describe.each([
  ["without rg", undefined, 10],
  ["with rg", rg, 2100],
] as const)("PackageImporters %s", (_name, ripgrep, fillers) => {
  it.skipIf(_name === "with rg" && !rg)("finds the module's package files whose imports name it", async () => {
    const { root, files } = tree(fillers);
    const modules = ["vendor/render/lib/client.js"];
    const found = await search(root, files, ripgrep).filesNaming(modules, new Set(modules));
    // Without rg every file of the package is returned for the caller to test; with it only the named ones.
    const named = ["vendor/render/lib/barrel/index.js", "vendor/render/lib/use.js"];
    if (ripgrep) expect([...found].sort()).toEqual(named);
    else for (const file of named) expect(found.has(file)).toBe(true);
    // Never the repository's own code (the import index answers for it) or another package.
    expect(found.has("src/app.js")).toBe(false);
    expect(found.has("vendor/other/use.js")).toBe(false);
    expect(found.has("vendor/render/lib/client.js")).toBe(false);
  });

  it.skipIf(_name === "with rg" && !rg)("answers the same from a search prepared for the round's work", async () => {
    const { root, files } = tree(fillers);
    const work = ["vendor/render/lib/client.js", "vendor/render/lib/barrel/index.js", "vendor/other/use.js"];
    const modules = ["vendor/render/lib/barrel/index.js"];
    const analysed = new Set(work);
    const prepared = search(root, files, ripgrep);
    prepared.prepare(work, new Set());
    const fresh = await search(root, files, ripgrep).filesNaming(modules, analysed);
    const fromPrepared = await prepared.filesNaming(modules, analysed);
    expect(fresh.has("vendor/render/app/main.js")).toBe(true);
    for (const file of fresh) expect(fromPrepared.has(file)).toBe(true);
    // The prepared search looked for every name of the work: what it adds names another of them, which the
    // caller's check of the text against this round's names drops.
    const extra = [...fromPrepared].filter((file) => !fresh.has(file));
    if (ripgrep) expect(extra).toEqual(["vendor/render/lib/use.js"]);
    for (const file of extra) expect(file.startsWith("vendor/render/")).toBe(true);
  });
});
