/**
 * Recall of `scan` against hand-marked truth, shared by bench/recall.mjs and
 * the tests. Three corpora:
 * - fixtures/real-shapes/<repo>/truth.json: small repositories laid out like
 *   real apps, each finding tagged with the shape class it exercises;
 * - fixtures/real-shapes-holdout/<repo>/truth.json: the same, held aside while
 *   the scanner is built, so its figures speak for code nobody tuned to;
 * - the existing fixtures that carry expectations (fixtures/rules/files/**
 *   expected.json, the @expect annotations of fixtures/rules/js, the demo app).
 *
 * A finding matches a truth entry on file + line + rule. A finding on a
 * marked line with another rule is a "rule mismatch": the line was found,
 * the classification was not. Findings of severity info and review markers
 * are not judged.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The shape classes of issue 13 (numbered) and the shapes the scanner already handled. */
export const SHAPES = {
  "vendored-client": "1 vendored copy of the V1 client (also on a white-label host)",
  "unknown-base": "2 V1 path, query or body on a base that cannot be resolved",
  "member-fallback-base": "3 member, fallback and object-config bases",
  "type-reference": "4 type positions naming V1 SDK names",
  "getter-factory": "5 clients reached through getters and factories",
  "config-prose": "6 .env values and docs sentences configuring the V1 host",
  "other-language": "7 Go, C#, Ruby, Python across statements; Python async SDK",
  "snapshot-pin": "8 node pinned by url + sibling hash in JSON",
  "sdk-internal": "9 SDK-internal client code and its relative-path tests",
  "direct-endpoint": "V1 host and endpoints written directly",
  "v1-sdk": "V1 SDK imports, clients and calls",
  manifest: "V1 SDK versions in manifests and lockfiles",
  "node-pin": "node pins in Dockerfiles, scripts and snapshots; worker images",
  "v1-path-on-v2-host": "issue 23/1 V1 paths (POST /api/run, GET /api/run?run_id=) on the V2 host",
  "split-base-other-language": "issue 23/2 base and path in different places or files, outside JS",
  "python-fstring": "issue 23/3 Python f-strings reading V1 SDK result fields",
  "pin-spelling": "issue 23/4 node pins in other spellings: letter case, owner/repo@sha, SHA constants, url + hash",
  "wheel-name": "issue 23/5 V1 Python SDK wheel file names in manifests",
  "vendored-import": "issue 23/6 a vendored V1 client's import and construction in app code",
  utf16: "issue 23/7 UTF-16 files holding the V1 host",
};

/** Shape labels of the existing fixtures, which carry no shape of their own. */
export const EXISTING_SHAPES = {
  "existing/files": "fixtures/rules/files (expected.json)",
  "existing/js": "fixtures/rules/js (@expect annotations)",
  "existing/demo-app": "fixtures/demo-app",
};

/** Rules being added for the shapes above; truth may name them before the catalog does. */
export const NEW_RULE_IDS = ["vendored-v1-client", "v1-shape-unknown-base", "v1-sdk-type"];

/** Never judged: markers report fix's own comments, info findings are advice. */
const IGNORED_RULES = new Set(["review-marker"]);

export const RECALL_TARGET = 0.98;

/** Per corpus: the held-aside third is judged against issue 23's target for unseen code. */
export const RECALL_TARGETS = { "real-shapes": RECALL_TARGET, existing: RECALL_TARGET, "real-shapes-holdout": 0.95 };

/** The corpora of hand-written repositories, each a folder of fixtures/. */
export const REPOSITORY_CORPORA = ["real-shapes", "real-shapes-holdout"];

