/**
 * Names Nuxt and Nitro put in scope without an import: which folders, which
 * files see them, and the names their modules export.
 */
import { describe, expect, it } from "vitest";
import { AutoImports } from "../../../src/scan/js/auto-imports.js";

function table(texts: Record<string, string>, others: string[] = []): AutoImports {
  const files = [...Object.keys(texts), ...others];
  const read = AutoImports.modulesToRead(files);
  return AutoImports.build(files, new Map(read.map((file) => [file, texts[file]!])));
}

describe("auto-imports", () => {
  it("puts a Nuxt app's server/utils exports in scope under server/ only, and its composables outside server/", () => {
    const imports = table(
      {
        "web/nuxt.config.ts": "export default defineNuxtConfig({});\n",
        "web/server/utils/comfy.ts": "export function useComfy() {}\nexport const RUNS = 1;\n",
        "web/composables/useRender.ts": "export const useRender = () => 1;\n",
      },
      ["web/server/api/run.post.ts", "web/pages/index.ts", "api/run.ts"],
    );
    expect(imports.sourceOf("web/server/api/run.post.ts", "useComfy")).toEqual({
      file: "web/server/utils/comfy.ts",
      name: "useComfy",
    });
    expect(imports.sourceOf("web/server/api/run.post.ts", "RUNS")?.file).toBe("web/server/utils/comfy.ts");
    expect(imports.sourceOf("web/pages/index.ts", "useComfy")).toBeUndefined();
    expect(imports.sourceOf("web/pages/index.ts", "useRender")?.file).toBe("web/composables/useRender.ts");
    expect(imports.sourceOf("web/server/api/run.post.ts", "useRender")).toBeUndefined();
    expect(imports.sourceOf("api/run.ts", "useComfy")).toBeUndefined();
    expect(imports.exportsOf("web/server/utils/comfy.ts")?.names.sort()).toEqual(["RUNS", "useComfy"]);
    expect(imports.exportsOf("web/server/utils/comfy.ts")?.sees("web/server/api/run.post.ts")).toBe(true);
    expect(imports.exportsOf("web/server/utils/comfy.ts")?.sees("web/pages/index.ts")).toBe(false);
  });

  it("names a default export after its module in camelCase, and reads export lists and aliases", () => {
    const imports = table({
      "nuxt.config.js": "export default {};\n",
      "app/composables/use-comfy-client.ts": "export default function () {}\n",
      "utils/index.ts": "const a = 1, b = 2;\nexport { a, b as comfyClient, type T };\n",
    });
    expect(imports.sourceOf("app/pages/x.ts", "useComfyClient")).toEqual({
      file: "app/composables/use-comfy-client.ts",
      name: "default",
    });
    expect(imports.sourceOf("app/pages/x.ts", "comfyClient")?.name).toBe("comfyClient");
    expect(imports.sourceOf("app/pages/x.ts", "a")?.file).toBe("utils/index.ts");
    expect(imports.sourceOf("app/pages/x.ts", "b")).toBeUndefined();
  });

  it("reads a Nitro app's utils/, and has nothing without a Nuxt or Nitro config", () => {
    expect(
      table({
        "nitro.config.ts": "export default {};\n",
        "utils/comfy.ts": "export const getClient = () => 1;\n",
      }).sourceOf("routes/run.post.ts", "getClient")?.file,
    ).toBe("utils/comfy.ts");
    const plain = table({ "server/utils/comfy.ts": "export function useComfy() {}\n" }, ["server/api/run.ts"]);
    expect(plain.empty).toBe(true);
    expect(plain.sourceOf("server/api/run.ts", "useComfy")).toBeUndefined();
  });
});
