/**
 * One writing fix per tree at a time. The lock file (in the git directory,
 * else in the tree) holds the pid of the run that writes, then the path of
 * each temp file it creates before it creates it: a killed run leaves its
 * list behind, so the next run removes exactly the temp files that run made
 * (its name pattern and its list), never a user's `app.js.20250101`.
 * A lock whose process is gone is taken over.
 */
import { appendFileSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { UsageError } from "../core/errors.js";
import { gitOutput } from "../platform/git.js";

const LOCK_NAME = ".comfydeploy-migrate-fix.lock";
const HEADER = /^comfydeploy-migrate fix lock pid=(\d+) host=(\S*)/;

/** fix's temp names: `.<name>.cdm-<pid>-<n>.tmp` beside the file; hidden, so an editor or a glob does not pick them up. */
const TEMP_NAME = /^\..+\.cdm-\d+-\d+\.tmp$/;

export class FixLock {
  private count = 0;
  /** An interrupted run (Ctrl-C exits from its handler) gives the lock up too. */
  private readonly onExit = (): void => this.release();

  private constructor(
    readonly file: string,
    /** Temp files a killed run had left, removed when the lock was taken over (absolute paths). */
    readonly removedTemps: readonly string[],
  ) {
    process.once("exit", this.onExit);
  }

  /** Takes the lock for `root`, or refuses (a usage error) while another fix writes there. */
  static async acquire(root: string): Promise<FixLock> {
    const file = join(await lockDir(root), LOCK_NAME);
    const header = `comfydeploy-migrate fix lock pid=${process.pid} host=${hostname()} started=${new Date().toISOString()}\n`;
    try {
      writeFileSync(file, header, { flag: "wx" });
      return new FixLock(file, []);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const previous = readFileSync(file, "utf8");
    const holder = HEADER.exec(previous);
    if (holder && (holder[2] !== hostname() || isAlive(Number(holder[1])))) {
      throw new UsageError(`another fix is writing to this tree (pid ${holder[1]}${holder[2] !== hostname() ? ` on ${holder[2]}` : ""}); wait for it to end, or remove ${file} if none runs`);
    }
    // The run that held it is gone: its temp files (listed, and named as fix names them) go with it.
    const removed = previous
      .split("\n")
      .slice(1)
      .filter((path) => path !== "" && TEMP_NAME.test(basename(path)))
      .filter((path) => {
        try {
          unlinkSync(path);
          return true;
        } catch {
          return false;
        }
      });
    const next = `${file}.${process.pid}`;
    writeFileSync(next, header);
    renameSync(next, file);
    return new FixLock(file, removed);
  }

  /** A new temp path beside `target`, listed in the lock before anything is created there. */
  tempFor(target: string): string {
    const temp = join(target, "..", `.${basename(target)}.cdm-${process.pid}-${++this.count}.tmp`);
    appendFileSync(this.file, `${temp}\n`);
    return temp;
  }

  release(): void {
    process.off("exit", this.onExit);
    try {
      if (HEADER.exec(readFileSync(this.file, "utf8"))?.[1] === String(process.pid)) unlinkSync(this.file);
    } catch {
      // Already gone.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The git directory of the tree (a lock there leaves the work tree clean), else the tree itself. */
async function lockDir(root: string): Promise<string> {
  const gitDir = await gitOutput(root, ["rev-parse", "--absolute-git-dir"]).catch(() => undefined);
  return gitDir?.trim() || root;
}
