#!/usr/bin/env node
// What fix prints and writes, recorded so that a change meant to make fix faster can be shown to change
// none of it: `--save FILE` records, `--compare FILE` runs again and names every difference (exit 1).
// Cases: the two fix-bench trees (the Prettier tree of 200 V1 files, and 200 transform-fixture inputs among
// other files) and every app under fixtures/scenarios, each committed to a fresh git tree. For each: the
// stdout and exit code of `fix --dry-run` and of `fix`, and the text of every file fix changed or added.
//
//   npm run build && node bench/fix-output-check.mjs --save /tmp/fix-output.json
//   ... change fix, npm run build ...
//   node bench/fix-output-check.mjs --compare /tmp/fix-output.json
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { commitTree, makeTree, makeV1Tree } from "./fix-bench-trees.mjs";

const { values } = parseArgs({
  options: { save: { type: "string" }, compare: { type: "string" }, only: { type: "string" } },
});
if (!values.save === !values.compare) {
  console.error("usage: node bench/fix-output-check.mjs --save FILE | --compare FILE [--only CASE]");
  process.exit(2);
}
const CLI = fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const SCENARIOS = fileURLToPath(new URL("../fixtures/scenarios/", import.meta.url));

function scenarioTree(name) {
  const tree = mkdtempSync(join(tmpdir(), `cdm-fix-output-${name}-`));
  cpSync(join(SCENARIOS, name), tree, { recursive: true });
  commitTree(tree);
  return tree;
}

const CASES = {
  "bench-v1-200": () => makeV1Tree().tree,
  "bench-fixtures-200": () => makeTree(200, 100),
  ...Object.fromEntries(
    readdirSync(SCENARIOS)
      .sort()
      .map((name) => [`scenario-${name}`, () => scenarioTree(name)]),
  ),
};

function cli(tree, args) {
  const run = spawnSync(process.execPath, [CLI, "fix", tree, ...args], {
    cwd: tree,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  // The tree's random name is the one thing that differs between runs.
  const stable = (text) => text.split(tree).join("<tree>");
  return { code: run.status, stdout: stable(run.stdout), stderr: stable(run.stderr) };
}

/** Every file fix changed or added, with its text. */
function changedFiles(tree) {
  const status = execFileSync("git", ["status", "--porcelain", "-uall", "-z"], { cwd: tree, encoding: "utf8" });
  const files = status
    .split("\0")
    .filter(Boolean)
    .map((entry) => entry.slice(3))
    .sort();
  return Object.fromEntries(files.map((file) => [file, readFileSync(join(tree, file), "utf8")]));
}

function record(name) {
  const tree = CASES[name]();
  try {
    const dryRun = cli(tree, ["--dry-run", "--fail-on", "none"]);
    const fix = cli(tree, ["--fail-on", "warning"]);
    return { dryRun, fix, files: changedFiles(tree) };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** The first line where two texts differ, for the report. */
function firstDifference(a, b) {
  const left = String(a).split("\n");
  const right = String(b).split("\n");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) return `line ${i + 1}: ${JSON.stringify(left[i])} != ${JSON.stringify(right[i])}`;
  }
  return "";
}

function differences(name, before, after) {
  const out = [];
  for (const run of ["dryRun", "fix"]) {
    for (const key of ["code", "stdout", "stderr"]) {
      if (before[run][key] !== after[run][key])
        out.push(`${name}: ${run} ${key} differs, ${firstDifference(before[run][key], after[run][key])}`);
    }
  }
  for (const file of new Set([...Object.keys(before.files), ...Object.keys(after.files)])) {
    if (!(file in after.files)) out.push(`${name}: ${file} no longer changed`);
    else if (!(file in before.files)) out.push(`${name}: ${file} changed now, not before`);
    else if (before.files[file] !== after.files[file])
      out.push(`${name}: ${file} differs, ${firstDifference(before.files[file], after.files[file])}`);
  }
  return out;
}

const names = Object.keys(CASES).filter((name) => !values.only || name.includes(values.only));
const results = {};
for (const name of names) {
  const start = Date.now();
  results[name] = record(name);
  console.log(
    `${name}: ${Object.keys(results[name].files).length} files changed, exit ${results[name].fix.code} (${Date.now() - start} ms)`,
  );
}
if (values.save) {
  writeFileSync(values.save, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`recorded ${names.length} cases in ${values.save}`);
} else {
  const saved = JSON.parse(readFileSync(values.compare, "utf8"));
  const problems = names.flatMap((name) =>
    saved[name] ? differences(name, saved[name], results[name]) : [`${name}: not in ${values.compare}`],
  );
  for (const problem of problems) console.log(problem);
  console.log(
    problems.length === 0 ? `fix output identical on ${names.length} cases` : `${problems.length} differences`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
