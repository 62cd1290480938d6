/**
 * A fix that is stopped halfway: SIGKILL leaves files either as they were or
 * fixed (writes are atomic) and possibly a write's temp file, which the next
 * run removes (only temp files the killed run listed in its lock, never a
 * user's look-alike); SIGINT/SIGTERM print the command that undoes the run.
 */
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const FILES = 300;
const V1_HOST = "https://www.comfydeploy.com/api";
const V2_HOST = "https://api.comfydeploy.com/api";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repoWithManyFiles(options: { git: boolean } = { git: true }): string {
  const files: Record<string, string> = { "package.json": '{ "name": "many" }\n', "notes.txt": "plain\n" };
  for (let i = 0; i < FILES; i++) {
    files[`src/m${i}.ts`] =
      `const API = "${V1_HOST}";\nexport const queue${i} = (body: string) => fetch(\`\${API}/run\`, { method: "POST", body });\n`;
  }
  const dir = tempRepo(files, "cdm-fix-interrupt-");
  dirs.push(dir);
  // A tracked file whose name looks like a temp file: never removed.
  writeFileSync(join(dir, "src/m1.ts.20240101"), "a dated copy the user keeps\n");
  if (!options.git) return dir;
  const git = (...args: string[]): void => void execFileSync("git", args, { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "many");
  return dir;
}

const fixedCount = (dir: string): number =>
  Array.from({ length: FILES }, (_, i) => readFileSync(join(dir, `src/m${i}.ts`), "utf8")).filter((t) =>
    t.includes(V2_HOST),
  ).length;

/** Starts fix, sends `signal` once it has written at least one file, and resolves with its exit. */
function interruptFix(
  dir: string,
  signal: NodeJS.Signals,
  extraArgs: string[] = [],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; fixedAtSignal: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "fix", dir, "--fail-on", "none", ...extraArgs], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let fixedAtSignal = -1;
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const poll = setInterval(() => {
      const fixed = fixedCount(dir);
      if (fixed === 0) return;
      clearInterval(poll);
      fixedAtSignal = fixed;
      child.kill(signal);
    }, 5);
    child.on("error", reject);
    child.on("close", (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig, stderr, fixedAtSignal });
    });
  });
}

const tempFiles = (dir: string): string[] =>
  readdirSync(join(dir, "src")).filter((name) => /\.ts\.\d+$|\.cdm-\d+-\d+\.tmp$/.test(name));

describe("an interrupted fix", () => {
  it("after SIGKILL: every file whole, and the next run removes the temp files and finishes the job", async () => {
    const dir = repoWithManyFiles();
    const killed = await interruptFix(dir, "SIGKILL");
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.fixedAtSignal).toBeGreaterThan(0);
    const fixedByFirst = fixedCount(dir);
    expect(fixedByFirst).toBeLessThan(FILES);
    // Every file is either untouched or fully fixed: nothing half-written.
    for (let i = 0; i < FILES; i++) {
      const text = readFileSync(join(dir, `src/m${i}.ts`), "utf8");
      expect(text.includes(V1_HOST) !== text.includes(V2_HOST)).toBe(true);
    }
    // What a kill during a write leaves: a temp file the killed run listed in its lock, beside a file not fixed yet.
    const lock = join(dir, ".git", ".comfydeploy-migrate-fix.lock");
    const killedPid = /pid=(\d+)/.exec(readFileSync(lock, "utf8"))![1];
    const unfixed = Array.from({ length: FILES }, (_, i) => `m${i}.ts`).filter((name) =>
      readFileSync(join(dir, "src", name), "utf8").includes(V1_HOST),
    );
    const leftByKill = join(dir, "src", `.${unfixed[0]}.cdm-${killedPid}-99999.tmp`);
    writeFileSync(leftByKill, "partial");
    appendFileSync(lock, `${leftByKill}\n`);
    // Look-alikes fix did not list are the user's, whatever their names.
    for (const name of unfixed.slice(1, 3)) writeFileSync(join(dir, "src", `${name}.3735928559`), "the user's");
    writeFileSync(join(dir, "notes.txt.123456789"), "not next to a file fix writes\n");

    const rerun = runCli(["fix", dir, "--allow-dirty", "--fail-on", "error"]);
    expect(rerun.stderr).toBe("");
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toMatch(new RegExp(`fix changed ${FILES - fixedByFirst} files`));
    expect(rerun.stdout).toMatch(/Removed [1-9]\d* temp files? an interrupted fix had left/);
    expect(fixedCount(dir)).toBe(FILES);
    expect(tempFiles(dir).sort()).toEqual(
      ["m1.ts.20240101", ...unfixed.slice(1, 3).map((name) => `${name}.3735928559`)].sort(),
    );
    expect(existsSync(leftByKill)).toBe(false);
    expect(existsSync(join(dir, "notes.txt.123456789"))).toBe(true);
  }, 120_000);

  it.each(["SIGINT", "SIGTERM"] as const)(
    "on %s prints the command that undoes the run",
    async (signal) => {
      const dir = repoWithManyFiles();
      const stopped = await interruptFix(dir, signal);
      expect(stopped.code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(stopped.stderr).toMatch(/fix was interrupted after writing \d+ files?/);
      expect(stopped.stderr).toContain("To undo the run: git checkout -- . && git clean -fd");
      expect(tempFiles(dir)).toEqual(["m1.ts.20240101"]);
      execFileSync("sh", ["-c", "git checkout -- . && git clean -fd"], { cwd: dir, stdio: "ignore" });
      expect(fixedCount(dir)).toBe(0);
    },
    120_000,
  );

  it("outside git (with --allow-dirty) says there is nothing git can undo", async () => {
    const dir = repoWithManyFiles({ git: false });
    const stopped = await interruptFix(dir, "SIGINT", ["--allow-dirty"]);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(
      /fix was interrupted after writing \d+ files? \(each one whole\)\. This is not a git repository: restore the files from your copy\./,
    );
    expect(stopped.stderr).not.toContain("git checkout");
  }, 120_000);
});
