/** TypeScript for the analyser: loaded without ts-morph's own bundles, which load as usual afterwards. */
import module, { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { withTypeScriptOnly } from "../../src/platform/typescript.js";

const require = createRequire(import.meta.url);
const tsMorphPath = require.resolve("ts-morph");
const cache = (module as unknown as { _cache: Record<string, unknown> })._cache;

describe("withTypeScriptOnly", () => {
  it("answers require('ts-morph') with TypeScript alone while loading, and leaves ts-morph to load as usual after", async () => {
    const before = cache[tsMorphPath];
    delete cache[tsMorphPath];
    try {
      const seen = await withTypeScriptOnly(async () => require("ts-morph") as Record<string, unknown>);
      const ts = seen.ts as { createSourceFile?: unknown; SyntaxKind?: Record<string, number> };
      expect(typeof ts.createSourceFile).toBe("function");
      expect(ts.SyntaxKind?.Identifier).toBeGreaterThan(0);
      expect(seen.Project).toBeUndefined();
      expect(cache[tsMorphPath]).toBeUndefined();
      const real = require("ts-morph") as { Project?: unknown; ts: { SyntaxKind: Record<string, number> } };
      expect(typeof real.Project).toBe("function");
      expect(real.ts.SyntaxKind.Identifier).toBe(ts.SyntaxKind?.Identifier);
    } finally {
      if (before) cache[tsMorphPath] = before;
      else delete cache[tsMorphPath];
    }
  });

  it("removes its stand-in when the load fails", async () => {
    const before = cache[tsMorphPath];
    delete cache[tsMorphPath];
    try {
      await expect(withTypeScriptOnly(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
      expect(cache[tsMorphPath]).toBeUndefined();
    } finally {
      if (before) cache[tsMorphPath] = before;
      else delete cache[tsMorphPath];
    }
  });

  it("leaves an already loaded ts-morph alone", async () => {
    const real = require("ts-morph") as object;
    const seen = await withTypeScriptOnly(async () => require("ts-morph") as object);
    expect(seen).toBe(real);
  });
});
