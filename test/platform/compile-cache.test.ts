import { describe, expect, it, vi } from "vitest";
import { enableCompileCache } from "../../src/platform/compile-cache.js";

describe("enableCompileCache", () => {
  it("turns the cache on where Node has the call", () => {
    const api = { enableCompileCache: vi.fn(() => ({ status: 1 })) };
    expect(enableCompileCache(api, {})).toBe(true);
    expect(api.enableCompileCache).toHaveBeenCalledOnce();
  });

  it("does nothing on a Node without it (Node 20)", () => {
    expect(enableCompileCache({}, {})).toBe(false);
  });

  it("leaves it off when NODE_DISABLE_COMPILE_CACHE is set, as Node's own flag does", () => {
    const api = { enableCompileCache: vi.fn() };
    expect(enableCompileCache(api, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBe(false);
    expect(api.enableCompileCache).not.toHaveBeenCalled();
  });

  it("never fails the command when the cache cannot be set up", () => {
    const api = {
      enableCompileCache: () => {
        throw new Error("EACCES");
      },
    };
    expect(enableCompileCache(api, {})).toBe(false);
  });
});
