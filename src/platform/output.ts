/** Writing reports: stdout, or a file written atomically (never half a report); the Actions step summary; whether the terminal gets colour. */
import { createWriteStream } from "node:fs";
import { appendFile, mkdir, realpath, stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import pc from "picocolors";
import writeFileAtomic from "write-file-atomic";
import { RuntimeFailure } from "../core/errors.js";

let stdoutGuarded = false;

/**
 * `scan … | head`: when the reader goes away, the rest of stdout is dropped
 * quietly (no EPIPE stack trace) and the run ends with its own exit code.
 */
function guardStdout(): void {
  if (stdoutGuarded) return;
  stdoutGuarded = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

export async function writeOutput(content: string, file: string | undefined): Promise<void> {
  const fd = file === undefined || file === "-" ? 1 : descriptorOf(file);
  if (fd === 1 || file === undefined) {
    guardStdout();
    await new Promise<void>((done, fail) =>
      process.stdout.write(content, (error) =>
        error && (error as NodeJS.ErrnoException).code !== "EPIPE" ? fail(error) : done(),
      ),
    );
    return;
  }
  if (fd !== undefined) return writeToDescriptor(fd, content, file);
  const target = resolve(file);
  try {
    if (await isStream(target)) {
      await writeFile(target, content, "utf8");
      return;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, content, { encoding: "utf8" });
  } catch (error) {
    throw new RuntimeFailure(
      `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/**
 * A path that is not a file to replace: a FIFO, a device, a socket,
 * `/dev/stdout` or a process substitution (`/dev/fd/N`), even when it leads to
 * a regular file (`> out.txt`). Renaming a temp file over it would replace the
 * pipe (or the path) instead of writing to whoever reads it.
 */
/** `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: one of this process's descriptors, which may be a socket no path opens. */
function descriptorOf(file: string): number | undefined {
  if (file === "/dev/stdout") return 1;
  if (file === "/dev/stderr") return 2;
  const n = /^\/(?:dev\/fd|proc\/self\/fd)\/(\d+)$/.exec(file)?.[1];
  return n === undefined ? undefined : Number(n);
}

async function writeToDescriptor(fd: number, content: string, file: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    const stream = createWriteStream("", { fd, autoClose: false });
    stream.on("error", (error: NodeJS.ErrnoException) =>
      fail(new RuntimeFailure(`cannot write ${file}: ${error.code ?? error.message}`)),
    );
    stream.end(content, "utf8", () => done());
  });
}

async function isStream(target: string): Promise<boolean> {
  const info = await stat(target).catch(() => undefined);
  if (!info) return false;
  if (!info.isFile()) return true;
  const real = await realpath(target).catch(() => target);
  return /^\/(?:dev|proc)\//.test(target) || /^\/(?:dev|proc)\//.test(real);
}

/**
 * On GitHub Actions, appends Markdown to the job's summary page
 * ($GITHUB_STEP_SUMMARY). A summary that cannot be written is a warning on
 * stderr, never a failed run: the report itself was already written.
 */
export async function appendStepSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    await appendFile(file, markdown.endsWith("\n") ? markdown : `${markdown}\n`, "utf8");
  } catch (error) {
    process.stderr.write(
      `comfydeploy-migrate: cannot write the step summary (GITHUB_STEP_SUMMARY): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
    );
  }
}

/**
 * Whether output to the terminal is coloured: `--color` / `--no-color` when
 * given, else picocolors' own detection (stdout a terminal and TERM not dumb,
 * or CI or FORCE_COLOR set; never when NO_COLOR is set to any non-empty value).
 * FORCE_COLOR=0 (or "false") means off, as chalk and Node read it; picocolors
 * would take any value as on.
 */
export function colorEnabled(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag;
  if (env.FORCE_COLOR === "0" || env.FORCE_COLOR === "false") return false;
  return pc.isColorSupported;
}
