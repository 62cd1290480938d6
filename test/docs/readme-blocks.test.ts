/**
 * The README's code blocks work as written: every ```yaml block parses (the
 * workflow snippets are copied into CI files), and every block fenced as
 * ```sh runnable runs with exit 0 in a scratch copy of the demo app, with the
 * tool on PATH under its own name, as an installed bin would be.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { CLI, REPO_ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-repo.js";

interface Block {
  info: string;
  body: string;
  line: number;
}

function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```+|~~~+)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.startsWith(open[1]!); j++) body.push(lines[j]!);
    blocks.push({ info: open[2]!.trim(), body: `${body.join("\n")}\n`, line: i + 1 });
    i = j;
  }
  return blocks;
}

const blocks = fencedBlocks(readFileSync(join(REPO_ROOT, "README.md"), "utf8"));
const yamlBlocks = blocks.filter((b) => /^ya?ml\b/.test(b.info));
const runnable = blocks.filter((b) => /^(sh|bash)\s+runnable\b/.test(b.info));

describe("README.md yaml blocks", () => {
  it("are there", () => {
    expect(yamlBlocks.length).toBeGreaterThan(3);
  });

  it.each(yamlBlocks.map((b) => [b.line, b] as const))("the block at line %i parses", (_line, block) => {
    const problems = parseAllDocuments(block.body).flatMap((doc) =>
      "errors" in doc ? doc.errors.map((e) => e.message) : [],
    );
    expect(problems).toEqual([]);
  });

  it("say no `npx comfydeploy-migrate`: the name is not published, and a squatter could take it", () => {
    for (const block of yamlBlocks)
      expect(block.body, `line ${block.line}`).not.toMatch(/npx\s+(--yes\s+)?comfydeploy-migrate\b/);
  });
});

describe("README.md runnable sh blocks", () => {
  it("are there", () => {
    expect(runnable.length).toBeGreaterThan(0);
  });

  it.each(runnable.map((b) => [b.line, b] as const))(
    "the block at line %i exits 0",
    (_line, block) => {
      const work = tempDir("cdm-readme-");
      cpSync(join(REPO_ROOT, "fixtures", "demo-app"), join(work, "app"), { recursive: true });
      const bin = join(work, "bin");
      mkdirSync(bin);
      writeFileSync(join(bin, "comfydeploy-migrate"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
      chmodSync(join(bin, "comfydeploy-migrate"), 0o755);
      const run = spawnSync("bash", ["-euo", "pipefail", "-c", block.body], {
        cwd: join(work, "app"),
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          NO_COLOR: "1",
          GITHUB_ACTIONS: undefined,
          GITHUB_STEP_SUMMARY: undefined,
          CI: undefined,
        },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    },
    180_000,
  );
});
