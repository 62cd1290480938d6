#!/usr/bin/env node
// Byte-for-byte guard for restructuring: records what scan and fix --dry-run print for the demo app,
// each scenario app and the rule fixtures, then compares a later build against that record.
//   node scripts/report-snapshot.mjs save <dir>      record the current build's outputs into <dir>
//   node scripts/report-snapshot.mjs compare <dir>   exit 1 and name each output that differs
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "dist/src/cli.js");
const [mode, dir] = process.argv.slice(2);
if (!["save", "compare"].includes(mode) || !dir) {
  process.stderr.write("usage: report-snapshot.mjs save|compare <dir>\n");
  process.exit(2);
}

const apps = [
  "fixtures/demo-app",
  ...readdirSync(join(root, "fixtures/scenarios")).map((name) => `fixtures/scenarios/${name}`),
  "fixtures/rules",
];

function run(args) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    maxBuffer: 256 * 1024 * 1024,
  });
  return `exit ${result.status}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
}

/** Every output of one app, by a file name that says what made it. */
function outputs(app) {
  const scratch = mkdtempSync(join(tmpdir(), "report-snapshot-"));
  try {
    const json = join(scratch, "scan.json");
    const scanText = run(["scan", app, "--fail-on", "none", "--json", json]);
    const sarif = join(scratch, "scan.sarif");
    run(["scan", app, "--fail-on", "none", "--sarif", sarif]);
    // The report names the command that made it; the scratch path changes per run.
    const read = (file) =>
      existsSync(file) ? readFileSync(file, "utf8").replaceAll(scratch, "<scratch>") : "(not written)\n";
    return {
      "scan.txt": scanText,
      "scan.json": read(json),
      "scan.sarif": read(sarif),
      "fix-dry-run.txt": run(["fix", app, "--dry-run", "--allow-dirty", "--fail-on", "none"]),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

let differences = 0;
for (const app of apps) {
  const slug = app.replaceAll("/", "__");
  for (const [name, text] of Object.entries(outputs(app))) {
    const file = join(dir, slug, name);
    if (mode === "save") {
      mkdirSync(join(dir, slug), { recursive: true });
      writeFileSync(file, text);
    } else if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
      differences++;
      process.stdout.write(`differs: ${app} ${name}\n`);
    }
  }
}
if (mode === "compare") {
  process.stdout.write(differences === 0 ? `identical: ${apps.length} apps\n` : `${differences} outputs differ\n`);
  process.exit(differences === 0 ? 0 : 1);
}
process.stdout.write(`saved ${apps.length} apps to ${dir}\n`);
