/** The published tarball installs and runs in an empty directory, as `npx comfydeploy-migrate` would. */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

describe("npm pack", () => {
  it("gives a tarball that installs and scans in an empty directory", () => {
    const work = mkdtempSync(join(tmpdir(), "cdm-pack-"));
    execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work], { cwd: REPO_ROOT, stdio: "pipe" });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    expect(tarball).toBeDefined();

    const app = join(work, "app");
    cpSync(join(REPO_ROOT, "fixtures", "demo-app"), app, { recursive: true });
    execFileSync("npm", ["init", "-y"], { cwd: work, stdio: "pipe" });
    writeFileSync(join(work, ".npmrc"), "fund=false\naudit=false\n");
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", join(work, tarball!)], {
      cwd: work,
      stdio: "pipe",
      timeout: 300_000,
    });

    const bin = join(work, "node_modules", ".bin", "comfydeploy-migrate");
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^comfydeploy-migrate \d/);

    const scan = spawnSync(bin, ["scan", app, "--format", "json"], { encoding: "utf8" });
    expect(scan.status).toBe(1);
    expect((JSON.parse(scan.stdout) as { summary: { total: number } }).summary.total).toBeGreaterThan(10);
  }, 300_000);
});
