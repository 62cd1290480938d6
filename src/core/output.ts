/** Writing reports: stdout, or a file written atomically (never half a report); whether the terminal gets colour. */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import pc from "picocolors";
import writeFileAtomic from "write-file-atomic";
import { RuntimeFailure } from "./errors.js";

export async function writeOutput(content: string, file: string | undefined): Promise<void> {
  if (file === undefined || file === "-") {
    await new Promise<void>((done, fail) => process.stdout.write(content, (error) => (error ? fail(error) : done())));
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
 * Whether output to the terminal is coloured: `--color` / `--no-color` when
 * given, else picocolors' own detection (stdout a terminal and TERM not dumb,
 * or CI or FORCE_COLOR set; never when NO_COLOR is set to any non-empty value).
 */
export function colorEnabled(flag: boolean | undefined): boolean {
  return flag ?? pc.isColorSupported;
}
