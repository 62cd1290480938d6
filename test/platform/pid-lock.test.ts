/** The pid lock file: one owner at a time, a bounded wait, a dead owner's lock taken over with what it recorded. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { acquireLock, LockBusy } from "../../src/platform/pid-lock.js";
import { REPO_ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-repo.js";

/** A pid that no running process has: one of a child that has ended. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout,
  );
}

const firstLine = (path: string): string => readFileSync(path, "utf8").split("\n", 1)[0]!;

describe("acquireLock", () => {
  it("names the owner's pid and host, and a second taker waits until the first releases", async () => {
    const path = join(tempDir(), "clone.lock");
    const first = await acquireLock(path, { waitMs: 5_000, pollMs: 10, what: "the clone" });
    expect(firstLine(path)).toContain(`pid=${process.pid} host=${hostname()}`);
    const order: string[] = [];
    const second = acquireLock(path, { waitMs: 5_000, pollMs: 10, what: "the clone" }).then((lock) => {
      order.push("second acquired");
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push("first released");
    first.release();
    (await second).release();
    expect(order).toEqual(["first released", "second acquired"]);
    expect(existsSync(path)).toBe(false);
  });

  it("gives up after the bound, naming the owner", async () => {
    const path = join(tempDir(), "clone.lock");
    const held = await acquireLock(path, { waitMs: 1_000, what: "the clone" });
    await expect(acquireLock(path, { waitMs: 100, pollMs: 10, what: "the clone of x" })).rejects.toThrow(
      `the clone of x is in use by process ${process.pid}`,
    );
    held.release();
  });

  it("refuses at once without a wait, with the owner on the error", async () => {
    const path = join(tempDir(), "tree.lock");
    const held = await acquireLock(path, { waitMs: 1_000, what: "the tree" });
    const refused = await acquireLock(path, { waitMs: 0, what: "the tree" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LockBusy);
    expect((refused as LockBusy).owner).toEqual({ pid: process.pid, host: hostname() });
    expect((refused as LockBusy).message).not.toContain("waited");
    held.release();
  });

  it("takes over a lock whose owner is no longer running, and hands on the lines that owner recorded", async () => {
    const path = join(tempDir(), "clone.lock");
    writeFileSync(
      path,
      `comfydeploy-migrate lock pid=${deadPid()} host=${hostname()} started=x\n/tmp/a.tmp\n/tmp/b.tmp\n`,
    );
    const lock = await acquireLock(path, { waitMs: 100, pollMs: 10, what: "the clone" });
    expect(firstLine(path)).toContain(`pid=${process.pid}`);
    expect(lock.leftBehind).toEqual(["/tmp/a.tmp", "/tmp/b.tmp"]);
    lock.record("/tmp/c.tmp");
    expect(readFileSync(path, "utf8").split("\n").slice(1)).toEqual(["/tmp/c.tmp", ""]);
    lock.release();
  });

  it("takes over a bare pid lock an older version left", async () => {
    const path = join(tempDir(), "clone.lock");
    writeFileSync(path, `${deadPid()}\n`);
    const lock = await acquireLock(path, { waitMs: 100, pollMs: 10, what: "the clone" });
    expect(firstLine(path)).toContain(`pid=${process.pid}`);
    lock.release();
  });

  it("never takes over a lock held on another host, whose process it cannot look at", async () => {
    const path = join(tempDir(), "clone.lock");
    writeFileSync(path, `comfydeploy-migrate lock pid=${deadPid()} host=build-server-7 started=x\n`);
    await expect(acquireLock(path, { waitMs: 100, pollMs: 10, what: "the clone" })).rejects.toThrow(
      /in use by process \d+ on build-server-7/,
    );
    expect(firstLine(path)).toContain("host=build-server-7");
  });

  it("takes over a lock file left without an owner once it is older than a starting run could be", async () => {
    const path = join(tempDir(), "clone.lock");
    writeFileSync(path, "");
    await expect(acquireLock(path, { waitMs: 0, what: "the clone" })).rejects.toThrow(
      "in use by a process that is starting",
    );
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(path, minuteAgo, minuteAgo);
    const lock = await acquireLock(path, { waitMs: 0, what: "the clone" });
    expect(firstLine(path)).toContain(`pid=${process.pid}`);
    lock.release();
  });

  it("release leaves a lock that another run has taken over meanwhile", async () => {
    const path = join(tempDir(), "clone.lock");
    const lock = await acquireLock(path, { waitMs: 0, what: "the clone" });
    writeFileSync(path, "comfydeploy-migrate lock pid=1 host=elsewhere started=x\n");
    lock.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(path)).toBe(true);
  });

  it("an exit releases the locks the process still holds", () => {
    const path = join(tempDir(), "clone.lock");
    const module = pathToFileURL(join(REPO_ROOT, "dist", "src", "platform", "pid-lock.js")).href;
    const child = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { acquireLock } = await import(${JSON.stringify(module)}); await acquireLock(process.argv[1], { waitMs: 0, what: "x" }); process.exit(0);`,
        path,
      ],
      { encoding: "utf8" },
    );
    expect(child.status, child.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
  });
});