// Languages by file name first (manifests belong to their ecosystem), then by extension.
const LANGUAGE_BY_NAME = {
  "package.json": "js/ts",
  "package-lock.json": "js/ts",
  "pnpm-lock.yaml": "js/ts",
  "yarn.lock": "js/ts",
  "tsconfig.json": "js/ts",
  "requirements.txt": "python",
  "pyproject.toml": "python",
  "poetry.lock": "python",
  "setup.py": "python",
  "go.mod": "go",
  "go.sum": "go",
  "composer.json": "php",
  "composer.lock": "php",
  Gemfile: "ruby",
  "Gemfile.lock": "ruby",
  "pom.xml": "java",
  "build.gradle": "java",
  "pubspec.yaml": "dart",
  "pubspec.lock": "dart",
  Dockerfile: "docker",
};
const LANGUAGE_BY_EXTENSION = {
  ts: "js/ts",
  tsx: "js/ts",
  js: "js/ts",
  jsx: "js/ts",
  mjs: "js/ts",
  cjs: "js/ts",
  vue: "js/ts",
  svelte: "js/ts",
  py: "python",
  go: "go",
  php: "php",
  cs: "csharp",
  csproj: "csharp",
  rb: "ruby",
  gemspec: "ruby",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  dart: "dart",
  sh: "shell",
  bash: "shell",
  ps1: "shell",
  dockerfile: "docker",
  md: "docs",
  mdx: "docs",
  rst: "docs",
  txt: "config",
  json: "config",
  yaml: "config",
  yml: "config",
  toml: "config",
  tf: "config",
  tfvars: "config",
  ini: "config",
  xml: "config",
  properties: "config",
  env: "config",
  list: "config",
  lock: "config",
};

/**
 * The language or config family a truth entry belongs to: its own `language`
 * if it names one, else derived from the file name (`.env*` files are config).
 */
export function languageOf(entry) {
  if (typeof entry.language === "string" && entry.language) return entry.language;
  const name = entry.file.split("/").at(-1) ?? entry.file;
  if (LANGUAGE_BY_NAME[name]) return LANGUAGE_BY_NAME[name];
  if (name.startsWith(".env")) return "config";
  if (/^requirements.*\.txt$/.test(name)) return "python";
  const dot = name.lastIndexOf(".");
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : "";
  return LANGUAGE_BY_EXTENSION[extension] ?? "other";
}

const key = (f) => `${f.file}:${f.line}:${f.rule}`;
const lineKey = (f) => `${f.file}:${f.line}`;

/** Scan findings as `{ file, line, rule }`, deduplicated, without the ones never judged. */
export function judgedFindings(findings) {
  const out = new Map();
  for (const f of findings) {
    if (f.severity === "info" || IGNORED_RULES.has(f.ruleId)) continue;
    const finding = { file: f.file, line: f.line, rule: f.ruleId };
    out.set(key(finding), finding);
  }
  return [...out.values()];
}

/**
 * Matches findings to truth. Exact matches first; then, line by line, an
 * unmatched truth entry and an unmatched finding on the same line pair up as
 * a rule mismatch. What is left is missed (truth) or a false positive.
 */
export function matchFindings(truth, findings) {
  const pending = new Map(findings.map((f) => [key(f), f]));
  const matched = [];
  const unmatchedTruth = [];
  for (const entry of truth) {
    const k = key(entry);
    if (pending.has(k)) {
      matched.push(entry);
      pending.delete(k);
    } else {
      unmatchedTruth.push(entry);
    }
  }
  const byLine = new Map();
  for (const f of pending.values()) {
    const list = byLine.get(lineKey(f)) ?? [];
    list.push(f);
    byLine.set(lineKey(f), list);
  }
  const ruleMismatches = [];
  const missed = [];
  for (const entry of unmatchedTruth) {
    const candidates = byLine.get(lineKey(entry));
    const finding = candidates?.shift();
    if (finding) {
      ruleMismatches.push({ truth: entry, finding });
      pending.delete(key(finding));
    } else {
      missed.push(entry);
    }
  }
  return { matched, ruleMismatches, missed, falsePositives: [...pending.values()] };
}

/** A truth.json: `{ findings, negatives }` or a bare list; `ruleId` is read as `rule`. */
export function readTruth(path) {
  const raw = JSON.parse(readFileSync(path, "utf8"));
  const findings = Array.isArray(raw) ? raw : (raw.findings ?? []);
  const negatives = Array.isArray(raw) ? [] : (raw.negatives ?? []);
  return {
    description: Array.isArray(raw) ? undefined : raw.description,
    findings: findings.map((f) => ({ ...f, rule: f.rule ?? f.ruleId })),
    negatives,
  };
}

/** A file's text: UTF-16 when it starts with a byte-order mark (the corpus holds UTF-16 files on purpose), else UTF-8. */
export function readText(path) {
  const bytes = readFileSync(path);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString("utf16le");
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString("utf16le");
  }
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}

/**
 * Problems in one repository's truth: missing files, lines past the end or
 * blank, unknown rules or shapes, duplicates, a negative on a marked line.
 */
