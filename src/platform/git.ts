/**
 * The one way the tool runs git. Every call gets settings that keep a
 * repository's own configuration from running commands (fsmonitor, hooks,
 * the ext:: transport, credential helpers when the tool brings its own
 * credential), a scrubbed environment (child-env.ts), no prompts and
 * English messages. Credentials travel per command in git's environment
 * config, only to commands that talk to a remote, and are never written to
 * a repository's .git/config.
 */
import { spawn, spawnSync } from "node:child_process";
import { RuntimeFailure } from "../core/errors.js";
import { gitEnv } from "./child-env.js";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitCallOptions {
  /** Extra environment (identity for commits). */
  env?: NodeJS.ProcessEnv;
  /** Config entries for commands that talk to a remote only: the credential. */
  credentials?: ReadonlyArray<readonly [string, string]>;
}

/**
 * Set on every call, after anything a repository's .git/config says.
 * Hooks point at a path that is not a directory, so no hook is found.
 */
export const SAFE_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["protocol.ext.allow", "never"],
];

/** Sub-commands that reach a remote: only these see credentials and askpass programs. */
const NETWORK_COMMANDS = new Set(["clone", "fetch", "pull", "push", "ls-remote"]);

/** The sub-command of an argument list, skipping global options (`-c k=v`, `-C dir`). */
export function subcommandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg === "-C") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/** The environment a git call runs with: scrubbed, safe settings and, for network commands, the credential. */
export function gitCallEnv(args: readonly string[], options: GitCallOptions = {}): NodeJS.ProcessEnv {
  const network = NETWORK_COMMANDS.has(subcommandOf(args) ?? "");
  const base = gitEnv(process.env, { network });
  const credentials =
    network && options.credentials?.length ? [["credential.helper", ""] as const, ...options.credentials] : [];
  return {
    ...base,
    LC_ALL: "C",
    LANGUAGE: "C",
    GIT_TERMINAL_PROMPT: "0",
    GCM_INTERACTIVE: "never",
    ...options.env,
    ...configEnv(base, [...SAFE_CONFIG, ...credentials]),
  };
}

/** Runs git; a non-zero exit is an answer in the result, a git that cannot start is a RuntimeFailure. */
export async function runGit(cwd: string, args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> {
  const out: Buffer[] = [];
  const { code, stderr } = await streamGit(cwd, args, (chunk) => out.push(chunk), options);
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr };
}

/**
 * Runs git like runGit, handing its output to `onStdout` chunk by chunk as git
 * writes it: a long listing can be put to use before git has finished it.
 */
export function streamGit(
  cwd: string,
  args: readonly string[],
  onStdout: (chunk: Buffer) => void,
  options: GitCallOptions = {},
): Promise<Omit<GitResult, "stdout">> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: gitCallEnv(args, options), stdio: ["ignore", "pipe", "pipe"] });
    const err: Buffer[] = [];
    child.stdout.on("data", onStdout);
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new RuntimeFailure(
          error.code === "ENOENT" ? "git is not installed or not on PATH" : `cannot run git: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) => resolve({ code: code ?? 1, stderr: Buffer.concat(err).toString("utf8") }));
  });
}

/** git's output when it succeeds, else undefined: for questions whose "no" is an answer (is this a repository?). */
export async function gitOutput(cwd: string, args: readonly string[]): Promise<string | undefined> {
  const result = await runGit(cwd, args).catch(() => undefined);
  return result?.code === 0 ? result.stdout : undefined;
}

/** The synchronous form, for signal handlers and the scanners' one-off lookups. */
export function runGitSync(cwd: string, args: readonly string[], timeoutMs = 10_000): GitResult {
  const result = spawnSync("git", args, {
    cwd,
    env: gitCallEnv(args),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: timeoutMs,
  });
  return { code: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** Config entries as GIT_CONFIG_COUNT/KEY/VALUE, after any the caller's environment already has, so these win. */
function configEnv(base: NodeJS.ProcessEnv, entries: ReadonlyArray<readonly [string, string]>): NodeJS.ProcessEnv {
  const start = Number.parseInt(base.GIT_CONFIG_COUNT ?? "0", 10) || 0;
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(start + entries.length) };
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${start + i}`] = key;
    env[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return env;
}
