#!/usr/bin/env node
// campaign run over N small local repositories (default 50) against the sum
// of single `scan` runs over the same repositories, and peak memory.
//
//   node bench/campaign-bench.mjs [--repos N] [--concurrency N] [--check]
//
// Targets: wall time of `campaign run` (cold clone cache: every repository is
// cloned) at most 1.5 x (sum of single scan times / concurrency), and peak
// resident memory of the process tree at most 400 MB with concurrency 4.
// Memory is the larger of the campaign process's own peak (getrusage maxRSS,
// threads included) and the peak sum over the whole process tree (the CLI and
// its git children), sampled from /proc every 20 ms.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(BENCH_DIR, "..");
const CLI = join(REPO_ROOT, "dist", "src", "cli.js");
const PROBE = join(BENCH_DIR, "rss-probe.mjs");
const TARGET_RATIO = 1.5;
const TARGET_RSS_MB = 400;

const { values } = parseArgs({
  options: {
    repos: { type: "string", default: "50" },
    concurrency: { type: "string", default: "4" },
    check: { type: "boolean", default: false },
  },
});
const count = Number(values.repos);
const concurrency = Number(values.concurrency);
if (!existsSync(CLI)) {
  console.error(`build first (npm run build): ${CLI} is missing`);
  process.exit(2);
}

// ---------------------------------------------------------------------------
// 50 small repositories, in rotation: the demo app, a Python client, a worker
// image build, a Go client, and one with no V1 use.

const SHAPES = [
  ["fixtures/demo-app", ""],
  ["fixtures/rules/files/python/code-http", ""],
  ["fixtures/rules/files/node-pins/dockerfile-reset-outdated", ""],
  ["fixtures/rules/files/other-languages/go-client", "client"],
  [null, ""],
];

function git(cwd, ...args) {
  const run = spawnSync(
    "git",
    ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args],
    { cwd, encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
}

const dir = mkdtempSync(join(tmpdir(), "cdm-campaign-bench-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const repos = [];
for (let i = 0; i < count; i++) {
  const [fixture, into] = SHAPES[i % SHAPES.length];
  const repo = join(dir, "repos", `repo-${String(i).padStart(2, "0")}`);
  mkdirSync(join(repo, into), { recursive: true });
  if (fixture) {
    for (const entry of readdirSync(join(REPO_ROOT, fixture))) {
      if (entry !== "expected.json")
        cpSync(join(REPO_ROOT, fixture, entry), join(repo, into, entry), { recursive: true });
    }
  }
  writeFileSync(join(repo, "README.md"), `# Service ${i}\n\nInternal service number ${i}.\n`);
  writeFileSync(
    join(repo, "index.js"),
    `export function handler${i}(event) {\n  return { status: 200, body: JSON.stringify(event) };\n}\n`,
  );
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "init");
  repos.push(repo);
}
writeFileSync(join(dir, "campaign.yml"), `repositories:\n${repos.map((r) => `  - url: ${r}\n`).join("")}`);

// ---------------------------------------------------------------------------
// Measuring a child: wall time, its own peak RSS, and the tree's sampled peak.

function descendants(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").split(/\s+/).filter(Boolean))
          out.push(Number(child));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return out;
}

function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function measure(args, { probe = false } = {}) {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}.json`);
  const nodeArgs = probe ? ["--import", PROBE, CLI, ...args] : [CLI, ...args];
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, nodeArgs, {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, COMFYDEPLOY_BENCH_RSS_FILE: rssFile, GITHUB_TOKEN: "", GH_TOKEN: "" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    let treePeakKb = 0;
    const sampler = setInterval(() => {
      const total = descendants(child.pid).reduce((sum, pid) => sum + rssKb(pid), 0);
      if (total > treePeakKb) treePeakKb = total;
    }, 20);
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(sampler);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const own = probe && existsSync(rssFile) ? JSON.parse(readFileSync(rssFile, "utf8")) : undefined;
      done({ ms, code, stderr, ownPeakMb: own ? own.maxRSS / 1024 : undefined, treePeakMb: treePeakKb / 1024 });
    });
  });
}

// ---------------------------------------------------------------------------

// One scan first, so the page cache holds the tool's own files for every measurement.
await measure(["scan", repos[0], "--format", "json", "--fail-on", "none"]);
let sumScanMs = 0;
let slowest = 0;
for (const repo of repos) {
  const run = await measure(["scan", repo, "--format", "json", "--fail-on", "none"]);
  if (run.code !== 0) throw new Error(`scan ${repo} exited ${run.code}: ${run.stderr}`);
  sumScanMs += run.ms;
  slowest = Math.max(slowest, run.ms);
}

const campaign = await measure(
  [
    "campaign",
    "run",
    "campaign.yml",
    "--out",
    join(dir, "out"),
    "--cache",
    join(dir, "cache"),
    "--concurrency",
    String(concurrency),
    "--fail-on",
    "none",
  ],
  { probe: true },
);
if (campaign.code !== 0) throw new Error(`campaign run exited ${campaign.code}: ${campaign.stderr}`);
const reports = readdirSync(join(dir, "out", "repos")).length;
if (reports !== count) throw new Error(`campaign run wrote ${reports} reports for ${count} repositories`);

const budget = (sumScanMs / concurrency) * TARGET_RATIO;
const ratio = campaign.ms / (sumScanMs / concurrency);
const peakMb = Math.max(campaign.ownPeakMb ?? 0, campaign.treePeakMb);
const timeOk = campaign.ms <= budget;
const memoryOk = peakMb <= TARGET_RSS_MB;

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `campaign run over ${count} local repositories, concurrency ${concurrency} (cold clone cache, dashboard included)`,
);
console.log(`  single scans: sum ${fmt(sumScanMs)}, mean ${fmt(sumScanMs / count)}, slowest ${fmt(slowest)}`);
console.log(`  sum / concurrency                  ${fmt(sumScanMs / concurrency)}`);
console.log(
  `  campaign run                       ${fmt(campaign.ms)}  (${ratio.toFixed(2)}x sum/concurrency; target <= ${TARGET_RATIO}x, ${fmt(budget)})  ${timeOk ? "PASS" : "FAIL"}`,
);
console.log(`  peak RSS, campaign process         ${campaign.ownPeakMb?.toFixed(0) ?? "?"} MB`);
console.log(
  `  peak RSS, process tree (sampled)   ${campaign.treePeakMb.toFixed(0)} MB  (target <= ${TARGET_RSS_MB} MB)  ${memoryOk ? "PASS" : "FAIL"}`,
);
if (values.check && !(timeOk && memoryOk)) process.exitCode = 1;