export function validateTruth(dir, truth, knownRules) {
  const problems = [];
  const fileLines = new Map();
  const lineText = (file, line) => {
    if (!fileLines.has(file)) {
      const path = join(dir, file);
      const lines = existsSync(path) ? readText(path).split(/\r?\n/) : null;
      if (lines?.at(-1) === "") lines.pop(); // the final newline ends the last line, it starts none
      fileLines.set(file, lines);
    }
    const lines = fileLines.get(file);
    if (!lines) return { error: "file does not exist" };
    if (!Number.isInteger(line) || line < 1 || line > lines.length)
      return { error: `line ${line} is outside 1..${lines.length}` };
    return { text: lines[line - 1] };
  };
  const seen = new Set();
  for (const entry of truth.findings) {
    const where = `${entry.file}:${entry.line}:${entry.rule}`;
    const at = lineText(entry.file, entry.line);
    if (at.error) problems.push(`${where}: ${at.error}`);
    else if (at.text.trim() === "") problems.push(`${where}: the line is blank`);
    if (!knownRules.has(entry.rule)) problems.push(`${where}: unknown rule`);
    if (!(entry.shape in SHAPES)) problems.push(`${where}: unknown shape "${entry.shape}"`);
    if (typeof entry.note !== "string" || entry.note.trim() === "") problems.push(`${where}: no note`);
    if (seen.has(where)) problems.push(`${where}: listed twice`);
    seen.add(where);
  }
  const markedLines = new Set(truth.findings.map(lineKey));
  for (const negative of truth.negatives) {
    const where = `${negative.file}:${negative.line}`;
    const at = lineText(negative.file, negative.line);
    if (at.error) problems.push(`negative ${where}: ${at.error}`);
    if (markedLines.has(where)) problems.push(`negative ${where}: the line is also in findings`);
    if (!(negative.shape in SHAPES)) problems.push(`negative ${where}: unknown shape "${negative.shape}"`);
  }
  return problems;
}

// ---------------------------------------------------------------------------
// Corpora: each case is one directory scanned as a repository.
// ---------------------------------------------------------------------------

const posixPath = (p) => p.split(sep).join("/");

/** The repositories of one hand-written corpus (fixtures/<corpus>/<repo>/truth.json), with their truth. */
export function repositoryCases(repoRoot, corpus) {
  const root = join(repoRoot, "fixtures", corpus);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, "truth.json")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = join(root, name);
      const truth = readTruth(join(dir, "truth.json"));
      return { corpus, name, dir, exclude: ["truth.json"], truth: truth.findings, negatives: truth.negatives };
    });
}

/** The real-shapes repositories (the training set), with their truth. */
export function realShapesCases(repoRoot) {
  return repositoryCases(repoRoot, "real-shapes");
}

/** The held-aside repositories, with their truth. */
export function holdoutCases(repoRoot) {
  return repositoryCases(repoRoot, "real-shapes-holdout");
}

/** The existing fixtures with expectations, as cases of the same form. */
export function existingCases(repoRoot) {
  const fixtures = join(repoRoot, "fixtures");
  const cases = [];
  const filesRoot = join(fixtures, "rules", "files");
  for (const dir of expectedDirs(filesRoot)) {
    const truth = readTruth(join(dir, "expected.json")).findings.map((f) => ({ ...f, shape: "existing/files" }));
    cases.push({
      corpus: "existing",
      name: `rules/files/${posixPath(relative(filesRoot, dir))}`,
      dir,
      exclude: ["expected.json"],
      truth,
      negatives: [],
    });
  }
  const jsRoot = join(fixtures, "rules", "js");
  if (existsSync(jsRoot)) {
    for (const name of readdirSync(jsRoot).sort()) {
      const dir = join(jsRoot, name);
      cases.push({
        corpus: "existing",
        name: `rules/js/${name}`,
        dir,
        exclude: [],
        truth: annotationTruth(dir),
        negatives: [],
      });
    }
  }
  const demoExpected = join(fixtures, "demo-app.expected.json");
  if (existsSync(demoExpected)) {
    const truth = readTruth(demoExpected).findings.map((f) => ({ ...f, shape: "existing/demo-app" }));
    cases.push({
      corpus: "existing",
      name: "demo-app",
      dir: join(fixtures, "demo-app"),
      exclude: [],
      truth,
      negatives: [],
    });
  }
  return cases;
}

function expectedDirs(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (existsSync(join(path, "expected.json"))) out.push(path);
    else out.push(...expectedDirs(path));
  }
  return out.sort();
}

