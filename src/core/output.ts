/** Writing reports: stdout, or a file written atomically (never half a report). */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
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
