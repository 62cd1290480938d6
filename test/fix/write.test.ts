/**
 * What fix writes, and what it leaves: only temp files a killed run of fix
 * made are removed, a second fix on the tree is refused while one runs, a
 * file that changed since the scan is not rewritten with stale findings,
 * read-only files are left unless asked, and a symbolic link out of the tree
 * is not written through.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { type FixOptions, planFixes } from "../../src/fix/runner.js";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const V1_FILE =
  'export const queue = (body: string) => fetch("https://www.comfydeploy.com/api/run", { method: "POST", body });\n';
const V2_HOST = "https://api.comfydeploy.com/api";

function options(root: string, extra: Partial<FixOptions> = {}): FixOptions {
  return { root, hosts: DEFAULT_HOSTS, transforms: ["v2-endpoints"], nodeRef: DEFAULT_NODE_REF, write: true, ...extra };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

function git(cwd: string, ...args: string[]): void {
  spawnSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], {
    cwd,
  });
}

describe("temp files", () => {
  it("never removes a user's dated copy or numbered dotfile beside a file fix writes", async () => {
    const root = tempRepo({
      "app.ts": V1_FILE,
      "app.ts.20250101": "a dated copy\n",
      ".env": "API=https://www.comfydeploy.com/api/run\n",
      ".env.1": "KEY=kept\n",
    });
    const plan = await planFixes(options(root));
    expect(plan.changes.map((c) => c.file)).toContain("app.ts");
    expect(plan.removedTemps).toEqual([]);
    expect(readFileSync(join(root, "app.ts.20250101"), "utf8")).toBe("a dated copy\n");
    expect(readFileSync(join(root, ".env.1"), "utf8")).toBe("KEY=kept\n");
  });

  it("removes the temp files a killed fix listed in its lock, and nothing else of that name", async () => {
    const root = tempRepo({ "app.ts": V1_FILE, "keep.ts": "export {};\n" });
    const leftByKill = join(root, ".app.ts.cdm-4242-1.tmp");
    const notListed = join(root, ".keep.ts.cdm-4242-2.tmp");
    const listedButNotATemp = join(root, "keep.ts");
    writeFileSync(leftByKill, "half");
    writeFileSync(notListed, "someone else's");
    writeFileSync(
      join(root, ".comfydeploy-migrate-fix.lock"),
      `comfydeploy-migrate fix lock pid=${deadPid()} host=${hostname()} started=x\n${leftByKill}\n${listedButNotATemp}\n`,
    );
    const plan = await planFixes(options(root));
    expect(plan.removedTemps).toEqual([".app.ts.cdm-4242-1.tmp"]);
    expect(existsSync(leftByKill)).toBe(false);
    expect(existsSync(notListed)).toBe(true);
    expect(existsSync(listedButNotATemp)).toBe(true);
    expect(readFileSync(join(root, "app.ts"), "utf8")).toContain(V2_HOST);
    // The run's own lock is gone when it ends.
    expect(existsSync(join(root, ".comfydeploy-migrate-fix.lock"))).toBe(false);
  });
});

describe("two fixes on one tree", () => {
  it("refuses the second while the first runs (one line, exit 2), and leaves the files as they are", async () => {
    const root = tempRepo({ "app.ts": V1_FILE });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "v1");
    const running = spawn("sleep", ["30"]);
    try {
      const gitDir = join(root, ".git");
      writeFileSync(
        join(gitDir, ".comfydeploy-migrate-fix.lock"),
        `comfydeploy-migrate fix lock pid=${running.pid} host=${hostname()} started=x\n`,
      );
      const second = runCli(["fix", root]);
      expect(second.status).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`another fix is writing to this tree \\(pid ${running.pid}\\)`));
      expect(second.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(join(root, "app.ts"), "utf8")).toBe(V1_FILE);
    } finally {
      running.kill();
    }
  });

  it("takes over the lock of a fix that is gone, and leaves the work tree clean", () => {
    const root = tempRepo({ "app.ts": V1_FILE });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "v1");
    writeFileSync(
      join(root, ".git", ".comfydeploy-migrate-fix.lock"),
      `comfydeploy-migrate fix lock pid=${deadPid()} host=${hostname()} started=x\n`,
    );
    const result = runCli(["fix", root, "--fail-on", "none"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(readFileSync(join(root, "app.ts"), "utf8")).toContain(V2_HOST);
    expect(existsSync(join(root, ".git", ".comfydeploy-migrate-fix.lock"))).toBe(false);
  });
});

describe("a file that changed after the scan", () => {
  it("is left as it now is, with the reason, not rewritten with the scan's stale findings", async () => {
    const root = tempRepo({ "a.ts": V1_FILE, "b.ts": V1_FILE });
    const edited = `// moved down by an editor\n\n\n${V1_FILE.replace("fetch(", "globalThis.fetch(")}`;
    const plan = await planFixes(
      options(root, {
        // While fix works on a.ts, someone saves b.ts.
        onFileDone: (done) => {
          if (done === 1) writeFileSync(join(root, "b.ts"), edited);
        },
      }),
    );
    expect(plan.changes.map((c) => c.file)).toEqual(["a.ts"]);
    expect(plan.skipped).toEqual([{ file: "b.ts", reason: expect.stringMatching(/changed since the scan/) }]);
    expect(readFileSync(join(root, "b.ts"), "utf8")).toBe(edited);
  });
});

describe("read-only files", () => {
  it("are left, saying which option rewrites them; with it, rewritten and still read-only", async () => {
    const root = tempRepo({ "app.ts": V1_FILE });
    chmodSync(join(root, "app.ts"), 0o444);
    const plan = await planFixes(options(root));
    expect(plan.changes).toEqual([]);
    expect(plan.skipped).toEqual([
      { file: "app.ts", reason: expect.stringContaining("read-only; fix leaves it unchanged (pass --write-read-only") },
    ]);
    expect(readFileSync(join(root, "app.ts"), "utf8")).toBe(V1_FILE);

    const forced = await planFixes(options(root, { writeReadOnly: true }));
    expect(forced.changes.map((c) => c.file)).toEqual(["app.ts"]);
    expect(readFileSync(join(root, "app.ts"), "utf8")).toContain(V2_HOST);
    expect(statSync(join(root, "app.ts")).mode & 0o777).toBe(0o444);
  });
});

describe("symbolic links", () => {
  it("a file swapped for a link out of the tree after the scan is not written through", async () => {
    const outside = tempDir();
    writeFileSync(join(outside, "victim.ts"), V1_FILE);
    const root = tempRepo({ "a.ts": V1_FILE, "b.ts": V1_FILE });
    const plan = await planFixes(
      options(root, {
        // Same bytes as scanned, so only the link itself tells.
        onFileDone: (done) => {
          if (done !== 1) return;
          rmSync(join(root, "b.ts"));
          symlinkSync(join(outside, "victim.ts"), join(root, "b.ts"));
        },
      }),
    );
    expect(readFileSync(join(outside, "victim.ts"), "utf8")).toBe(V1_FILE);
    expect(plan.changes.map((c) => c.file)).toEqual(["a.ts"]);
    expect(plan.skipped).toEqual([
      { file: "b.ts", reason: expect.stringContaining("symbolic link that leads out of the tree") },
    ]);
  });
});
