/** The documented offline flow (npm run demo:e2e): scan → fix --dry-run → check against the emulator. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

describe("npm run demo:e2e", () => {
  it("scans, plans the fix and gets READY from the emulator", () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "demo-e2e.mjs")], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /=== 1\. scan[\s\S]*=== 2\. fix \(dry run\)[\s\S]*would change \d+ files?[\s\S]*READY: run [0-9a-f-]{36} succeeded/,
    );
  }, 150_000);
});
