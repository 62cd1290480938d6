/**
 * `fix --verify`: after rewriting, checks run on the files fix changed,
 * where they can run offline. TypeScript: `tsc --noEmit -p <nearest tsconfig>`
 * once the project's dependencies are installed, with this tool's own
 * TypeScript unless the caller asks for the project's (which is code from the
 * repository); plain JavaScript: `node --check`; Python: a syntax check in
 * isolated mode that writes no bytecode; PHP, Go, Ruby and shell: their own
 * syntax checkers when installed (syntax-checkers.ts). Every check runs with the scrubbed
 * environment (no tokens). An error in a changed file is a `verify-failed`
 * finding; a check that cannot run says why and which command to run instead.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import { repositoryCodeEnv } from "../platform/child-env.js";
import semver from "semver";
import { type Finding, makeFinding } from "../core/finding.js";
import { checkSyntax } from "./syntax-checkers.js";

export interface CheckRun {
  /** What ran, as a command a person can repeat. */
  command: string;
  status: "passed" | "failed" | "not-run";
  /** Why a check did not run, or what failed in one line. */
  reason?: string;
}

export interface Verification {
  checks: CheckRun[];
  /** One per error in a file fix changed. */
  findings: Finding[];
}

/** A check runs for at most this long; a hung compiler must not hang fix. */
const CHECK_TIMEOUT_MS = 120_000;
const TS_EXTENSIONS = /\.(c|m)?tsx?$/i;
/** Parses without writing bytecode; prints "line:column:message" for a syntax error. */
const PY_SYNTAX_CHECK = [
  "import ast, sys",
  "try:",
  "    ast.parse(open(sys.argv[1], 'rb').read(), sys.argv[1])",
  "except SyntaxError as e:",
  "    print(f'{e.lineno or 1}:{e.offset or 1}:{e.msg}')",
  "    sys.exit(1)",
].join("\n");

export interface VerifyOptions {
  /** Type-check with the project's node_modules/typescript (runs the repository's code) instead of this tool's TypeScript. */
  projectTypeScript?: boolean;
}

export async function verifyChanges(
  root: string,
  changedFiles: readonly string[],
  options: VerifyOptions = {},
): Promise<Verification> {
  const out: Verification = { checks: [], findings: [] };
  const ts = changedFiles.filter((f) => TS_EXTENSIONS.test(f) && !f.endsWith(".d.ts"));
  // node --check knows neither JSX nor TypeScript; fix already re-parsed those with their own grammar.
  const js = changedFiles.filter((f) => /\.(c|m)?js$/i.test(f));
  const py = changedFiles.filter((f) => /\.pyw?$/i.test(f));
  const stale = staleInstalls(root, changedFiles);
  for (const [config, files] of groupByTsconfig(root, ts))
    await checkTypeScript(root, config, files, stale, options, out);
  for (const file of js) await checkNode(root, file, out);
  if (py.length > 0) await checkPython(root, py, out);
  for (const result of await checkSyntax(changedFiles, (program, args) => runProcess(program, args, root))) {
    for (const e of result.errors) out.findings.push(verifyFinding(e.file, e.line, 1, e.message));
    out.checks.push({
      command: result.command,
      status: result.status,
      ...(result.reason ? { reason: result.reason } : {}),
    });
  }
  return out;
}

/** The nearest tsconfig.json above each file; files with none are grouped under "". */
function groupByTsconfig(root: string, files: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    let found = false;
    for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
      const config = dir === "." ? "tsconfig.json" : `${dir}/tsconfig.json`;
      if (existsSync(posix.join(root, config))) {
        groups.set(config, [...(groups.get(config) ?? []), file]);
        found = true;
        break;
      }
      if (dir === ".") break;
    }
    if (!found) groups.set("", [...(groups.get("") ?? []), file]);
  }
  return groups;
}

/**
 * Dependencies whose installed version no longer satisfies a package.json fix
 * changed: fix moves the manifest to the V2 SDK, but node_modules still holds
 * V1 until the user installs, and tsc would then blame the rewrite.
 */
function staleInstalls(root: string, changedFiles: readonly string[]): string[] {
  const stale: string[] = [];
  for (const manifest of changedFiles.filter((f) => posix.basename(f) === "package.json")) {
    const path = posix.join(root, manifest);
    let declared: Record<string, string> = {};
    try {
      const json = JSON.parse(readFileSync(path, "utf8")) as Record<string, Record<string, string> | undefined>;
      declared = { ...json.peerDependencies, ...json.devDependencies, ...json.dependencies };
    } catch {
      continue;
    }
    for (const [name, range] of Object.entries(declared)) {
      if (!semver.validRange(range)) continue; // workspace:, file:, git and npm: specs are not versions to compare
      const installed = installedVersion(posix.dirname(path), name);
      if (installed === undefined) stale.push(`${name} is not installed (${manifest} asks for ${range})`);
      else if (!semver.satisfies(installed, range, { includePrerelease: true }))
        stale.push(`${name} ${installed} is installed (${manifest} now asks for ${range})`);
    }
  }
  return stale;
}