/** Same syntax as test/helpers/annotations.ts: `@expect <ruleId> ...` on the line that must produce them. */
const EXPECT = /@expect\s+([a-z0-9-]+(?:[ \t]+[a-z0-9-]+)*)/;

function annotationTruth(dir) {
  const truth = [];
  for (const file of readdirSync(dir).sort()) {
    readFileSync(join(dir, file), "utf8")
      .split(/\r?\n/)
      .forEach((text, index) => {
        const match = EXPECT.exec(text);
        if (!match) return;
        for (const rule of match[1].split(/\s+/)) truth.push({ file, line: index + 1, rule, shape: "existing/js" });
      });
  }
  return truth;
}

// ---------------------------------------------------------------------------
// Running the built CLI and judging its answers.
// ---------------------------------------------------------------------------

/**
 * `scan <dir> --format json` with the built CLI; resolves to the report's
 * findings, with paths relative to the case's directory (the report's are
 * relative to the repository root, and the corpora live inside this one).
 */
export function scanWithCli(cli, testCase) {
  const args = [cli, "scan", testCase.dir, "--format", "json", "--fail-on", "none", "--no-progress", "--no-color"];
  for (const pattern of testCase.exclude) args.push("--exclude", pattern);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      if (status !== 0) {
        reject(new Error(`scan ${testCase.name} exited ${status}: ${stderr.trim().split("\n")[0] ?? ""}`));
        return;
      }
      try {
        const report = JSON.parse(stdout);
        const prefix = relative(report.root, realpathSync(testCase.dir)).split(sep).join("/");
        const inCase = (file) => (prefix && file.startsWith(`${prefix}/`) ? file.slice(prefix.length + 1) : file);
        resolve(report.findings.map((f) => ({ ...f, file: inCase(f.file) })));
      } catch (error) {
        reject(new Error(`scan ${testCase.name} printed no JSON report: ${error.message}`));
      }
    });
  });
}

/** Scans every case (a few at a time) and matches each against its truth. */
export async function judgeCases(cli, cases, { concurrency = 4 } = {}) {
  const results = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const testCase = cases[index];
      const findings = judgedFindings(await scanWithCli(cli, testCase));
      results[index] = { ...testCase, ...matchFindings(testCase.truth, findings) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  return results;
}

/**
 * Totals per shape class (or, with `{ by: "language" }`, per language) and
 * overall. By shape, a false positive on a declared negative line counts
 * against that negative's shape, any other against "unclassified"; by
 * language, against the language of its file.
 */
export function summarise(results, { by = "shape" } = {}) {
  const groupOf = by === "language" ? languageOf : (entry) => entry.shape;
  const rows = new Map();
  const row = (shape) => {
    if (!rows.has(shape))
      rows.set(shape, { shape, expected: 0, found: 0, ruleMismatch: 0, missed: 0, falsePositives: 0 });
    return rows.get(shape);
  };
  const expect = (shape, outcome) => {
    const r = row(shape);
    r.expected++;
    r[outcome]++;
  };
  const total = { shape: "total", expected: 0, found: 0, ruleMismatch: 0, missed: 0, falsePositives: 0 };
  for (const result of results) {
    for (const entry of result.matched) expect(groupOf(entry), "found");
    for (const { truth } of result.ruleMismatches) expect(groupOf(truth), "ruleMismatch");
    for (const entry of result.missed) expect(groupOf(entry), "missed");
    const negativeShape = new Map(result.negatives.map((n) => [lineKey(n), n.shape]));
    for (const fp of result.falsePositives) {
      row(by === "language" ? languageOf(fp) : (negativeShape.get(lineKey(fp)) ?? "unclassified")).falsePositives++;
    }
  }
  for (const r of rows.values()) {
    for (const field of ["expected", "found", "ruleMismatch", "missed", "falsePositives"]) total[field] += r[field];
  }
  const order = [...Object.keys(SHAPES), ...Object.keys(EXISTING_SHAPES), "unclassified"];
  const rank = (r) => (by === "language" ? r.shape : String(order.indexOf(r.shape)).padStart(4, "0"));
  const sorted = [...rows.values()].sort((a, b) => rank(a).localeCompare(rank(b)));
  return { rows: sorted, total };
}

/** Found / expected; 1 when nothing is expected. */
export function recallOf(row) {
  return row.expected === 0 ? 1 : row.found / row.expected;
}
