#!/usr/bin/env node
// fix cost: `fix --dry-run` on a tree with N candidate files (default 50), median of several runs.
// Target: at most 1.5 s for 50 candidates, including process start and loading the codemods.
// Printed next to the same command on a tree with no V1 use (the fixed cost of starting up).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const count = Number(args[args.indexOf("--files") + 1]) || 50;
const runs = Number(args[args.indexOf("--runs") + 1]) || 5;
const cli = fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const demo = fileURLToPath(new URL("../fixtures/demo-app/src", import.meta.url));

// N candidates: the demo app's V1 files copied into numbered packages.
const tree = mkdtempSync(join(tmpdir(), "cdm-fix-bench-"));
// Each copy of the demo's src/ holds CANDIDATES_PER_COPY files with V1 use.
const CANDIDATES_PER_COPY = 6;
for (let copy = 0; copy * CANDIDATES_PER_COPY < count; copy++) {
  const target = join(tree, `pkg-${copy}`, "src");
  mkdirSync(target, { recursive: true });
  cpSync(demo, target, { recursive: true });
}
const empty = mkdtempSync(join(tmpdir(), "cdm-fix-bench-empty-"));
writeFileSync(join(empty, "index.ts"), "export const answer = 42;\n");

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(dir) {
  const samples = [];
  let candidates = 0;
  for (let i = 0; i < runs + 1; i++) {
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, [cli, "fix", dir, "--dry-run", "--fail-on", "none", "--no-color"], { encoding: "utf8" });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (run.status !== 0) throw new Error(`fix failed: ${run.stderr}`);
    candidates = Number(/(\d+) candidate files? with findings/.exec(run.stdout)?.[1] ?? 0);
    if (i > 0) samples.push(ms); // the first run warms the page cache
  }
  return { ms: median(samples), candidates };
}

const baseline = time(empty);
const measured = time(tree);
const target = 1500 * (measured.candidates / 50);
console.log(`fix --dry-run, median of ${runs} runs`);
console.log(`  no V1 use (start-up only)       ${baseline.ms.toFixed(0)} ms`);
console.log(`  ${String(measured.candidates).padStart(3)} candidate files            ${measured.ms.toFixed(0)} ms  (${(measured.ms / baseline.ms).toFixed(2)}x start-up)`);
console.log(`  target for ${measured.candidates} candidates      ${target.toFixed(0)} ms  ${measured.ms <= target ? "PASS" : "FAIL"}`);
