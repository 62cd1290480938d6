/** Runs the built CLI as a user would: a child process, no TTY, and not on GitHub Actions unless a test says so. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dirname, "..", "..");
export const CLI = join(REPO_ROOT, "dist", "src", "cli.js");

/** The Actions variables that change the CLI's defaults (format, step summary); undefined removes them. */
const NOT_ON_ACTIONS: NodeJS.ProcessEnv = { GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): CliResult {
  if (!existsSync(CLI)) throw new Error(`build the CLI first (npm run build): ${CLI} is missing`);
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...NOT_ON_ACTIONS, NO_COLOR: "1", ...options.env },
    encoding: "utf8",
    input: options.input ?? "",
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Like runCli, but without blocking: needed when the test process itself serves the CLI's requests. */
export function runCliAsync(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`build the CLI first (npm run build): ${CLI} is missing`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...NOT_ON_ACTIONS, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** `serve` running as a child process: its base URL, and stop() that ends it with SIGTERM and waits. */
export interface ServeProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts `comfydeploy-migrate serve --port 0 <args>` and resolves once it prints where it listens. */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  // serve logs each request on stderr: drained, so a full pipe never blocks it.
  child.stderr!.resume();
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  return {
    baseUrl,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
