/** A reader that goes away (`scan | head`) ends the output quietly: no EPIPE stack trace, the run's own exit code. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, REPO_ROOT } from "../helpers/cli.js";

describe("stdout closed early", () => {
  it("prints no stack trace and still exits 1 for findings", async () => {
    const child = spawn(process.execPath, [CLI, "scan", join(REPO_ROOT, "fixtures", "demo-app"), "--format", "json"], {
      env: { ...process.env, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the reader is gone before the first byte
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(status).toBe(1);
  });
});
