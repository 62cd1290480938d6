/**
 * Foreign code: fix --dry-run over the project's own node_modules (thousands of
 * JS/TS files nobody wrote for this tool) changes nothing and crashes on
 * nothing, and the codemods leave a sample of those files byte-identical.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";
import { loadTransforms } from "../../transforms/index.js";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { REPO_ROOT, runCliAsync } from "../helpers/cli.js";

const NODE_MODULES = join(REPO_ROOT, "node_modules");

describe("foreign code", () => {
  it("fix --dry-run over node_modules plans no change and exits cleanly", async () => {
    // The V1 SDK itself (the test suite's control copy) is V1 code, not foreign code.
    const run = await runCliAsync([
      "fix",
      NODE_MODULES,
      "--dry-run",
      "--all-files",
      "--include",
      "**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts}",
      "--exclude",
      "comfydeploy-v1/**",
      "--fail-on",
      "none",
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("would change 0 files");
  }, 240_000);

  it("the codemods return a sample of node_modules files unchanged", async () => {
    const files = (
      await fg("**/*.{js,mjs,cjs,ts}", { cwd: NODE_MODULES, ignore: ["**/*.d.ts", "**/*.min.js"] })
    ).sort();
    expect(files.length).toBeGreaterThan(1000);
    const sample = files.filter((_, i) => i % Math.ceil(files.length / 150) === 0);
    const codemods = (await loadTransforms())
      .filter((t) => t.id === "v2-endpoints" || t.id === "v2-sdk")
      .flatMap((t) => t.parts.filter((part) => part.appliesTo("x.ts")));
    let applied = 0;
    for (const file of sample) {
      const text = readFileSync(join(NODE_MODULES, file), "utf8");
      if (text.length > 400_000) continue;
      for (const transform of codemods) {
        if (!transform.appliesTo(file)) continue;
        let output: string;
        try {
          output = (
            await transform.apply(text, {
              file,
              hosts: DEFAULT_HOSTS,
              findings: [],
              nodeRef: DEFAULT_NODE_REF,
              unmigratedSdkUse: new Map(),
              removeUnused: false,
              useSupportModule: () => {
                throw new Error("no support module is asked for without findings");
              },
            })
          ).text;
        } catch {
          continue; // a file the parser rejects is skipped by the runner, never half-rewritten
        }
        expect(output, file).toBe(text);
        applied++;
      }
    }
    expect(applied).toBeGreaterThan(100);
  }, 240_000);
});
