/** Writing reports: stdout, or a file written atomically (never half a report); the Actions step summary; whether the terminal gets colour. */
import { appendFile, mkdir } from "node:fs/promises";
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
  if (file === undefined || file === "-") {
    guardStdout();
    await new Promise<void>((done, fail) =>
      process.stdout.write(content, (error) => (error && (error as NodeJS.ErrnoException).code !== "EPIPE" ? fail(error) : done())),
    );
    return;
  }
  const target = resolve(file);
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, content, { encoding: "utf8" });
  } catch (error) {
    throw new RuntimeFailure(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
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
    process.stderr.write(`comfydeploy-migrate: cannot write the step summary (GITHUB_STEP_SUMMARY): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
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
