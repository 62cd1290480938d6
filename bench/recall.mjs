#!/usr/bin/env node
// Recall of `scan` against hand-marked truth: fixtures/real-shapes (truth.json per repository), the
// held-aside fixtures/real-shapes-holdout and the existing fixtures with expectations. Prints recall
// and false positives per shape class and per language for each corpus, then every miss, rule
// mismatch and false positive as file:line:rule.
// Exit 1 under a corpus's target (98%; 95% for the holdout) or with any false positive
// (--report-only: always 0 once the scans ran).
//
//   npm run bench:recall                       # builds, then every corpus
//   node bench/recall.mjs --corpus real-shapes # one corpus: real-shapes | real-shapes-holdout | existing | all
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  EXISTING_SHAPES,
  existingCases,
  judgeCases,
  RECALL_TARGETS,
  REPOSITORY_CORPORA,
  recallOf,
  repositoryCases,
  SHAPES,
  summarise,
} from "./recall-lib.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const corpus = option("--corpus", "all");
const reportOnly = args.includes("--report-only");
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));

const CORPORA = [...REPOSITORY_CORPORA, "existing"];
if (corpus !== "all" && !CORPORA.includes(corpus)) {
  console.error(`--corpus must be ${CORPORA.join(", ")} or all (got ${corpus})`);
  process.exit(2);
}
if (!existsSync(cli)) {
  console.error("dist/src/cli.js is missing: run npm run build first");
  process.exit(2);
}

const selectedCorpora = corpus === "all" ? CORPORA : [corpus];
const cases = selectedCorpora.flatMap((name) =>
  name === "existing" ? existingCases(repoRoot) : repositoryCases(repoRoot, name),
);
let results;
try {
  results = await judgeCases(cli, cases);
} catch (error) {
  console.error(error.message);
  process.exit(3);
}

const pct = (value) => `${(value * 100).toFixed(1)}%`;
const titles = { ...SHAPES, ...EXISTING_SHAPES, unclassified: "false positives on lines not declared as negatives" };

function printTable(label, selected, by = "shape") {
  const { rows, total } = summarise(selected, { by });
  console.log(`\n${label}${by === "language" ? " by language" : ""}: ${selected.length} repositories`);
  const header = [by, "expected", "found", "rule mismatch", "missed", "recall", "false pos."];
  const lines = [...rows, total].map((r) => [
    r.shape,
    String(r.expected),
    String(r.found),
    String(r.ruleMismatch),
    String(r.missed),
    r.expected ? pct(recallOf(r)) : "-",
    String(r.falsePositives),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  if (by === "shape") for (const r of rows) if (titles[r.shape]) console.log(`  ${r.shape}: ${titles[r.shape]}`);
  return total;
}

function printDetails(selected) {
  for (const result of selected) {
    const lines = [];
    for (const m of result.missed)
      lines.push(`  miss      ${m.file}:${m.line}:${m.rule} [${m.shape}]${m.note ? ` ${m.note}` : ""}`);
    for (const { truth, finding } of result.ruleMismatches) {
      lines.push(
        `  mismatch  ${truth.file}:${truth.line}: expected ${truth.rule}, reported ${finding.rule} [${truth.shape}]`,
      );
    }
    const negatives = new Map(result.negatives.map((n) => [`${n.file}:${n.line}`, n.note]));
    for (const fp of result.falsePositives) {
      const negative = negatives.get(`${fp.file}:${fp.line}`);
      lines.push(`  false pos ${fp.file}:${fp.line}:${fp.rule}${negative ? ` (declared negative: ${negative})` : ""}`);
    }
    if (lines.length) console.log(`${result.corpus}/${result.name}\n${lines.join("\n")}`);
  }
}

const totals = [];
for (const name of CORPORA) {
  const selected = results.filter((r) => r.corpus === name);
  if (!selected.length) continue;
  totals.push({ name, ...printTable(name, selected) });
  printTable(name, selected, "language");
}
console.log("\nmisses, rule mismatches and false positives:");
printDetails(results);

// Each corpus must meet its target on its own: the large existing corpus must not hide a weak real-shapes figure.
let ok = true;
console.log("");
for (const total of totals) {
  const recall = recallOf(total);
  const target = RECALL_TARGETS[total.name];
  const met = recall >= target && total.falsePositives === 0;
  ok &&= met;
  console.log(
    `${total.name}: recall ${pct(recall)} (${total.found}/${total.expected}, target ${pct(target)}), ` +
      `false positives ${total.falsePositives} (target 0): ${met ? "met" : "not met"}`,
  );
}
process.exit(ok || reportOnly ? 0 : 1);
