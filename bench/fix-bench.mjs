#!/usr/bin/env node
// fix cost: `comfydeploy-migrate fix` (writing, on a clean git tree) on trees with N candidate files
// (files with V1 use: the transform fixtures' inputs, JS/TS mostly, plus Python, Dockerfiles, YAML, .env,
// spread over packages that depend on the V1 SDK) among many files without V1 use. Each case is timed
// against `scan` of the same tree in the same run (runs alternate), so the ratio says what fixing adds to
// finding; peak RSS comes from the process itself (bench/rss-probe.mjs).
//
//   node bench/fix-bench.mjs [--candidates 50,200] [--noise 5000] [--runs 3] [--prettier-only] [--cli PATH]
//
// --cli: the cli.js to measure (default dist/src/cli.js), e.g. another build's, to compare.
//
// Targets (issue 14): fix <= 1.5 s for 50 candidates, <= 10 s for 200, peak RSS <= 300 MB. The case with
// 4x the noise shows whether fix time grows with the tree or with the candidates. "lost": files with findings
// fix claims (auto, review) that its summary does not name (changed, skipped, or a site left on purpose); must be 0.
//
// Against Prettier (issue 24): a tree of 200 V1 files (100 raw-fetch JS, 100 V1-SDK TS, packages of 25) is
// fixed, and the same files are formatted with `prettier --write` (the devDependency), runs alternating on a
// reset tree. Targets: fix <= 1.5x Prettier's time (then 1x), peak RSS <= 300 MB.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { makeTree, makeV1Tree } from "./fix-bench-trees.mjs";

const { values } = parseArgs({
  options: {
    candidates: { type: "string", default: "50,200" },
    noise: { type: "string", default: "5000" },
    runs: { type: "string", default: "3" },
    "prettier-only": { type: "boolean", default: false },
    cli: { type: "string" },
  },
});
const CANDIDATES = values.candidates.split(",").map(Number);
const NOISE = Number(values.noise);
const RUNS = Number(values.runs);
const CLI = values.cli ? resolve(values.cli) : fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const PROBE = fileURLToPath(new URL("./rss-probe.mjs", import.meta.url));
const TARGET_MS = { 50: 1500, 200: 10_000 };
const TARGET_RSS_MB = 300;
const PRETTIER = fileURLToPath(new URL("../node_modules/prettier/bin/prettier.cjs", import.meta.url));
const TARGET_PRETTIER_RATIO = 1.5;

