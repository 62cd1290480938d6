/** The pid lock file: one owner at a time, a bounded wait, a dead owner's lock taken over. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock } from "../../src/platform/pid-lock.js";
import { tempDir } from "../helpers/temp-repo.js";

/** A pid that no running process has: one of a child that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

describe("acquireLock", () => {
  it("writes the owner's pid, and a second taker waits until the first releases", async () => {
    const path = join(tempDir(), "clone.lock");
    const first = await acquireLock(path, { waitMs: 5_000, pollMs: 10, what: "the clone" });
    expect(readFileSync(path, "utf8").trim()).toBe(String(process.pid));
    const order: string[] = [];
    const second = acquireLock(path, { waitMs: 5_000, pollMs: 10, what: "the clone" }).then((lock) => {
      order.push("second acquired");
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push("first released");
    await first.release();
    await (await second).release();
    expect(order).toEqual(["first released", "second acquired"]);
    expect(existsSync(path)).toBe(false);
  });

  it("gives up after the bound, naming the owner", async () => {
    const path = join(tempDir(), "clone.lock");
    const held = await acquireLock(path, { waitMs: 1_000, what: "the clone" });
    await expect(acquireLock(path, { waitMs: 100, pollMs: 10, what: "the clone of x" })).rejects.toThrow(`the clone of x is in use by process ${process.pid}`);
    await held.release();
  });

  it("takes over a lock whose owner is no longer running", async () => {
    const path = join(tempDir(), "clone.lock");
    writeFileSync(path, `${deadPid()}\n`);
    const lock = await acquireLock(path, { waitMs: 100, pollMs: 10, what: "the clone" });
    expect(readFileSync(path, "utf8").trim()).toBe(String(process.pid));
    await lock.release();
  });
});
