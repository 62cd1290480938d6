/** Layers point down: `check` talks to the service, never to the emulator's code. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");

function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);
}

describe("layers", () => {
  it.each(["check", "commands/check.ts"])("src/%s imports nothing from src/serve", (where) => {
    const target = join(SRC, where);
    const files = where.endsWith(".ts") ? [target] : modulesUnder(target);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const fromServe = importsOf(file).filter((spec) => /(^|\/)serve\//.test(spec));
      expect(fromServe, relative(SRC, file)).toEqual([]);
    }
  });

  it("serve and check read which run statuses are terminal from src/knowledge", () => {
    for (const file of [join(SRC, "serve", "runs.ts"), join(SRC, "check", "live-check.ts")]) {
      expect(importsOf(file), relative(SRC, file)).toContain("../knowledge/run-record.js");
    }
  });
});