/** The version in the node_modules Node would resolve `name` from, looking up from `dir` as Node does. */
function installedVersion(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = posix.dirname(at)) {
    const manifest = posix.join(at, "node_modules", name, "package.json");
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version ?? "unknown";
      } catch {
        return "unknown";
      }
    }
    if (posix.dirname(at) === at) return undefined;
  }
}

async function checkTypeScript(
  root: string,
  config: string,
  files: readonly string[],
  stale: readonly string[],
  options: VerifyOptions,
  out: Verification,
): Promise<void> {
  if (config === "") {
    const reason = `no tsconfig.json above ${files.join(", ")}: fix checked the syntax only; type-check them with the project's own build`;
    return void out.checks.push({ command: "npx tsc --noEmit", status: "not-run", reason });
  }
  const command = `npx tsc --noEmit -p ${config}`;
  const projectDir = posix.join(root, posix.dirname(config));
  // Resolving reads package manifests only; the project's tsc runs only when asked for.
  let projectTsc: string;
  try {
    projectTsc = createRequire(posix.join(projectDir, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    out.checks.push({
      command,
      status: "not-run",
      reason: "the project's dependencies are not installed (no typescript in node_modules): install them, then run it",
    });
    return;
  }
  if (stale.length > 0) {
    out.checks.push({
      command,
      status: "not-run",
      reason: `node_modules does not match the package.json fix changed: ${stale.join("; ")}. Install, then run it`,
    });
    return;
  }
  const tsc = options.projectTypeScript
    ? projectTsc
    : fileURLToPath(new URL("../platform/tsc-cli.js", import.meta.url));
  const run = await runProcess(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", config], root);
  if (run.timedOut)
    return void out.checks.push({
      command,
      status: "not-run",
      reason: `it did not finish within ${CHECK_TIMEOUT_MS / 1000} s`,
    });
  const changed = new Set(files);
  const errors = [...run.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/gm)]
    .map((m) => ({
      file: posix.normalize(m[1]!.replace(/\\/g, "/")),
      line: Number(m[2]),
      column: Number(m[3]),
      code: m[4]!,
      message: m[5]!,
    }))
    .filter((e) => changed.has(e.file));
  for (const e of errors) out.findings.push(verifyFinding(e.file, e.line, e.column, `tsc: ${e.code} ${e.message}`));
  const elsewhere = run.code !== 0 && errors.length === 0 ? " (errors only in files fix did not change)" : "";
  out.checks.push({
    command,
    status: errors.length > 0 ? "failed" : "passed",
    ...(errors.length > 0
      ? { reason: `${errors.length} error${errors.length === 1 ? "" : "s"} in files fix changed` }
      : elsewhere
        ? { reason: elsewhere.trim() }
        : {}),
  });
}

async function checkNode(root: string, file: string, out: Verification): Promise<void> {
  const command = `node --check ${file}`;
  const run = await runProcess(process.execPath, ["--check", file], root);
  if (run.code === 0) return void out.checks.push({ command, status: "passed" });
  const where = /:(\d+)\r?\n/.exec(run.stderr);
  const message =
    run.stderr
      .split("\n")
      .find((l) => /Error:/.test(l))
      ?.trim() ?? "the file does not parse";
  out.findings.push(verifyFinding(file, where ? Number(where[1]) : 1, 1, `node --check: ${message}`));
  out.checks.push({ command, status: "failed", reason: message });
}

async function checkPython(root: string, files: readonly string[], out: Verification): Promise<void> {
  const command = `python3 -m py_compile ${files.join(" ")}`;
  for (const file of files) {
    // -I: the repository's directory is not on sys.path, so its own ast.py or sys.py is never imported.
    const run = await runProcess("python3", ["-I", "-c", PY_SYNTAX_CHECK, file], root);
    if (run.spawnError) {
      out.checks.push({ command, status: "not-run", reason: "python3 is not on PATH" });
      return;
    }
    if (run.code === 0) continue;
    const [, line, column, message] = /^(\d+):(\d+):(.*)$/m.exec(run.stdout) ?? [];
    out.findings.push(
      verifyFinding(
        file,
        Number(line ?? 1),
        Number(column ?? 1),
        `python: SyntaxError: ${message ?? run.stderr.trim().split("\n").pop() ?? "the file does not parse"}`,
      ),
    );
  }
  const failed = out.findings.filter((f) => files.includes(f.file)).length;
  out.checks.push({
    command,
    status: failed > 0 ? "failed" : "passed",
    ...(failed > 0 ? { reason: `${failed} file${failed === 1 ? " does" : "s do"} not compile` } : {}),
  });
}

function verifyFinding(file: string, line: number, column: number, message: string): Finding {
  return makeFinding(file, {
    ruleId: "verify-failed",
    message: `${message.replace(/\.$/, "")}. fix changed this file: check the rewrite (the review markers say what to look at)`,
    location: { line, column, endLine: line, endColumn: column + 1 },
  });
}

interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  spawnError: boolean;
}

function runProcess(command: string, args: readonly string[], cwd: string): Promise<ProcessRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...repositoryCodeEnv(), NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, CHECK_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", () => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr, timedOut, spawnError: true });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, spawnError: false });
    });
  });
}
