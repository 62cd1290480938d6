/**
 * Files the scan must not drop silently: UTF-16 text (scanned as text), file
 * names that are not valid UTF-8, and, in a git work tree, files below a
 * directory the user cannot read (each listed as skipped, with the reason).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { SkippedFile } from "../../src/core/finding.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { scan } from "../../src/scan/engine.js";
import { prefilterNeedles } from "../../src/scan/needles.js";
import { findRipgrep, MAX_FILE_BYTES, prefilterPass, RIPGREP_MIN_FILES } from "../../src/scan/prefilter-pass.js";
import { CLI } from "../helpers/cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

// Pass-through spies: which paths the prefilter stats by name.
const statted = vi.hoisted(() => [] as string[]);
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    lstatSync: (path: string, ...rest: []) => {
      statted.push(String(path));
      return fs.lstatSync(path, ...rest);
    },
  };
});
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...fs,
    lstat: (path: string, ...rest: []) => {
      statted.push(String(path));
      return fs.lstat(path, ...rest);
    },
  };
});

const V1_LINE = "POST https://www.comfydeploy.com/api/run to queue a run.";
const SETTINGS = '{ "ComfyDeploy": { "BaseUrl": "https://www.comfydeploy.com/api" } }\n';

function utf16(text: string, encoding: "le" | "be"): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  return encoding === "le" ? le : Buffer.from(le).swap16();
}

function git(cwd: string, ...args: string[]): void {
  spawnSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], {
    cwd,
  });
}

describe("UTF-16 files with a BOM", () => {
  for (const encoding of ["le", "be"] as const) {
    it(`(${encoding.toUpperCase()}) are scanned as text, at the right lines`, async () => {
      const root = tempRepo({
        "README.md": utf16(`# App\r\n\r\n${V1_LINE}\r\n`, encoding),
        "appsettings.json": utf16(SETTINGS, encoding),
      });
      const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
      expect(result.skipped).toEqual([]);
      expect(
        result.findings
          .filter((f) => f.ruleId === "legacy-base-url")
          .map((f) => `${f.file}:${f.line}`)
          .sort(),
      ).toEqual(["README.md:3", "appsettings.json:1"]);
      expect(result.findings.find((f) => f.file === "README.md")!.excerpt).toBe(V1_LINE);
    });
  }
});

describe("a file name that is not valid UTF-8", () => {
  for (const inGit of [false, true]) {
    it(`is listed as skipped ${inGit ? "in a git work tree" : "outside git"}, not dropped`, async () => {
      const root = tempRepo({ "ok.sh": `curl -X POST https://www.comfydeploy.com/api/run\n` });
      // "café.sh" in Latin-1: one byte 0xE9, not UTF-8.
      writeFileSync(
        Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9]), Buffer.from(".sh")]),
        "curl -X POST https://www.comfydeploy.com/api/run\n",
      );
      if (inGit) {
        git(root, "init", "-q");
        git(root, "add", "-A");
        git(root, "commit", "-qm", "names");
      }
      const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false, ripgrep: false });
      expect(result.findings.map((f) => f.file)).toContain("ok.sh");
      expect(result.skipped).toEqual([{ file: "caf\uFFFD.sh", reason: expect.stringContaining("not valid UTF-8") }]);
    });
  }
});

/** Permission errors need a user other than root, who can still read the built CLI and reach the temp dir. */
const NOBODY = 65534;
const canRunAsNobody =
  process.getuid?.() === 0 &&
  spawnSync(
    process.execPath,
    [
      "-e",
      `const fs = require("fs"); fs.accessSync(${JSON.stringify(CLI)}); fs.readdirSync(${JSON.stringify(tmpdir())})`,
    ],
    { uid: NOBODY, gid: NOBODY },
  ).status === 0;

describe.skipIf(!canRunAsNobody)("a git work tree with a directory the user cannot read", () => {
  it("lists its tracked files as skipped and names the directory for its untracked ones", () => {
    const V1 = "curl -X POST https://www.comfydeploy.com/api/run\n";
    const root = tempRepo({ "app/ok.sh": V1, "app/secret/tracked.sh": V1 });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "tree");
    writeFileSync(join(root, "app", "secret", "untracked.sh"), V1);
    chmodSync(root, 0o755);
    chmodSync(join(root, "app", "secret"), 0o000);
    try {
      // The repository belongs to root: git would refuse it to another user without safe.directory.
      const env = {
        ...process.env,
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "safe.directory",
        GIT_CONFIG_VALUE_0: "*",
        HOME: tmpdir(),
      };
      const run = spawnSync(process.execPath, [CLI, "scan", root, "--format", "json", "--fail-on", "none"], {
        uid: NOBODY,
        gid: NOBODY,
        encoding: "utf8",
        env,
      });
      expect(run.status, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as {
        findings: Array<{ file: string }>;
        skipped: Array<{ file: string; reason: string }>;
        summary: { filesListed?: number };
      };
      expect(report.findings.map((f) => f.file)).toContain("app/ok.sh");
      expect(report.skipped).toContainEqual({
        file: "app/secret/tracked.sh",
        reason: "could not be read (permission denied)",
      });
      expect(report.skipped).toContainEqual({
        file: "app/secret/",
        reason: "directory could not be read (permission denied)",
      });
    } finally {
      chmodSync(join(root, "app", "secret"), 0o755);
    }
  });
});

const rg = findRipgrep();
describe.skipIf(!rg)("the prefilter with rg", () => {
  it("reads the files rg matched without statting them by name again, and still skips links out of the tree and big files with the reason", async () => {
    const V1 = 'fetch("https://www.comfydeploy.com/api/run");\n';
    const files: Record<string, string> = { "app/v1.ts": V1, "app/big.txt": V1 + "x".repeat(MAX_FILE_BYTES) };
    for (let i = 0; i < RIPGREP_MIN_FILES; i++) files[`filler/f${i}.js`] = `export const v${i} = ${i};\n`;
    const root = tempRepo(files);
    const outside = join(tempDir(), "outside.ts");
    writeFileSync(outside, V1);
    symlinkSync(outside, join(root, "app", "link.ts"));
    const skipped: SkippedFile[] = [];
    statted.length = 0;
    const hits = await prefilterPass({
      root,
      files: [...Object.keys(files), "app/link.ts"].sort(),
      needles: prefilterNeedles(DEFAULT_HOSTS),
      wantsBinary: () => false,
      ripgrep: rg!,
      skipped,
    });
    expect(hits.map((h) => h.file)).toEqual(["app/v1.ts"]);
    expect(skipped).toContainEqual({ file: "app/link.ts", reason: "symbolic link that leaves the scanned directory" });
    expect(skipped).toContainEqual({ file: "app/big.txt", reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` });
    expect(statted.filter((path) => path.endsWith("app/v1.ts"))).toEqual([]);
  });
});
