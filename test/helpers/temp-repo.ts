/**
 * Scratch directories for tests. Every directory made here is removed when the
 * test file that imported this module ends, whether its tests passed or not:
 * importing the module registers the file-level afterAll that removes them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

const made = new Set<string>();

/** A fresh empty directory under the OS temp directory (TMPDIR), removed after the test file. */
export function tempDir(prefix = "cdm-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** A scratch directory holding the given files (paths may have folders). */
export function tempRepo(files: Record<string, string | Buffer>, prefix = "cdm-"): string {
  const dir = tempDir(prefix);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** Removes an existing scratch directory (made elsewhere, e.g. under test/.tmp/) with the others. */
export function removeAfterFile(dir: string): string {
  made.add(dir);
  return dir;
}

/** Removes every directory made so far; also runs on its own when the test file ends. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

afterAll(removeTempDirs);
