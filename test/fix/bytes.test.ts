/**
 * fix writes only bytes that came from the file or from the rewrite: a file
 * that is not valid UTF-8 is refused (its bytes cannot be round-tripped
 * through text), and BOM, CRLF and mixed line endings outside the rewritten
 * lines stay byte for byte.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const V1_FETCH =
  'export const queue = (body: string) => fetch("https://www.comfydeploy.com/api/run", { method: "POST", body });';
const V2_URL = "https://api.comfydeploy.com/api/run/deployment/queue";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fixed(files: Record<string, string | Buffer>): { dir: string; stdout: string; status: number | null } {
  const dir = tempRepo(files, "cdm-fix-bytes-");
  dirs.push(dir);
  const run = runCli(["fix", dir, "--allow-dirty", "--fail-on", "none"]);
  expect(run.stderr).not.toMatch(/internal error/);
  return { dir, stdout: run.stdout, status: run.status };
}

/** The lines of two buffers that differ, by index (split on LF only, so CR and BOM bytes count). */
function changedLines(before: Buffer, after: Buffer): number[] {
  const a = before.toString("latin1").split("\n");
  const b = after.toString("latin1").split("\n");
  expect(b.length).toBe(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i]));
}

describe("fix and the bytes of a file", () => {
  it("refuses a file that is not valid UTF-8, with an unreadable-file warning and no marker, and leaves it byte for byte", () => {
    const latin1 = Buffer.concat([
      Buffer.from('export const name = "caf'),
      Buffer.from([0xff]),
      Buffer.from('";\n'),
      Buffer.from(`${V1_FETCH}\n`),
    ]);
    const { dir, stdout } = fixed({ "src/latin1.ts": latin1, "src/ok.ts": `${V1_FETCH}\n` });
    expect(readFileSync(join(dir, "src/latin1.ts")).equals(latin1)).toBe(true);
    expect(stdout).toMatch(/unreadable-file.*src\/latin1\.ts.*not valid UTF-8.*convert/i);
    // The rest of the tree is still fixed.
    expect(readFileSync(join(dir, "src/ok.ts"), "utf8")).toContain(V2_URL);
  });

  it("changes 0 bytes outside the rewritten line of a BOM + CRLF file", () => {
    const before = Buffer.from(`\ufeff// header\r\nconst a = 1;\r\n${V1_FETCH}\r\n\r\nexport const b = a;\r\n`, "utf8");
    const { dir } = fixed({ "src/bom-crlf.ts": before });
    const after = readFileSync(join(dir, "src/bom-crlf.ts"));
    expect(after.toString("utf8")).toContain(V2_URL);
    expect(after.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(changedLines(before, after)).toEqual([2]);
  });

  it("keeps each line's own ending in a file with mixed CRLF and LF endings", () => {
    const before = Buffer.from(
      `const a = 1;\r\nconst b = 2;\nconst c = 3;\r\n${V1_FETCH}\r\nexport const d = a + b + c;\r\n`,
      "utf8",
    );
    const { dir } = fixed({ "src/mixed.ts": before });
    const after = readFileSync(join(dir, "src/mixed.ts"));
    expect(after.toString("utf8")).toContain(V2_URL);
    expect(changedLines(before, after)).toEqual([3]);
  });
});
