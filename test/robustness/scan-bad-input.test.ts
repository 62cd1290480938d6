/**
 * scan on a bad-input corpus generated at test time: no crash, every V1 line
 * that is plainly there still found, a file its parser gives up on reported
 * as unreadable-file (never an aborted scan), time linear in the input, and
 * reports capped per rule and file.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import type { Finding } from "../../src/core/finding.js";
import { buildReport } from "../../src/report/model.js";
import { MAX_PER_RULE_AND_FILE } from "../../src/report/cap.js";
import { scan } from "../../src/scan/engine.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { CLI } from "../helpers/cli.js";

const V1_STATUS = "https://www.comfydeploy.com/api/run?run_id=abc";

const scanDir = (root: string) => scan({ root, hosts: DEFAULT_HOSTS, workers: false, ripgrep: false });
const rulesAt = (findings: Finding[], file: string, line: number) =>
  findings
    .filter((f) => f.file === file && f.line === line)
    .map((f) => f.ruleId)
    .sort();

describe("files a parser gives up on", () => {
  it("a 5,000-deep package.json is one unreadable-file warning, and the rest of the scan goes on", async () => {
    const deep = `{"name":"x","dependencies":{"comfydeploy":"0.0.19"},"deep":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const root = tempRepo({ "package.json": deep, "src/status.js": `export const url = "${V1_STATUS}";\n` });
    const result = await scanDir(root);
    expect(rulesAt(result.findings, "package.json", 1)).toContain("unreadable-file");
    expect(result.findings.find((f) => f.file === "package.json")?.message).toMatch(/nested too deeply/);
    expect(rulesAt(result.findings, "src/status.js", 1)).toEqual(["legacy-base-url", "legacy-get-run"]);
  });

  it("a JS file with a 5,000-deep expression still reports the V1 URL on its first line", async () => {
    // Enough ordinary lines that the file does not look minified (that path never runs the parser).
    const ordinary = Array.from({ length: 500 }, (_, i) => `export const step${i} = ${i};\n`).join("");
    const root = tempRepo({
      "src/a.js": `const u = "${V1_STATUS}";\nconst x = ${"(".repeat(5000)}1${")".repeat(5000)};\n${ordinary}`,
    });
    const result = await scanDir(root);
    expect(rulesAt(result.findings, "src/a.js", 1)).toEqual(["legacy-base-url", "legacy-get-run", "unreadable-file"]);
  });

  it("a 5,000-term string concatenation keeps its create-run finding", async () => {
    const terms = Array.from({ length: 5000 }, (_, i) => `  "p${i}"`).join(" +\n");
    const root = tempRepo({
      "src/b.js": `fetch("https://www.comfydeploy.com/api/run", { method: "POST", body:\n${terms} });\n`,
    });
    const result = await scanDir(root);
    expect(rulesAt(result.findings, "src/b.js", 1)).toEqual(
      expect.arrayContaining(["legacy-base-url", "legacy-create-run"]),
    );
  });

  it("BOM, CRLF and odd file names are scanned like any other file", async () => {
    const root = tempRepo({
      "crlf.py": `\uFEFFimport requests\r\nURL = "${V1_STATUS}"\r\n`,
      "with space.md": `See ${V1_STATUS}\n`,
      "ünïcode.yml": `url: ${V1_STATUS}\n`,
      "-dash.env": `API=${V1_STATUS}\n`,
    });
    const result = await scanDir(root);
    expect(rulesAt(result.findings, "crlf.py", 2)).toContain("legacy-base-url");
    for (const file of ["with space.md", "ünïcode.yml", "-dash.env"])
      expect(rulesAt(result.findings, file, 1)).toContain("legacy-base-url");
  });

  it("a symlink loop neither hangs nor hides the files beside it", async () => {
    const root = tempRepo({ "app/status.sh": `curl "${V1_STATUS}"\n` });
    symlinkSync(join(root, "app"), join(root, "app", "loop"));
    const result = await scanDir(root);
    expect(rulesAt(result.findings, "app/status.sh", 1)).toContain("legacy-get-run");
  });
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
    {
      uid: NOBODY,
      gid: NOBODY,
    },
  ).status === 0;

describe.skipIf(!canRunAsNobody)("a directory the user cannot read", () => {
  it("is named as skipped, and the scan of the rest goes on", () => {
    const root = tempRepo({ "app/ok.sh": `curl "${V1_STATUS}"\n`, "app/secret/hidden.sh": `curl "${V1_STATUS}"\n` });
    chmodSync(root, 0o755);
    chmodSync(join(root, "app", "secret"), 0o000);
    try {
      const run = spawnSync(process.execPath, [CLI, "scan", root, "--format", "json", "--fail-on", "none"], {
        uid: NOBODY,
        gid: NOBODY,
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as {
        findings: Finding[];
        skipped: Array<{ file: string; reason: string }>;
      };
      expect(report.findings.map((f) => `${f.file}:${f.ruleId}`)).toContain("app/ok.sh:legacy-get-run");
      expect(report.skipped).toContainEqual({
        file: "app/secret/",
        reason: "directory could not be read (permission denied)",
      });
    } finally {
      chmodSync(join(root, "app", "secret"), 0o755);
    }
  });
});

describe("time grows with the input, not its square", () => {
  const cases: Array<[string, (n: number) => Record<string, string>]> = [
    [
      "one shell line of cd after cd",
      (n) => ({
        "install.sh": `git clone https://github.com/BennyKok/comfyui-deploy.git x && cd x ${"&& cd x ".repeat(n)}\n`,
      }),
    ],
    [
      "one YAML run line of cd after cd",
      (n) => ({
        "ci.yml": `steps:\n  - run: git clone https://github.com/BennyKok/comfyui-deploy.git x ${"&& cd x ".repeat(n)}\n`,
      }),
    ],
    [
      "V1 URLs on one Markdown line",
      (n) => ({ "README.md": `${Array.from({ length: n }, () => V1_STATUS).join(" ")}\n` }),
    ],
    [
      "V1 URLs on one Python line",
      (n) => ({ "urls.py": `URLS = [${Array.from({ length: n }, () => `"${V1_STATUS}"`).join(", ")}]\n` }),
    ],
    ["V1 URLs one per line", (n) => ({ "urls.txt": `${Array.from({ length: n }, () => V1_STATUS).join("\n")}\n` })],
  ];

  it.each(cases)(
    "%s: double the input takes at most about double the time",
    async (_name, make) => {
      const time = async (n: number): Promise<number> => {
        const root = tempRepo(make(n));
        const started = performance.now();
        await scanDir(root);
        return performance.now() - started;
      };
      await time(500); // warm-up: modules, JIT
      const small = Math.min(await time(10_000), await time(10_000));
      const large = Math.min(await time(20_000), await time(20_000));
      // Linear gives 2; quadratic gives 4. The margin absorbs a busy machine.
      expect(large / small).toBeLessThan(3.2);
    },
    120_000,
  );
});

describe("reports cap what one file can add", () => {
  it(`lists ${MAX_PER_RULE_AND_FILE} findings per rule and file, then one that counts the rest; the scan keeps them all`, async () => {
    const root = tempRepo({ "urls.txt": `${Array.from({ length: 350 }, () => V1_STATUS).join("\n")}\n` });
    const result = await scanDir(root);
    expect(result.findings.filter((f) => f.ruleId === "legacy-get-run")).toHaveLength(350);
    const report = buildReport(result, { command: "scan ." });
    const listed = report.findings.filter((f) => f.ruleId === "legacy-get-run");
    expect(listed).toHaveLength(MAX_PER_RULE_AND_FILE + 1);
    expect(listed.at(-1)!.message).toMatch(/^250 more legacy-get-run findings in this file/);
  });
});