/** One run of the CLI (or of another script): wall time, peak RSS (MB) and output. */
function measure(args, tree, script = CLI) {
  const rssFile = join(tree, ".git", "bench-rss.json");
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["--import", PROBE, script, ...args], {
    cwd: tree,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", COMFYDEPLOY_BENCH_RSS_FILE: rssFile },
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${args[0]} failed (${run.status}): ${run.stderr}`);
  const usage = JSON.parse(readFileSync(rssFile, "utf8"));
  return { ms, rss: usage.maxRSS / 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, stdout: run.stdout };
}

function reset(tree) {
  execFileSync("sh", ["-c", "git checkout -q -- . && git clean -fdq"], { cwd: tree });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function benchCase(candidates, noise) {
  const tree = makeTree(candidates, noise);
  try {
    const scans = [];
    const fixes = [];
    let summary = "";
    let withFindings = [];
    // A warm-up of each, then runs alternating scan and fix on the same tree.
    for (let i = 0; i <= RUNS; i++) {
      const scan = measure(["scan", tree, "--fail-on", "none", "--format", "json"], tree);
      const fix = measure(["fix", tree, "--fail-on", "none"], tree);
      summary = fix.stdout;
      // Findings fix claims (auto and review; manual ones need a person), not suppressed.
      const claimed = JSON.parse(scan.stdout).findings.filter((f) => f.fix !== "manual" && !f.suppression);
      withFindings = [...new Set(claimed.map((f) => f.file))];
      reset(tree);
      if (i > 0) {
        scans.push(scan);
        fixes.push(fix);
      }
    }
    const looked = Number(/(\d+) candidate files? with findings/.exec(summary)?.[1] ?? 0);
    const changed = Number(/changed (\d+) files?/.exec(summary)?.[1] ?? 0);
    // Every file with findings must be named in fix's summary: changed, skipped, or a site left on purpose.
    const lost = withFindings.filter((file) => !summary.includes(file)).length;
    return {
      lost,
      candidates,
      noise,
      looked,
      changed,
      scanMs: median(scans.map((s) => s.ms)),
      fixMs: median(fixes.map((f) => f.ms)),
      scanCpu: median(scans.map((s) => s.cpuMs)),
      fixCpu: median(fixes.map((f) => f.cpuMs)),
      scanRss: Math.max(...scans.map((s) => s.rss)),
      fixRss: Math.max(...fixes.map((f) => f.rss)),
    };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

function prettierCase() {
  const { tree, files } = makeV1Tree();
  try {
    const fixes = [];
    const formats = [];
    let summary = "";
    for (let i = 0; i <= RUNS; i++) {
      const fix = measure(["fix", tree, "--fail-on", "none"], tree);
      summary = fix.stdout;
      reset(tree);
      const format = measure(["--write", "--log-level", "warn", ...files], tree, PRETTIER);
      reset(tree);
      if (i > 0) {
        fixes.push(fix);
        formats.push(format);
      }
    }
    return {
      changed: Number(/changed (\d+) files?/.exec(summary)?.[1] ?? 0),
      fixMs: median(fixes.map((f) => f.ms)),
      prettierMs: median(formats.map((f) => f.ms)),
      fixCpu: median(fixes.map((f) => f.cpuMs)),
      prettierCpu: median(formats.map((f) => f.cpuMs)),
      fixRss: Math.max(...fixes.map((f) => f.rss)),
      prettierRss: Math.max(...formats.map((f) => f.rss)),
    };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

function printPrettierCase() {
  const r = prettierCase();
  const ratio = r.fixMs / r.prettierMs;
  const pass = ratio <= TARGET_PRETTIER_RATIO && r.fixRss <= TARGET_RSS_MB;
  console.log("");
  console.log(
    `fix against prettier --write, 200 V1 files (100 raw-fetch JS, 100 V1-SDK TS); median of ${RUNS} runs after a warm-up`,
  );
  console.log(
    "changed  fix ms  prettier ms  fix/prettier  fix CPU ms  prettier CPU ms  CPU ratio  fix MB  prettier MB  target",
  );
  console.log(
    [
      String(r.changed).padStart(7),
      r.fixMs.toFixed(0).padStart(6),
      r.prettierMs.toFixed(0).padStart(11),
      `${ratio.toFixed(2)}x`.padStart(12),
      r.fixCpu.toFixed(0).padStart(10),
      r.prettierCpu.toFixed(0).padStart(15),
      `${(r.fixCpu / r.prettierCpu).toFixed(2)}x`.padStart(9),
      r.fixRss.toFixed(0).padStart(6),
      r.prettierRss.toFixed(0).padStart(11),
      `<=${TARGET_PRETTIER_RATIO}x, <=${TARGET_RSS_MB} MB ${pass ? "PASS" : "FAIL"}`,
    ].join("  "),
  );
  return pass;
}

if (values["prettier-only"]) {
  const pass = printPrettierCase();
  if (!pass && process.argv.includes("--check")) process.exit(1);
  process.exit(0);
}

const cases = [...CANDIDATES.map((n) => [n, NOISE]), [Math.max(...CANDIDATES), NOISE * 4]];
console.log(`fix on a clean git tree (writing), against scan of the same tree; median of ${RUNS} runs after a warm-up`);
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log(
  "(CPU ms: user + system time of the whole process, threads included; steadier than wall time on a busy machine)",
);
console.log("");
console.log(
  "candidates  other files  looked at  changed  lost  scan ms  fix ms  fix/scan  scan CPU ms  fix CPU ms  CPU ratio  scan MB  fix MB  target",
);
let failed = false;
for (const [candidates, noise] of cases) {
  const r = benchCase(candidates, noise);
  const targetMs = TARGET_MS[candidates];
  const pass = (targetMs === undefined || r.fixMs <= targetMs) && r.fixRss <= TARGET_RSS_MB && r.lost === 0;
  failed ||= !pass;
  console.log(
    [
      String(r.candidates).padStart(10),
      String(r.noise).padStart(11),
      String(r.looked).padStart(9),
      String(r.changed).padStart(7),
      String(r.lost).padStart(4),
      r.scanMs.toFixed(0).padStart(7),
      r.fixMs.toFixed(0).padStart(6),
      `${(r.fixMs / r.scanMs).toFixed(2)}x`.padStart(8),
      r.scanCpu.toFixed(0).padStart(11),
      r.fixCpu.toFixed(0).padStart(10),
      `${(r.fixCpu / r.scanCpu).toFixed(2)}x`.padStart(9),
      r.scanRss.toFixed(0).padStart(7),
      r.fixRss.toFixed(0).padStart(6),
      `${targetMs ? `<=${targetMs} ms, ` : ""}<=${TARGET_RSS_MB} MB ${pass ? "PASS" : "FAIL"}`,
    ].join("  "),
  );
}
failed = !printPrettierCase() || failed;
if (failed && process.argv.includes("--check")) process.exit(1);
