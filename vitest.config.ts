import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The scanner reaches ts-morph through a CommonJS bridge (src/scan/js/typescript-api.cts) that only the build compiles: tests import ts-morph itself.
    alias: [{ find: /^\.\/typescript-api\.cjs$/, replacement: "ts-morph" }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
