#!/usr/bin/env node
// What scan reports and what fix would change, on the demo app and every app under fixtures/scenarios, compared
// with the recorded output in bench/results/reports/: a change meant to keep behaviour (a restructure, a speed-up)
// shows here that it changes no byte. Each app is copied into a fresh git tree; for each, `scan --format json`
// and `fix --dry-run` (stdout and exit code). Only what differs from machine to machine is replaced: the tree's
// path, the CLI's path, the tool's version and the days to or since the cutoff.
//
//   npm run build && node bench/report-check.mjs            compare; names every difference, exit 1 on any
//   node bench/report-check.mjs --record                    re-record, after a change meant to alter output
//   node bench/report-check.mjs --cli /other/dist/src/cli.js   another build's output against the records
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { commitTree } from "./fix-bench-trees.mjs";

const { values } = parseArgs({
  options: { record: { type: "boolean" }, cli: { type: "string" }, only: { type: "string" } },
});
const CLI = values.cli ?? fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const RECORDS = fileURLToPath(new URL("./results/reports/", import.meta.url));

const APPS = {
  "demo-app": join(FIXTURES, "demo-app"),
  ...Object.fromEntries(
    readdirSync(join(FIXTURES, "scenarios"))
      .sort()
      .map((name) => [name, join(FIXTURES, "scenarios", name)]),
  ),
};

function committedCopy(app) {
  const tree = mkdtempSync(join(tmpdir(), "cdm-report-check-"));
  cpSync(app, tree, { recursive: true });
  commitTree(tree);
  return tree;
}

function run(tree, args) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: tree,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", GITHUB_ACTIONS: "", GITHUB_STEP_SUMMARY: "" },
  });
  if (result.error) throw result.error;
  const stable = (text) =>
    text
      .split(tree)
      .join("<tree>")
      .split(CLI)
      .join("<cli>")
      .replace(/("tool": \{\s*"name": "comfydeploy-migrate",\s*"version": )"[^"]*"/, '$1"<version>"')
      .replace(/"daysLeft": -?\d+/g, '"daysLeft": "<days>"')
      .replace(/\d+ days? left until the V1 cutoff/g, "<days> left until the V1 cutoff")
      .replace(/(The V1 cutoff \([\d-]+\) passed) \d+ days? ago/g, "$1 <days> ago");
  return `exit ${result.status}\n${stable(result.stdout)}${result.stderr ? `--- stderr\n${stable(result.stderr)}` : ""}`;
}

/** The recorded outputs of one app: file name → text. */
function outputsOf(app) {
  const tree = committedCopy(app);
  try {
    return {
      "scan.json.txt": run(tree, ["scan", ".", "--format", "json"]),
      "fix-dry-run.txt": run(tree, ["fix", ".", "--dry-run"]),
    };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

function firstDifference(a, b) {
  const left = a.split("\n");
  const right = b.split("\n");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) return `line ${i + 1}: ${JSON.stringify(left[i])} != ${JSON.stringify(right[i])}`;
  }
  return "";
}

const names = Object.keys(APPS).filter((name) => !values.only || name.includes(values.only));
const problems = [];
mkdirSync(RECORDS, { recursive: true });
for (const name of names) {
  for (const [suffix, text] of Object.entries(outputsOf(APPS[name]))) {
    const file = join(RECORDS, `${name}.${suffix}`);
    if (values.record) {
      writeFileSync(file, text);
      continue;
    }
    let recorded;
    try {
      recorded = readFileSync(file, "utf8");
    } catch {
      problems.push(`${name}.${suffix}: not recorded (run with --record)`);
      continue;
    }
    if (recorded !== text) problems.push(`${name}.${suffix} differs, ${firstDifference(recorded, text)}`);
  }
}
if (values.record) {
  console.log(`recorded ${names.length} apps in ${RECORDS}`);
} else {
  for (const problem of problems) console.log(problem);
  console.log(
    problems.length === 0
      ? `scan and fix --dry-run output identical to the records on ${names.length} apps`
      : `${problems.length} differences`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
