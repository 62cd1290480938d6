/**
 * The scanner's modules take ts-morph's TypeScript namespace from the
 * CommonJS bridge: an ES module importing "ts-morph" itself makes Node lex
 * ts-morph's CommonJS for its named exports on every run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const BUILT_BRIDGE = join(ROOT, "dist", "src", "scan", "js", "typescript-api.cjs");

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

describe("typescript-api bridge", () => {
  it("is how every scanner module gets the TypeScript namespace", () => {
    const direct = tsFiles("src/scan").filter((file) =>
      /^import\s+(?!type\b)[^;]*from\s+"ts-morph";/m.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(direct).toEqual([]);
    const bridged = tsFiles("src/scan").filter((file) =>
      readFileSync(join(ROOT, file), "utf8").includes('from "./typescript-api.cjs"'),
    );
    expect(bridged.length).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(BUILT_BRIDGE))("hands out ts-morph's own namespace once built", () => {
    const bridge = createRequire(import.meta.url)(BUILT_BRIDGE) as { ts: typeof ts };
    expect(bridge.ts).toBe(ts);
    expect(typeof bridge.ts.createSourceFile).toBe("function");
  });
});
