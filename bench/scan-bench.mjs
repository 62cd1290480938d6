// Scanner benchmark: `comfydeploy-migrate scan` against `git grep` (and `rg`
// when installed) on a large deterministic synthetic repository.
//
//   node --expose-gc bench/scan-bench.mjs [--files N] [--runs N] [--check]
//   node --expose-gc bench/scan-bench.mjs --real [--tree DIR] [--monorepo-tree DIR] [--runs N] [--check]
//
// --real measures, side by side, on ../shared/bench/make-real-tree.sh's tree
// (~55k files of published npm packages under vendor/) and on
// bench/make-monorepo-tree.sh's (the same kind of packages as first-party
// workspace packages), both with planted V1 uses, built on first use into
// .bench/ (git-ignored). Those are the trees the targets hold on; the
// synthetic tree stays for shape coverage.
//
// See bench/README.md.
import { spawn, spawnSync } from "node:child_process";
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { delimiter, dirname, join, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createRequire } from "node:module";

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(BENCH_DIR, "..");
const CLI = join(REPO_ROOT, "dist", "src", "cli.js");
const PROBE = join(BENCH_DIR, "rss-probe.mjs");

/** Bump whenever the generator's output changes, so old trees are rebuilt. */
const GENERATOR_VERSION = 2;
const SEED = 0x5eed_c0de;
const MARKER = "comfydeploy-migrate-bench.json"; // kept inside .git/ so it is neither tracked nor scanned

const TARGET_RATIO = 4.0;
const TARGET_RSS_MB = 250;
const TARGET_RG_RATIO = 2.0;

// ---------------------------------------------------------------------------
// Command line

function usage() {
  return [
    "Usage: node --expose-gc bench/scan-bench.mjs [options]",
    "",
    "  --files N   files in the synthetic tree (default 30000)",
    "  --runs N    measured runs per command, after one warm-up (default 5)",
    "  --real      measure on the real-package tree (built on first use; needs the npm registry once)",
    "  --tree DIR  where the real tree lives (default .bench/real-tree)",
    "  --monorepo-tree DIR  where the monorepo tree lives (default .bench/monorepo-tree)",
    "  --cli PATH  the scanner to measure (default dist/src/cli.js; another build's, to compare)",
    "  --record-findings  write each real tree's file:line:rule set to bench/results/ as the baseline",
    "  --check     exit 1 when a target is missed",
    "  -h, --help  show this help",
  ].join("\n");
}

function parseCli() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        files: { type: "string", default: "30000" },
        runs: { type: "string", default: "5" },
        check: { type: "boolean", default: false },
        real: { type: "boolean", default: false },
        tree: { type: "string", default: join(REPO_ROOT, ".bench", "real-tree") },
        "monorepo-tree": { type: "string", default: join(REPO_ROOT, ".bench", "monorepo-tree") },
        cli: { type: "string", default: CLI },
        "record-findings": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: false,
    });
  } catch (error) {
    console.error(`${error.message}\n\n${usage()}`);
    process.exit(2);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const files = positiveInt(values.files, "--files");
  const runs = positiveInt(values.runs, "--runs");
  if (files < 50) {
    console.error("--files must be at least 50");
    process.exit(2);
  }
  return {
    files,
    runs,
    check: values.check,
    real: values.real,
    tree: resolve(values.tree),
    monorepoTree: resolve(values["monorepo-tree"]),
    cli: resolve(values.cli),
    recordFindings: values["record-findings"],
  };
}

function positiveInt(text, flag) {
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    console.error(`${flag} expects a positive integer, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return Number(text);
}

// ---------------------------------------------------------------------------
// Deterministic randomness

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  int(min, max) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p) {
    return this.next() < p;
  }
  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }
  weighted(entries) {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }
  some(items, min, max) {
    const pool = [...items];
    const out = [];
    const n = Math.min(pool.length, this.int(min, max));
    for (let i = 0; i < n; i++) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
    return out;
  }
  hex(length) {
    let s = "";
    for (let i = 0; i < length; i++) s += "0123456789abcdef"[Math.floor(this.next() * 16)];
    return s;
  }
  uuid() {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }
}

// ---------------------------------------------------------------------------
// Vocabulary (deliberately free of the prefilter's needles, so that only the
// planted files and the look-alikes are candidates)

const NOUNS = [
  "user",
  "account",
  "billing",
  "invoice",
  "order",
  "cart",
  "product",
  "catalog",
  "search",
  "session",
  "auth",
  "token",
  "profile",
  "media",
  "image",
  "upload",
  "storage",
  "cache",
  "queue",
  "job",
  "task",
  "schedule",
  "notification",
  "email",
  "webhook",
  "event",
  "metric",
  "audit",
  "config",
  "setting",
  "theme",
  "layout",
  "widget",
  "chart",
  "table",
  "form",
  "modal",
  "button",
  "route",
  "store",
  "reducer",
  "format",
  "parser",
  "schema",
  "model",
  "client",
  "server",
  "gateway",
  "proxy",
  "tenant",
  "team",
  "project",
  "workspace",
  "asset",
  "preview",
  "report",
  "payment",
  "subscription",
  "plan",
  "coupon",
  "address",
  "shipment",
  "inventory",
  "review",
  "comment",
  "message",
  "thread",
  "channel",
  "member",
  "role",
  "permission",
  "feature",
  "flag",
  "experiment",
  "locale",
  "translation",
  "thumbnail",
  "video",
  "prompt",
  "workflow",
  "pipeline",
  "stage",
  "template",
  "document",
  "folder",
  "file",
  "link",
  "tag",
  "label",
  "status",
  "health",
  "limit",
  "quota",
  "batch",
  "cursor",
  "page",
  "filter",
  "digest",
];
const VERBS = [
  "get",
  "fetch",
  "load",
  "create",
  "update",
  "delete",
  "list",
  "sync",
  "build",
  "resolve",
  "normalize",
  "validate",
  "format",
  "parse",
  "compute",
  "apply",
  "merge",
  "filter",
  "sort",
  "group",
  "map",
  "render",
  "handle",
  "process",
  "schedule",
  "notify",
  "register",
  "refresh",
  "archive",
  "restore",
  "publish",
  "track",
];
const ADJECTIVES = [
  "active",
  "pending",
  "default",
  "remote",
  "local",
  "cached",
  "stale",
  "primary",
  "shared",
  "public",
  "private",
  "recent",
  "archived",
  "draft",
  "visible",
  "hidden",
  "nested",
  "partial",
  "full",
  "legacy",
];
const PACKAGES = [
  "core",
  "web",
  "api",
  "admin",
  "dashboard",
  "shared",
  "ui-kit",
  "billing",
  "notifications",
  "media-pipeline",
  "analytics",
  "auth",
  "search-indexer",
  "jobs",
  "cli",
  "sdk",
  "design-tokens",
  "forms",
  "charts",
  "i18n",
  "storage",
  "gateway",
  "editor",
  "uploads",
  "checkout",
  "catalog",
  "reports",
  "realtime",
  "feature-flags",
  "audit-log",
];
const APPS = ["storefront", "backoffice", "marketing-site", "mobile-shell", "studio", "docs-site", "partner-portal"];
const SERVICES = [
  "render-worker",
  "thumbnailer",
  "recommender",
  "ingest",
  "scheduler",
  "moderation",
  "exporter",
  "billing-sync",
];
const SRC_SUBDIRS = [
  "components",
  "hooks",
  "lib",
  "utils",
  "services",
  "api",
  "routes",
  "pages",
  "store",
  "models",
  "features",
  "handlers",
  "middleware",
  "adapters",
  "client",
  "server",
  "shared",
  "internal",
  "views",
  "widgets",
  "forms",
  "layouts",
  "providers",
  "queries",
  "mutations",
  "schemas",
  "types",
  "helpers",
  "jobs",
  "config",
];
const DOC_SECTIONS = ["guides", "reference", "architecture", "operations", "onboarding", "decisions", "api", "howto"];
const LOCALES = ["en", "de", "fr", "es", "ja", "pt-br", "it", "nl", "ko", "zh-cn"];
const ENVIRONMENTS = ["dev", "staging", "production", "preview", "qa"];
const VENDOR_BASES = [
  "https://api.stripe.com/v1",
  "https://api.github.com",
  "https://hooks.slack.com/services",
  "https://api.sendgrid.com/v3",
  "https://api.openai.com/v1",
  "https://api.segment.io/v1",
  "https://api.mapbox.com",
  "https://api.cloudflare.com/client/v4",
  "https://graph.microsoft.com/v1.0",
  "https://api.posthog.com",
  "https://storage.googleapis.com/storage/v1",
  "http://internal-gateway.acme.local",
  "https://api.acme-internal.dev/v2",
];
const NPM_DEPS = [
  ["react", "^18.3.1"],
  ["react-dom", "^18.3.1"],
  ["zod", "^3.23.8"],
  ["lodash", "^4.17.21"],
  ["date-fns", "^3.6.0"],
  ["express", "^4.19.2"],
  ["pino", "^9.3.2"],
  ["axios", "^1.7.2"],
  ["@tanstack/react-query", "^5.51.1"],
  ["clsx", "^2.1.1"],
  ["nanoid", "^5.0.7"],
  ["undici", "^6.19.2"],
  ["ioredis", "^5.4.1"],
  ["pg", "^8.12.0"],
  ["sharp", "^0.33.4"],
  ["yaml", "^2.4.5"],
];

const V1_BASE = "https://www.comfydeploy.com/api";
const V2_QUEUE = "https://api.comfydeploy.com/api/run/deployment/queue";
const RUNPOD_BASE = "https://api.runpod.ai/v2";

// ---------------------------------------------------------------------------
// Naming helpers

const cap = (w) => w[0].toUpperCase() + w.slice(1);
const camel = (words) => words[0] + words.slice(1).map(cap).join("");
const pascal = (words) => words.map(cap).join("");
const kebab = (words) => words.join("-");
const snake = (words) => words.join("_");
const upper = (words) => words.join("_").toUpperCase();

function nounWords(rng, min = 1, max = 2) {
  const n = rng.int(min, max);
  const words = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(NOUNS));
  return words;
}
const fnName = (rng) => camel([rng.pick(VERBS), ...nounWords(rng)]);
const typeName = (rng) => pascal(nounWords(rng));
const pyName = (rng) => snake([rng.pick(VERBS), ...nounWords(rng)]);

function sentence(rng) {
  const words = [];
  const n = rng.int(6, 16);
  for (let i = 0; i < n; i++) {
    words.push(rng.chance(0.25) ? rng.pick(VERBS) : rng.chance(0.2) ? rng.pick(ADJECTIVES) : rng.pick(NOUNS));
    if (rng.chance(0.15))
      words.push(rng.pick(["the", "a", "each", "every", "with", "for", "and", "when", "before", "after"]));
  }
  const s = words.join(" ");
  return `${cap(s)}.`;
}
const paragraph = (rng, min = 2, max = 5) => Array.from({ length: rng.int(min, max) }, () => sentence(rng)).join(" ");

// ---------------------------------------------------------------------------
// Planted snippets: real V1 uses and look-alikes, per file type

function jsV1Snippet(rng, { exportKw, cjs }) {
  const variant = rng.weighted([
    ["fetch", 4],
    ["sdk", 3],
    ["axios", 3],
  ]);
  const fn = camel([rng.pick(["queue", "start", "submit", "trigger"]), ...nounWords(rng, 1, 1)]);
  if (variant === "fetch") {
    const body = [
      `const BASE = "${V1_BASE}";`,
      "",
      `${exportKw}async function ${fn}(deploymentId, inputs) {`,
      "  const res = await fetch(`${BASE}/run`, {",
      '    method: "POST",',
      "    headers: {",
      '      "Content-Type": "application/json",',
      "      Authorization: `Bearer ${process.env.COMFY_DEPLOY_API_KEY}`,",
      "    },",
      "    body: JSON.stringify({ deployment_id: deploymentId, inputs }),",
      "  });",
      "  if (!res.ok) throw new Error(`queue failed: ${res.status}`);",
      "  const data = await res.json();",
      "  return data.run_id;",
      "}",
    ];
    if (rng.chance(0.6)) {
      body.push(
        "",
        `${exportKw}async function ${camel(["poll", ...nounWords(rng, 1, 1)])}(runId) {`,
        "  const res = await fetch(`${BASE}/run?run_id=${runId}`, {",
        "    headers: { Authorization: `Bearer ${process.env.COMFY_DEPLOY_API_KEY}` },",
        "  });",
        "  return res.json();",
        "}",
      );
    }
    return { top: [], body };
  }
  if (variant === "sdk") {
    const top = [
      cjs
        ? 'const { ComfyDeployClient } = require("comfydeploy");'
        : 'import { ComfyDeployClient } from "comfydeploy";',
    ];
    const clientName = "client";
    const body = [
      "const apiToken = process.env.COMFY_DEPLOY_API_TOKEN;",
      `const ${clientName} = new ComfyDeployClient({ apiToken });`,
      "",
      `${exportKw}async function ${fn}(prompt) {`,
      `  const { run_id } = await ${clientName}.run({`,
      `    deployment_id: "${rng.uuid()}",`,
      "    inputs: { input_text: prompt },",
      "  });",
      "  return run_id;",
      "}",
    ];
    if (rng.chance(0.5)) {
      body.push(
        "",
        `${exportKw}async function ${camel(["check", ...nounWords(rng, 1, 1)])}(runId) {`,
        `  const run = await ${clientName}.getRun(runId);`,
        '  return run?.status === "success" ? run.outputs : undefined;',
        "}",
      );
    }
    return { top, body };
  }
  const top = [cjs ? 'const axios = require("axios");' : 'import axios from "axios";'];
  const body = [
    `const COMFY_API = "${V1_BASE}";`,
    "",
    `${exportKw}async function ${camel(["get", ...nounWords(rng, 1, 1), "status"])}(run_id) {`,
    "  const { data } = await axios.get(`${COMFY_API}/run`, {",
    "    params: { run_id },",
    "    headers: { Authorization: `Bearer ${process.env.COMFY_DEPLOY_API_KEY}` },",
    "  });",
    "  return data;",
    "}",
  ];
  return { top, body };
}

/** A module that owns the V1 client and exports it (lib/comfy-client.ts and the like). */
function jsClientModuleSnippet(rng) {
  const body = [
    "const apiToken = process.env.COMFY_DEPLOY_API_TOKEN;",
    "",
    "export const comfyClient = new ComfyDeployClient({ apiToken });",
  ];
  if (rng.chance(0.5)) {
    body.push(
      "",
      "export async function waitForOutputs(runId, intervalMs = 2000) {",
      "  for (;;) {",
      "    const run = await comfyClient.getRun(runId);",
      '    if (run?.status === "success") return run.outputs;',
      '    if (run?.status === "failed") throw new Error(`run ${runId} failed`);',
      "    await new Promise((resolve) => setTimeout(resolve, intervalMs));",
      "  }",
      "}",
    );
  }
  return { top: ['import { ComfyDeployClient } from "comfydeploy";'], body };
}

/** A file that only uses an imported client: no needle of its own, found through the client module. */
function jsClientImporterSnippet(rng, importPath) {
  const fn = camel([rng.pick(["render", "generate", "create"]), ...nounWords(rng, 1, 1)]);
  return {
    top: [`import { comfyClient } from "${importPath}";`],
    body: [
      `export async function ${fn}(request) {`,
      "  const result = await comfyClient.run(request);",
      "  return result;",
      "}",
    ],
  };
}

function jsLookalikeSnippet(rng, { exportKw }) {
  const variant = rng.weighted([
    ["runpod", 4],
    ["v2", 4],
    ["ci", 2],
  ]);
  const fn = camel([rng.pick(["queue", "start", "submit", "dispatch"]), ...nounWords(rng, 1, 1)]);
  if (variant === "runpod") {
    return {
      top: [],
      body: [
        `const RUNPOD_BASE = "${RUNPOD_BASE}";`,
        "",
        `${exportKw}async function ${fn}(endpointId, input) {`,
        "  const res = await fetch(`${RUNPOD_BASE}/${endpointId}/run`, {",
        '    method: "POST",',
        '    headers: { "Content-Type": "application/json", Authorization: `Bearer ${process.env.RUNPOD_API_KEY}` },',
        "    body: JSON.stringify({ input }),",
        "  });",
        "  return res.json();",
        "}",
      ],
    };
  }
  if (variant === "v2") {
    return {
      top: [],
      body: [
        `${exportKw}async function ${fn}(deploymentId, inputs) {`,
        `  const res = await fetch("${V2_QUEUE}", {`,
        '    method: "POST",',
        "    headers: {",
        '      "Content-Type": "application/json",',
        "      Authorization: `Bearer ${process.env.COMFY_DEPLOY_API_KEY}`,",
        "    },",
        "    body: JSON.stringify({ deployment_id: deploymentId, inputs }),",
        "  });",
        "  const { run_id } = await res.json();",
        "  return run_id;",
        "}",
      ],
    };
  }
  return {
    top: [],
    body: [
      `${exportKw}async function ${camel(["fetch", "workflow", ...nounWords(rng, 1, 1)])}(owner, repo, run_id) {`,
      "  const res = await fetch(`https://api.github.com/repos/${owner}/${repo}/actions/runs/${run_id}`, {",
      '    headers: { Accept: "application/vnd.github+json" },',
      "  });",
      "  return res.json();",
      "}",
    ],
  };
}

function pyPlant(rng, kind) {
  if (kind === "v1") {
    const lines = [
      `COMFY_API = "${V1_BASE}"`,
      "",
      "",
      `def ${snake([rng.pick(["queue", "submit", "start"]), rng.pick(NOUNS)])}(deployment_id, inputs):`,
      "    response = requests.post(",
      '        f"{COMFY_API}/run",',
      '        headers={"Authorization": f"Bearer {os.environ[\'COMFY_DEPLOY_API_KEY\']}"},',
      '        json={"deployment_id": deployment_id, "inputs": inputs},',
      "        timeout=30,",
      "    )",
      "    response.raise_for_status()",
      '    return response.json()["run_id"]',
    ];
    if (rng.chance(0.5)) {
      lines.push(
        "",
        "",
        `def ${snake(["poll", rng.pick(NOUNS)])}(run_id):`,
        '    response = requests.get(f"{COMFY_API}/run", params={"run_id": run_id}, timeout=30)',
        "    return response.json()",
      );
    }
    return lines;
  }
  if (rng.chance(0.5)) {
    return [
      `RUNPOD_BASE = "${RUNPOD_BASE}"`,
      "",
      "",
      `def ${snake(["submit", rng.pick(NOUNS)])}(endpoint_id, payload):`,
      '    response = requests.post(f"{RUNPOD_BASE}/{endpoint_id}/run", json={"input": payload}, timeout=30)',
      "    return response.json()",
    ];
  }
  return [
    `def ${snake(["queue", rng.pick(NOUNS)])}(deployment_id, inputs):`,
    "    response = requests.post(",
    `        "${V2_QUEUE}",`,
    '        json={"deployment_id": deployment_id, "inputs": inputs},',
    "        timeout=30,",
    "    )",
    '    return response.json()["run_id"]',
  ];
}

function mdPlant(rng, kind) {
  if (kind === "v1") {
    const lines = [
      "## Generating images",
      "",
      "Queue a run of the deployed workflow:",
      "",
      "```bash",
      `curl -X POST ${V1_BASE}/run \\`,
      '  -H "Authorization: Bearer $COMFY_DEPLOY_API_KEY" \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '{"deployment_id": "${rng.uuid()}", "inputs": {"input_text": "a red bicycle"}}'`,
      "```",
      "",
    ];
    if (rng.chance(0.6)) {
      lines.push(
        "Then poll for the result:",
        "",
        "```bash",
        `curl "${V1_BASE}/run?run_id=$RUN_ID" -H "Authorization: Bearer $COMFY_DEPLOY_API_KEY"`,
        "```",
        "",
      );
    }
    return lines;
  }
  if (rng.chance(0.5)) {
    return [
      "## Serverless inference",
      "",
      "```bash",
      `curl -X POST ${RUNPOD_BASE}/$ENDPOINT_ID/run \\`,
      '  -H "Authorization: Bearer $RUNPOD_API_KEY" \\',
      `  -d '{"input": {"prompt": "a lighthouse at dusk"}}'`,
      "```",
      "",
    ];
  }
  return [
    "## Queueing a run (V2)",
    "",
    "```bash",
    `curl -X POST ${V2_QUEUE} \\`,
    '  -H "Authorization: Bearer $COMFY_DEPLOY_API_KEY" \\',
    `  -d '{"deployment_id": "${rng.uuid()}", "inputs": {}}'`,
    "```",
    "",
  ];
}

function envPlant(rng, kind) {
  if (kind === "v1") {
    return [`COMFY_API=${V1_BASE}`, `COMFY_DEPLOYMENT_ID=${rng.uuid()}`];
  }
  return rng.chance(0.5)
    ? [`RUNPOD_ENDPOINT_URL=${RUNPOD_BASE}/${rng.hex(12)}/run`]
    : ["COMFY_API=https://api.comfydeploy.com/api"];
}

function yamlPlant(rng, kind) {
  const url = kind === "v1" ? V1_BASE : rng.chance(0.5) ? `${RUNPOD_BASE}/${rng.hex(12)}/run` : V2_QUEUE;
  return [
    "---",
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    `  name: ${kebab(nounWords(rng))}-inference`,
    "data:",
    `  ${kind === "v1" ? "COMFY_API" : "INFERENCE_URL"}: ${url}`,
  ];
}

function shPlant(rng, kind) {
  if (kind === "v1") {
    return [
      `curl -sS -X POST "${V1_BASE}/run" \\`,
      '  -H "Authorization: Bearer ${COMFY_DEPLOY_API_KEY}" \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '{"deployment_id": "${rng.uuid()}", "inputs": {}}'`,
    ];
  }
  return [
    `curl -sS -X POST "${RUNPOD_BASE}/\${ENDPOINT_ID}/run" \\`,
    '  -H "Authorization: Bearer ${RUNPOD_API_KEY}" \\',
    `  -d '{"input": {}}'`,
  ];
}

// ---------------------------------------------------------------------------
// File content generators

function genJs(rng, ext, plant) {
  const ts = ext === "ts" || ext === "tsx";
  const jsx = ext === "tsx";
  const cjs = ext === "js" && !plant?.esm && rng.chance(0.3);
  const exportKw = cjs ? "" : "export ";
  const target = rng.int(20, 185);
  const lines = [];
  if (rng.chance(0.4)) lines.push("/**", ` * ${sentence(rng)}`, ` * ${sentence(rng)}`, " */");

  const imports = [];
  if (jsx)
    imports.push(
      rng.chance(0.5) ? 'import { useEffect, useMemo, useState } from "react";' : 'import React from "react";',
    );
  for (let i = rng.int(1, 6); i > 0; i--) {
    const rel =
      rng.pick(["./", "./", "../", "../../", "@acme/"]) +
      (rng.chance(0.5) ? kebab(nounWords(rng)) : rng.pick(PACKAGES));
    const names = Array.from({ length: rng.int(1, 3) }, () => (rng.chance(0.5) ? fnName(rng) : typeName(rng)));
    const unique = [...new Set(names)];
    if (cjs) imports.push(`const { ${unique.join(", ")} } = require("${rel}");`);
    else if (ts && rng.chance(0.25))
      imports.push(
        `import type { ${unique
          .map(() => typeName(rng))
          .filter((v, j, a) => a.indexOf(v) === j)
          .join(", ")} } from "${rel}";`,
      );
    else imports.push(`import { ${unique.join(", ")} } from "${rel}";`);
  }
  if (rng.chance(0.3)) {
    const [dep] = rng.pick(NPM_DEPS.filter(([d]) => !d.startsWith("react")));
    const local = camel(
      dep
        .replace(/^@[^/]+\//, "")
        .split(/[^a-z]+/)
        .filter(Boolean),
    );
    imports.push(cjs ? `const ${local} = require("${dep}");` : `import ${local} from "${dep}";`);
  }
  let snippet;
  if (plant?.type === "v1") snippet = jsV1Snippet(rng, { exportKw, cjs });
  else if (plant?.type === "lookalike") snippet = jsLookalikeSnippet(rng, { exportKw });
  else if (plant?.type === "client-module") snippet = jsClientModuleSnippet(rng);
  else if (plant?.type === "client-importer") snippet = jsClientImporterSnippet(rng, plant.importPath);
  if (snippet) imports.push(...snippet.top);
  lines.push(...[...new Set(imports)], "");

  const services = [];
  for (let i = rng.int(0, 2); i > 0; i--) {
    const name = `${upper(nounWords(rng, 1, 1))}_SERVICE_URL`;
    if (services.includes(name)) continue;
    services.push(name);
    lines.push(`const ${name} = process.env.${name} ?? "${rng.pick(VENDOR_BASES)}";`);
  }
  if (services.length) lines.push("");

  const exported = [];
  const blocks = [];
  let count = lines.length;
  const blockKinds = [
    ["fn", 3],
    ["fetch", services.length ? 2.5 : 1],
    ["class", 1.5],
    ["const", 1],
    ["reducer", 1],
    ["arrow", 1.5],
    ...(ts ? [["type", 2]] : []),
    ...(jsx ? [["component", 4]] : []),
  ];
  while (count < target) {
    const block = genJsBlock(rng, rng.weighted(blockKinds), { ts, exportKw, services, exported });
    blocks.push(block);
    count += block.length + 1;
  }
  if (snippet) blocks.splice(rng.int(0, blocks.length), 0, snippet.body);
  for (const block of blocks) lines.push(...block, "");
  if (cjs && exported.length) lines.push(`module.exports = { ${exported.join(", ")} };`, "");
  return lines.join("\n");
}

function genJsBlock(rng, kind, { ts, exportKw, services, exported }) {
  const t = (s) => (ts ? s : "");
  switch (kind) {
    case "fn": {
      const name = fnName(rng);
      exported.push(name);
      const arg = camel(nounWords(rng, 1, 1));
      const out = [
        `${exportKw}function ${name}(${arg}${t(`: ${typeName(rng)}[]`)}, options${t(`: { ${rng.pick(ADJECTIVES)}?: boolean }`)} = {})${t(": number")} {`,
      ];
      out.push(`  let total = 0;`);
      out.push(`  for (const item of ${arg}) {`);
      for (let i = rng.int(1, 4); i > 0; i--) {
        out.push(
          `    if (item.${camel(nounWords(rng, 1, 1))} ${rng.pick(["===", "!==", ">", "<"])} ${rng.pick(["undefined", "null", "0", "1", '""'])}) {`,
        );
        out.push(`      total += ${rng.int(1, 9)};`);
        out.push("    }");
      }
      out.push("  }");
      out.push(`  return options.${rng.pick(ADJECTIVES)} ? total * ${rng.int(2, 5)} : total;`);
      out.push("}");
      return out;
    }
    case "fetch": {
      const name = camel([rng.pick(["fetch", "load", "sync", "post", "update"]), ...nounWords(rng)]);
      exported.push(name);
      const base = services.length ? `\${${rng.pick(services)}}` : "/api";
      const path = `/${kebab(nounWords(rng, 1, 1))}s/\${id}${rng.chance(0.4) ? `/${kebab(nounWords(rng, 1, 1))}` : ""}`;
      const method = rng.pick(["GET", "GET", "POST", "PUT", "PATCH", "DELETE"]);
      const out = [
        `${exportKw}async function ${name}(id${t(": string")}, token${t(": string")})${t(`: Promise<${typeName(rng)}>`)} {`,
        `  const res = await fetch(\`${base}${path}\`, {`,
        `    method: "${method}",`,
        "    headers: {",
        "      Authorization: `Bearer ${token}`,",
        '      Accept: "application/json",',
        "    },",
      ];
      if (method !== "GET" && method !== "DELETE")
        out.push(`    body: JSON.stringify({ ${camel(nounWords(rng, 1, 1))}: id }),`);
      out.push(
        "  });",
        "  if (!res.ok) {",
        `    throw new Error(\`${name} failed with \${res.status}\`);`,
        "  }",
        "  return res.json();",
        "}",
      );
      return out;
    }
    case "class": {
      const name = `${typeName(rng)}${rng.pick(["Service", "Repository", "Manager", "Controller", "Store", "Cache"])}`;
      exported.push(name);
      const field = camel(nounWords(rng, 1, 1));
      const out = [`${exportKw}class ${name} {`];
      out.push(`  ${t("private ")}${field}${ts ? ` = new Map<string, ${typeName(rng)}>()` : " = new Map()"};`, "");
      out.push(
        `  constructor(${ts ? "private readonly " : ""}limit${t(": number")} = ${rng.int(10, 500)}) {${ts ? "}" : ""}`,
      );
      if (!ts) out.push("    this.limit = limit;", "  }");
      for (let i = rng.int(1, 4); i > 0; i--) {
        const method = fnName(rng);
        out.push(
          "",
          `  ${method}(key${t(": string")}) {`,
          `    const value = this.${field}.get(key);`,
          `    if (!value || this.${field}.size > this.limit) return undefined;`,
          `    return { ...value, ${camel(nounWords(rng, 1, 1))}At: Date.now() };`,
          "  }",
        );
      }
      out.push("}");
      return out;
    }
    case "const": {
      const name = upper(nounWords(rng, 1, 2));
      exported.push(name);
      const out = [`${exportKw}const ${name} = {`];
      for (let i = rng.int(2, 8); i > 0; i--) {
        out.push(
          `  ${camel(nounWords(rng, 1, 2))}: ${rng.pick([String(rng.int(0, 10000)), `"${kebab(nounWords(rng))}"`, "true", "false", "null"])},`,
        );
      }
      out.push(`}${t(" as const")};`);
      return out;
    }
    case "reducer": {
      const name = `${camel(nounWords(rng, 1, 1))}Reducer`;
      exported.push(name);
      const out = [
        `${exportKw}function ${name}(state${t(": Record<string, unknown>")}, action${t(": { type: string; payload?: unknown }")}) {`,
        "  switch (action.type) {",
      ];
      for (let i = rng.int(2, 5); i > 0; i--) {
        out.push(
          `    case "${upper([rng.pick(VERBS), rng.pick(NOUNS)])}":`,
          `      return { ...state, ${camel(nounWords(rng, 1, 1))}: action.payload };`,
        );
      }
      out.push("    default:", "      return state;", "  }", "}");
      return out;
    }
    case "arrow": {
      const name = fnName(rng);
      exported.push(name);
      const arg = `${camel(nounWords(rng, 1, 1))}s`;
      return [
        `${exportKw}const ${name} = (${arg}${t(": string[]")})${t(": string[]")} =>`,
        `  ${arg}`,
        `    .map((value) => value.trim().${rng.pick(["toLowerCase", "toUpperCase", "normalize"])}())`,
        `    .filter((value) => value.length > ${rng.int(0, 3)})`,
        "    .sort();",
      ];
    }
    case "type": {
      const name = typeName(rng);
      const out = [`export interface ${name} {`];
      for (let i = rng.int(2, 9); i > 0; i--) {
        out.push(
          `  ${camel(nounWords(rng, 1, 2))}${rng.chance(0.3) ? "?" : ""}: ${rng.pick(["string", "number", "boolean", "string[]", "Date", "Record<string, string>", typeName(rng)])};`,
        );
      }
      out.push("}");
      return out;
    }
    case "component": {
      const name = pascal([...nounWords(rng), rng.pick(["Card", "List", "Panel", "Row", "Badge", "Dialog"])]);
      exported.push(name);
      const prop = camel(nounWords(rng, 1, 1));
      return [
        `export function ${name}({ ${prop}, onSelect }: { ${prop}: string[]; onSelect: (value: string) => void }) {`,
        `  const [selected, setSelected] = useState<string | null>(null);`,
        `  const items = useMemo(() => ${prop}.slice(0, ${rng.int(5, 50)}), [${prop}]);`,
        "  return (",
        `    <div className="${kebab(nounWords(rng))}">`,
        "      {items.map((item) => (",
        '        <button key={item} className={item === selected ? "active" : undefined} onClick={() => { setSelected(item); onSelect(item); }}>',
        "          {item}",
        "        </button>",
        "      ))}",
        "    </div>",
        "  );",
        "}",
      ];
    }
    default:
      throw new Error(`unknown block ${kind}`);
  }
}

function genPython(rng, plant) {
  const target = rng.int(20, 180);
  const lines = [];
  if (rng.chance(0.5)) lines.push(`"""${sentence(rng)}"""`, "");
  const imports = rng.some(
    [
      "import os",
      "import json",
      "import logging",
      "import time",
      "from dataclasses import dataclass",
      "from typing import Any, Optional",
      "import httpx",
      "from pathlib import Path",
    ],
    2,
    5,
  );
  if (plant) imports.push("import os", "import requests");
  lines.push(...[...new Set(imports)].sort(), "", "");
  if (imports.includes("import logging")) lines.push("log = logging.getLogger(__name__)", "", "");
  const blocks = [];
  let count = lines.length;
  while (count < target) {
    const kind = rng.weighted([
      ["fn", 3],
      ["class", 2],
      ["http", imports.includes("import httpx") ? 2 : 0],
    ]);
    let block;
    if (kind === "fn") {
      const arg = snake(nounWords(rng, 1, 1));
      block = [
        `def ${pyName(rng)}(${arg}, limit=${rng.int(1, 100)}):`,
        `    """${sentence(rng)}"""`,
        "    result = []",
      ];
      block.push(`    for item in ${arg}:`);
      for (let i = rng.int(1, 3); i > 0; i--)
        block.push(
          `        if item.get("${snake(nounWords(rng, 1, 1))}") ${rng.pick(["is None", "== 0", "> 1"])}:`,
          "            continue",
        );
      block.push(
        "        result.append(item)",
        "        if len(result) >= limit:",
        "            break",
        "    return result",
      );
    } else if (kind === "class") {
      const name = typeName(rng);
      block = ["@dataclass", `class ${name}:`];
      for (let i = rng.int(2, 6); i > 0; i--)
        block.push(
          `    ${snake(nounWords(rng, 1, 2))}: ${rng.pick(["str", "int", "float", "bool", "Optional[str]", "list"])}${rng.chance(0.3) ? " = None" : ""}`,
        );
      block.push(
        "",
        `    def ${pyName(rng)}(self):`,
        `        return {k: v for k, v in self.__dict__.items() if v is not None}`,
      );
      if (!imports.includes("from dataclasses import dataclass")) block.shift();
    } else {
      block = [
        `def ${pyName(rng)}(item_id, token):`,
        "    response = httpx.get(",
        `        f"${rng.pick(VENDOR_BASES)}/${snake(nounWords(rng, 1, 1))}s/{item_id}",`,
        '        headers={"Authorization": f"Bearer {token}"},',
        `        timeout=${rng.int(5, 60)},`,
        "    )",
        "    response.raise_for_status()",
        "    return response.json()",
      ];
    }
    blocks.push(block);
    count += block.length + 2;
  }
  if (plant) blocks.splice(rng.int(0, blocks.length), 0, pyPlant(rng, plant));
  for (const block of blocks) lines.push(...block, "", "");
  return `${lines.join("\n").trimEnd()}\n`;
}

function genMarkdown(rng, plant) {
  const lines = [`# ${cap(kebab(nounWords(rng, 1, 3)).replace(/-/g, " "))}`, "", paragraph(rng), ""];
  const sections = rng.int(1, 6);
  const planted = plant ? mdPlant(rng, plant) : undefined;
  const at = rng.int(0, sections);
  for (let s = 0; s <= sections; s++) {
    if (planted && s === at) lines.push(...planted);
    if (s === sections) break;
    lines.push(`## ${cap(rng.pick(VERBS))} ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}s`, "", paragraph(rng), "");
    const extra = rng.weighted([
      ["list", 3],
      ["code", 2],
      ["table", 1],
      ["none", 2],
    ]);
    if (extra === "list") {
      for (let i = rng.int(2, 6); i > 0; i--) lines.push(`- ${sentence(rng)}`);
      lines.push("");
    } else if (extra === "code") {
      lines.push(
        "```ts",
        `const ${camel(nounWords(rng))} = await ${fnName(rng)}(${rng.chance(0.5) ? `"${rng.hex(8)}"` : ""});`,
        `console.log(${camel(nounWords(rng, 1, 1))});`,
        "```",
        "",
      );
    } else if (extra === "table") {
      lines.push("| Name | Type | Default |", "| --- | --- | --- |");
      for (let i = rng.int(2, 6); i > 0; i--)
        lines.push(
          `| \`${camel(nounWords(rng))}\` | ${rng.pick(["string", "number", "boolean"])} | ${rng.pick(["`true`", "`0`", "-", '`"auto"`'])} |`,
        );
      lines.push("");
    }
  }
  return lines.join("\n");
}

function randomJsonValue(rng, depth) {
  const r = rng.next();
  if (depth > 2 || r < 0.5) {
    return rng.pick([
      () => rng.int(0, 100000),
      () => kebab(nounWords(rng)),
      () => rng.chance(0.5),
      () => null,
      () => rng.uuid(),
      () => sentence(rng),
    ])();
  }
  if (r < 0.7) return Array.from({ length: rng.int(1, 5) }, () => randomJsonValue(rng, depth + 1));
  const obj = {};
  for (let i = rng.int(1, 6); i > 0; i--) obj[camel(nounWords(rng))] = randomJsonValue(rng, depth + 1);
  return obj;
}

function genJson(rng, name, plant) {
  let obj;
  if (name === "package.json") {
    obj = {
      name: `@acme/${kebab(nounWords(rng))}`,
      version: `${rng.int(0, 3)}.${rng.int(0, 20)}.${rng.int(0, 9)}`,
      private: true,
      type: "module",
      scripts: { build: "tsc -p tsconfig.json", test: "vitest", lint: "eslint ." },
      dependencies: Object.fromEntries(rng.some(NPM_DEPS, 1, 6)),
    };
  } else if (name === "tsconfig.json") {
    obj = {
      extends: "../../tsconfig.base.json",
      compilerOptions: { outDir: "dist", rootDir: "src", strict: true },
      include: ["src"],
    };
  } else if (rng.chance(0.3)) {
    obj = {};
    for (let i = rng.int(5, 40); i > 0; i--) obj[`${rng.pick(NOUNS)}.${camel(nounWords(rng))}`] = sentence(rng);
  } else {
    obj = {};
    for (let i = rng.int(2, 10); i > 0; i--) obj[camel(nounWords(rng))] = randomJsonValue(rng, 0);
  }
  if (plant === "v1") obj.comfy = { apiUrl: V1_BASE, deploymentId: rng.uuid() };
  else if (plant) obj.inference = { endpoint: rng.chance(0.5) ? `${RUNPOD_BASE}/${rng.hex(12)}/run` : V2_QUEUE };
  return `${JSON.stringify(obj, null, 2)}\n`;
}

function genYaml(rng, plant) {
  const kind = rng.weighted([
    ["workflow", 2],
    ["deployment", 3],
    ["compose", 1],
    ["config", 2],
  ]);
  const lines = [];
  if (kind === "workflow") {
    lines.push(
      `name: ${cap(rng.pick(VERBS))} ${rng.pick(NOUNS)}`,
      "on:",
      "  push:",
      "    branches: [main]",
      "  pull_request:",
      "jobs:",
    );
    for (let j = rng.int(1, 3); j > 0; j--) {
      lines.push(
        `  ${kebab(nounWords(rng, 1, 1))}-${rng.pick(VERBS)}:`,
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-node@v4",
        "        with:",
        "          node-version: 20",
      );
      for (let s = rng.int(1, 4); s > 0; s--)
        lines.push(`      - run: npm ${rng.pick(["ci", "test", "run lint", "run build", "run typecheck"])}`);
    }
  } else if (kind === "deployment") {
    const name = kebab(nounWords(rng));
    lines.push(
      "apiVersion: apps/v1",
      "kind: Deployment",
      "metadata:",
      `  name: ${name}`,
      "spec:",
      `  replicas: ${rng.int(1, 6)}`,
      "  template:",
      "    spec:",
      "      containers:",
      `        - name: ${name}`,
      `          image: registry.acme.dev/${name}:${rng.int(1, 9)}.${rng.int(0, 30)}.${rng.int(0, 9)}`,
      "          env:",
    );
    for (let i = rng.int(2, 8); i > 0; i--)
      lines.push(`            - name: ${upper(nounWords(rng))}`, `              value: "${kebab(nounWords(rng))}"`);
    lines.push(
      "          resources:",
      "            limits:",
      `              memory: ${rng.pick(["256Mi", "512Mi", "1Gi", "2Gi"])}`,
    );
  } else if (kind === "compose") {
    lines.push("services:");
    for (let i = rng.int(1, 4); i > 0; i--) {
      const svc = kebab(nounWords(rng, 1, 1));
      lines.push(
        `  ${svc}-${i}:`,
        `    image: ${rng.pick(["postgres:16", "redis:7", "node:20-slim", "nginx:1.27"])}`,
        "    ports:",
        `      - "${rng.int(3000, 9000)}:${rng.int(3000, 9000)}"`,
      );
    }
  } else {
    for (let i = rng.int(3, 12); i > 0; i--) {
      lines.push(`${snake(nounWords(rng))}_${i}:`);
      for (let k = rng.int(1, 5); k > 0; k--)
        lines.push(
          `  ${snake(nounWords(rng, 1, 1))}_${k}: ${rng.pick([String(rng.int(0, 999)), "true", "false", kebab(nounWords(rng))])}`,
        );
    }
  }
  if (plant) lines.push(...yamlPlant(rng, plant));
  return `${lines.join("\n")}\n`;
}

function genShell(rng, plant) {
  const lines = ["#!/usr/bin/env bash", "set -euo pipefail", "", `# ${sentence(rng)}`, ""];
  lines.push(`ROOT="$(cd "$(dirname "\${BASH_SOURCE[0]}")/.." && pwd)"`, "");
  for (let i = rng.int(1, 4); i > 0; i--) {
    const fn = snake([rng.pick(VERBS), rng.pick(NOUNS)]);
    lines.push(
      `${fn}() {`,
      `  echo "==> ${fn.replace(/_/g, " ")}"`,
      `  ${rng.pick(["npm ci --prefix", "ls -la", "du -sh", "find"])} "$ROOT/${rng.pick(PACKAGES)}"`,
      "}",
      "",
    );
  }
  if (plant) lines.push(...shPlant(rng, plant), "");
  lines.push('echo "done"');
  return `${lines.join("\n")}\n`;
}

function genCss(rng) {
  const lines = [];
  for (let i = rng.int(3, 20); i > 0; i--) {
    lines.push(`.${kebab(nounWords(rng))}${rng.chance(0.3) ? `:${rng.pick(["hover", "focus", "disabled"])}` : ""} {`);
    for (let p = rng.int(1, 6); p > 0; p--) {
      lines.push(`  ${rng.pick(["margin", "padding", "gap", "font-size", "border-radius"])}: ${rng.int(0, 32)}px;`);
    }
    if (rng.chance(0.5)) lines.push(`  color: #${rng.hex(6)};`);
    lines.push("}", "");
  }
  return lines.join("\n");
}

function genDockerfile(rng, plant) {
  const lines = [
    `FROM ${rng.pick(["node:20-slim", "node:20-alpine", "python:3.12-slim"])} AS base`,
    "WORKDIR /app",
    "COPY package*.json ./",
    "RUN npm ci --omit=dev",
    "COPY . .",
  ];
  for (let i = rng.int(0, 3); i > 0; i--) lines.push(`ENV ${upper(nounWords(rng))}=${kebab(nounWords(rng))}`);
  if (plant === "v1") lines.push(`ENV COMFY_API=${V1_BASE}`);
  else if (plant) lines.push(`ENV INFERENCE_URL=${RUNPOD_BASE}/${rng.hex(12)}/run`);
  lines.push(`EXPOSE ${rng.int(3000, 9000)}`, `CMD ["node", "dist/index.js"]`);
  return `${lines.join("\n")}\n`;
}

function genEnv(rng, plant) {
  const lines = [`# ${sentence(rng)}`];
  for (let i = rng.int(3, 15); i > 0; i--) {
    lines.push(
      `${upper(nounWords(rng))}=${rng.pick([kebab(nounWords(rng)), String(rng.int(0, 9999)), "true", `${rng.pick(VENDOR_BASES)}`])}`,
    );
  }
  if (plant) lines.splice(rng.int(1, lines.length), 0, ...envPlant(rng, plant));
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------
// Tree layout

const KINDS = [
  ["ts", 26],
  ["tsx", 12],
  ["js", 17],
  ["json", 15],
  ["md", 10],
  ["py", 10],
  ["yaml", 4],
  ["sh", 2],
  ["css", 2.5],
  ["dockerfile", 0.75],
  ["env", 0.75],
];
const PLANT_RATE = 0.005;
const LOOKALIKE_RATE = 0.005;
/** Share of planted JS/TS uses that become a client module plus files importing it. */
const CLIENT_MODULE_SHARE = 0.15;

function buildDirPools(rng, fileCount) {
  const sourceDirs = new Set();
  const sourceTarget = Math.max(20, Math.round((fileCount * 0.55) / 12));
  const projectRoots = [...PACKAGES.map((p) => `packages/${p}`), ...APPS.map((a) => `apps/${a}`)];
  for (let guard = 0; sourceDirs.size < sourceTarget && guard < sourceTarget * 50; guard++) {
    const segs = [rng.pick(projectRoots), "src"];
    for (let d = rng.int(0, 3); d > 0; d--)
      segs.push(rng.chance(0.6) ? rng.pick(SRC_SUBDIRS) : kebab(nounWords(rng, 1, 1)));
    sourceDirs.add(segs.join("/"));
  }
  const pyDirs = new Set();
  const pyTarget = Math.max(5, Math.round((fileCount * 0.1) / 10));
  for (let guard = 0; pyDirs.size < pyTarget && guard < pyTarget * 50; guard++) {
    const svc = rng.pick(SERVICES);
    const segs = rng.chance(0.1) ? ["tools", snake(nounWords(rng, 1, 1))] : ["services", svc, svc.replace(/-/g, "_")];
    for (let d = rng.int(0, 3); d > 0; d--) segs.push(snake(nounWords(rng, 1, 1)));
    pyDirs.add(segs.join("/"));
  }
  const docDirs = new Set();
  const docTarget = Math.max(5, Math.round((fileCount * 0.1) / 12));
  for (let guard = 0; docDirs.size < docTarget && guard < docTarget * 50; guard++) {
    const segs = rng.chance(0.6) ? ["docs", rng.pick(DOC_SECTIONS)] : [rng.pick(projectRoots), "docs"];
    for (let d = rng.int(0, 2); d > 0; d--) segs.push(kebab(nounWords(rng, 1, 1)));
    docDirs.add(segs.join("/"));
  }
  const fixtureDirs = [];
  for (const root of projectRoots) {
    fixtureDirs.push(`${root}/test/fixtures`, `${root}/test/fixtures/${rng.pick(NOUNS)}`);
    for (const locale of LOCALES) if (rng.chance(0.3)) fixtureDirs.push(`${root}/locales/${locale}`);
  }
  const yamlDirs = [
    ".github/workflows",
    ...ENVIRONMENTS.flatMap((e) => SERVICES.map((s) => `infra/k8s/${e}/${s}`)),
    ...PACKAGES.map((p) => `packages/${p}/config`),
  ];
  const shDirs = ["scripts", "scripts/ci", "scripts/release", ...PACKAGES.map((p) => `packages/${p}/scripts`)];
  const serviceRoots = SERVICES.map((s) => `services/${s}`);
  return {
    source: [...sourceDirs],
    python: [...pyDirs],
    docs: [...docDirs],
    fixtures: fixtureDirs,
    yaml: yamlDirs,
    shell: shDirs,
    projectRoots,
    dockerDirs: [...serviceRoots, ...projectRoots, ...SERVICES.map((s) => `infra/docker/${s}`)],
    envDirs: [...serviceRoots, ...projectRoots, ...ENVIRONMENTS.map((e) => `infra/env/${e}`)],
  };
}

function fileNameFor(rng, kind, dir, pools) {
  switch (kind) {
    case "ts":
      return { dir, names: [rng.chance(0.08) ? "index.ts" : `${kebab(nounWords(rng))}.ts`] };
    case "tsx":
      return { dir, names: [`${pascal(nounWords(rng))}${rng.pick(["", "View", "Card", "Page", "Form"])}.tsx`] };
    case "js":
      return { dir, names: [`${kebab(nounWords(rng))}.${rng.pick(["js", "js", "js", "mjs", "cjs"])}`] };
    case "json": {
      if (pools.projectRoots.includes(dir))
        return { dir, names: ["package.json", "tsconfig.json", `${kebab(nounWords(rng))}.json`] };
      return { dir, names: [`${kebab(nounWords(rng))}.json`] };
    }
    case "md":
      return { dir, names: ["README.md", `${kebab(nounWords(rng, 1, 3))}.md`] };
    case "py":
      return { dir, names: [rng.chance(0.08) ? "__init__.py" : `${snake(nounWords(rng))}.py`] };
    case "yaml":
      return { dir, names: [`${kebab(nounWords(rng))}.${rng.pick(["yaml", "yml"])}`] };
    case "sh":
      return { dir, names: [`${kebab([rng.pick(VERBS), ...nounWords(rng, 1, 1)])}.sh`] };
    case "css":
      return { dir, names: [`${kebab(nounWords(rng))}.${rng.chance(0.3) ? "module.css" : "css"}`] };
    case "dockerfile":
      return { dir, names: ["Dockerfile", `Dockerfile.${kebab(nounWords(rng, 1, 1))}`] };
    case "env":
      return { dir, names: [".env.example", `.env.${rng.pick(ENVIRONMENTS)}`, `.env.${kebab(nounWords(rng, 1, 1))}`] };
    default:
      throw new Error(kind);
  }
}

function dirFor(rng, kind, pools) {
  switch (kind) {
    case "ts":
    case "tsx":
    case "js":
    case "css":
      return rng.pick(pools.source);
    case "json":
      return rng.weighted([
        [() => rng.pick(pools.source), 4],
        [() => rng.pick(pools.projectRoots), 2],
        [() => rng.pick(pools.fixtures), 4],
      ])();
    case "md":
      return rng.chance(0.7) ? rng.pick(pools.docs) : rng.pick(pools.source);
    case "py":
      return rng.pick(pools.python);
    case "yaml":
      return rng.pick(pools.yaml);
    case "sh":
      return rng.pick(pools.shell);
    case "dockerfile":
      return rng.pick(pools.dockerDirs);
    case "env":
      return rng.pick(pools.envDirs);
    default:
      throw new Error(kind);
  }
}

function contentFor(rng, kind, name, plantSpec) {
  if (kind === "ts" || kind === "tsx" || kind === "js") return genJs(rng, kind, plantSpec);
  const plant = plantSpec?.type;
  switch (kind) {
    case "json":
      return genJson(rng, name, plant);
    case "md":
      return genMarkdown(rng, plant);
    case "py":
      return genPython(rng, plant);
    case "yaml":
      return genYaml(rng, plant);
    case "sh":
      return genShell(rng, plant);
    case "css":
      return genCss(rng);
    case "dockerfile":
      return genDockerfile(rng, plant);
    case "env":
      return genEnv(rng, plant);
    default:
      throw new Error(kind);
  }
}

function generateTree(root, fileCount) {
  const rng = new Rng(SEED);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const made = new Set();
  const taken = new Set();
  const counts = { files: 0, bytes: 0, byKind: {}, plantedV1: 0, plantedLookalike: 0 };

  const write = (path, text, kind) => {
    const dir = dirname(path);
    if (!made.has(dir)) {
      mkdirSync(join(root, dir), { recursive: true });
      made.add(dir);
    }
    writeFileSync(join(root, path), text);
    taken.add(path);
    counts.files++;
    counts.bytes += Buffer.byteLength(text);
    counts.byKind[kind] = (counts.byKind[kind] ?? 0) + 1;
  };

  write(
    "package.json",
    `${JSON.stringify({ name: "acme-platform", private: true, workspaces: ["packages/*", "apps/*"], scripts: { build: "turbo build", test: "turbo test" } }, null, 2)}\n`,
    "json",
  );
  write(
    "README.md",
    `# Acme platform\n\n${paragraph(rng, 3, 6)}\n\n## Layout\n\n- \`packages/\`: libraries\n- \`apps/\`: deployable front ends\n- \`services/\`: Python workers\n`,
    "md",
  );
  write(".gitignore", "node_modules/\ndist/\ncoverage/\n*.log\n.env.local\n", "other");
  write(
    "tsconfig.base.json",
    `${JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", strict: true } }, null, 2)}\n`,
    "json",
  );

  const pools = buildDirPools(rng, fileCount);
  while (counts.files < fileCount) {
    const kind = rng.weighted(KINDS);
    const r = rng.next();
    const plant =
      kind === "css" ? undefined : r < PLANT_RATE ? "v1" : r < PLANT_RATE + LOOKALIKE_RATE ? "lookalike" : undefined;
    if (plant === "v1" && (kind === "ts" || kind === "js") && rng.chance(CLIENT_MODULE_SHARE)) {
      // lib/comfy-client.ts exporting the client, and a few files of the same package using it.
      const project = rng.pick(pools.projectRoots);
      const modulePath = `${project}/src/lib/${rng.pick(["comfy-client", "comfydeploy", "comfy"])}.${kind}`;
      if (!taken.has(modulePath)) {
        write(modulePath, genJs(rng, kind, { type: "client-module", esm: true }), kind);
        counts.plantedV1++;
        const sameProject = pools.source.filter((d) => d.startsWith(`${project}/`));
        for (let i = rng.int(1, 3); i > 0 && counts.files < fileCount; i--) {
          const dir = sameProject.length ? rng.pick(sameProject) : `${project}/src`;
          const path = `${dir}/${kebab([rng.pick(VERBS), ...nounWords(rng, 1, 1)])}-${kebab(nounWords(rng, 1, 1))}.${kind}`;
          if (taken.has(path)) continue;
          let importPath = posix.relative(dir, modulePath.replace(/\.[^.]+$/, ""));
          if (!importPath.startsWith(".")) importPath = `./${importPath}`;
          write(path, genJs(rng, kind, { type: "client-importer", importPath, esm: true }), kind);
          counts.plantedV1++;
        }
        continue;
      }
    }
    const dir = dirFor(rng, kind, pools);
    const { names } = fileNameFor(rng, kind, dir, pools);
    let path = names.map((n) => `${dir}/${n}`).find((p) => !taken.has(p));
    if (!path) {
      const last = names[names.length - 1];
      const dot = last.startsWith(".") ? -1 : last.indexOf(".");
      for (let i = 2; !path || taken.has(path); i++) {
        path = dot < 0 ? `${dir}/${last}-${i}` : `${dir}/${last.slice(0, dot)}-${i}${last.slice(dot)}`;
      }
    }
    const name = path.slice(path.lastIndexOf("/") + 1);
    write(path, contentFor(rng, kind, name, plant && { type: plant }), kind);
    if (plant === "v1") counts.plantedV1++;
    else if (plant) counts.plantedLookalike++;
  }

  const git = (...args) => {
    const result = spawnSync("git", ["-c", "init.defaultBranch=main", "-c", "core.autocrlf=false", ...args], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr || result.error}`);
  };
  git("init", "-q");
  git("add", "-A");
  return counts;
}

/** A tree of real packages: built by its script when missing; planted files from its .planted list. */
function ensureRealTree(dir, script) {
  if (!existsSync(join(dir, ".planted"))) {
    if (!existsSync(script)) {
      console.error(`${script} not found: it builds the tree.`);
      process.exit(1);
    }
    console.log(`Building ${dir} with ${posix.basename(script)} (once) ...`);
    const built = spawnSync("bash", [script, dir], { stdio: "inherit" });
    if (built.status !== 0) process.exit(1);
  }
  const planted = readFileSync(join(dir, ".planted"), "utf8").split("\n").filter(Boolean);
  const listed = spawnSync("git", ["ls-files"], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 })
    .stdout.split("\n")
    .filter(Boolean).length;
  return { root: dir, marker: { files: listed, planted }, generated: false };
}

function ensureTree(fileCount) {
  const root = join(tmpdir(), `comfydeploy-migrate-bench-${fileCount}`);
  const markerPath = join(root, ".git", MARKER);
  if (existsSync(markerPath)) {
    try {
      const marker = JSON.parse(readFileSync(markerPath, "utf8"));
      if (marker.generatorVersion === GENERATOR_VERSION && marker.seed === SEED && marker.files === fileCount) {
        return { root, marker, generated: false };
      }
    } catch {
      // unreadable marker: regenerate
    }
  }
  process.stdout.write(`Generating ${fileCount} files in ${root} ... `);
  const started = performance.now();
  const counts = generateTree(root, fileCount);
  const marker = { generatorVersion: GENERATOR_VERSION, seed: SEED, ...counts };
  writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { root, marker, generated: true };
}

// ---------------------------------------------------------------------------
// Measurement

/**
 * Runs a command under bash, whose `times` builtin then gives the user and
 * system CPU of everything the command ran and waited for (the scanner's git
 * and rg included): wall time swings with other load on the machine, CPU time
 * much less.
 */
function timed(command, args, { cwd, env, stdout = "ignore", captureStdout = false, work }) {
  const timesFile = join(work, `times-${process.hrtime.bigint()}.txt`);
  const script = '"$@"; status=$?; times > "$BENCH_TIMES_FILE"; exit $status';
  return new Promise((resolvePromise) => {
    const chunks = [];
    const errChunks = [];
    const start = process.hrtime.bigint();
    const child = spawn("bash", ["-c", script, "bash", command, ...args], {
      cwd,
      env: { ...(env ?? process.env), BENCH_TIMES_FILE: timesFile },
      stdio: ["ignore", captureStdout ? "pipe" : stdout, "pipe"],
    });
    if (captureStdout) child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => errChunks.push(c));
    child.on("error", (error) => resolvePromise({ code: -1, signal: null, ms: 0, stdout: "", stderr: String(error) }));
    child.on("close", (code, signal) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const cpuMs = childrenCpuMs(timesFile);
      resolvePromise({
        code,
        signal,
        ms,
        cpuMs,
        stdout: Buffer.concat(chunks).toString("utf8"),
        stderr: Buffer.concat(errChunks).toString("utf8"),
      });
    });
  });
}

/** The children's line of bash's `times` ("0m1.234s 0m0.567s": user, system) as milliseconds; the file is removed. */
function childrenCpuMs(file) {
  try {
    const line = readFileSync(file, "utf8").trim().split("\n")[1] ?? "";
    const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
    return seconds.length === 2 ? (seconds[0] + seconds[1]) * 1000 : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function bundledRipgrep() {
  try {
    const { rgPath } = createRequire(import.meta.url)("@vscode/ripgrep");
    return existsSync(rgPath) ? rgPath : undefined;
  } catch {
    return undefined;
  }
}

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

/** Share of CPU time spent outside idle over the next `ms` milliseconds, all CPUs together. */
async function cpuBusyShare(ms) {
  const sample = () =>
    cpus().reduce(
      (acc, c) => {
        const t = c.times;
        acc.total += t.user + t.nice + t.sys + t.idle + t.irq;
        acc.idle += t.idle;
        return acc;
      },
      { total: 0, idle: 0 },
    );
  const a = sample();
  await new Promise((r) => setTimeout(r, ms));
  const b = sample();
  const total = b.total - a.total;
  return total > 0 ? 1 - (b.idle - a.idle) / total : 0;
}

class ScannerFailure extends Error {}

async function runScanner(tree, work, cli) {
  const reportFile = join(work, "report.json");
  const rssFile = join(work, "rss.json");
  rmSync(rssFile, { force: true });
  const fd = openSync(reportFile, "w");
  let result;
  try {
    result = await timed(
      process.execPath,
      [
        "--import",
        pathToFileURL(PROBE).href,
        cli,
        "scan",
        tree,
        "--format",
        "json",
        "--fail-on",
        "none",
        "--no-progress",
      ],
      { cwd: REPO_ROOT, env: { ...process.env, COMFYDEPLOY_BENCH_RSS_FILE: rssFile }, stdout: fd, work },
    );
  } finally {
    closeSync(fd);
  }
  if (result.code !== 0) {
    throw new ScannerFailure(
      `scanner exited with ${result.signal ?? result.code}\n${result.stderr.trim().split("\n").slice(-20).join("\n")}`,
    );
  }
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, "utf8"));
  } catch (error) {
    throw new ScannerFailure(`scanner output is not JSON: ${error.message}`);
  }
  let rssKb;
  try {
    rssKb = JSON.parse(readFileSync(rssFile, "utf8")).maxRSS;
  } catch {
    rssKb = undefined;
  }
  const filesWithFindings = new Set((report.findings ?? []).map((f) => f.file));
  return {
    ms: result.ms,
    rssKb,
    cpuMs: result.cpuMs,
    summary: report.summary ?? {},
    stats: report.stats ?? {},
    filesWithFindings,
    findingKeys: findingKeys(report.findings ?? []),
  };
}

async function runGrep(command, args, cwd, work) {
  const result = await timed(command, args, { cwd, captureStdout: true, work });
  // Exit 1 means "nothing matched", which is a valid outcome.
  if (result.code !== 0 && result.code !== 1) {
    return {
      error: `${command} exited with ${result.signal ?? result.code}: ${result.stderr.trim().split("\n")[0] ?? ""}`,
      ms: result.ms,
    };
  }
  const matched = result.stdout.split("\n").filter(Boolean).length;
  return { ms: result.ms, cpuMs: result.cpuMs, matched };
}

// ---------------------------------------------------------------------------
// Report

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) =>
    r
      .map((cell, c) => String(cell).padEnd(widths[c]))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join("\n");
}

const fmtMs = (v) => (v === undefined ? "n/a" : v.toFixed(0));
/** Median CPU time of runs, undefined unless every run has one. */
const cpuMedian = (runs) =>
  runs.length && runs.every((r) => r.cpuMs !== undefined) ? median(runs.map((r) => r.cpuMs)) : undefined;
const cpuRatio = (a, b) => {
  const [x, y] = [cpuMedian(a), cpuMedian(b)];
  return x !== undefined && y ? `${(x / y).toFixed(2)}x` : "n/a";
};
const spread = (values) =>
  values.length ? `(min ${fmtMs(Math.min(...values))}, max ${fmtMs(Math.max(...values))})` : "";

/** Measures one tree: every command `runs` times after a warm-up, alternating. */
async function measureTree(tree, options, needleArgs, rg, work) {
  const commands = [
    { id: "scanner", run: () => runScanner(tree, work, options.cli) },
    {
      id: "git grep",
      run: () => runGrep("git", ["-c", "core.quotepath=off", "grep", "-l", "-F", ...needleArgs], tree, work),
    },
    ...(rg
      ? [{ id: "rg", run: () => runGrep(rg, ["-l", "--hidden", "-g", "!.git", "-F", ...needleArgs], tree, work) }]
      : []),
  ];
  const results = Object.fromEntries(commands.map((c) => [c.id, []]));
  const errors = {};
  process.stdout.write(`${tree}: `);
  for (let round = 0; round <= options.runs; round++) {
    for (const command of commands) {
      if (errors[command.id]) continue;
      globalThis.gc?.();
      const outcome = await command.run();
      if (outcome.error) {
        errors[command.id] = outcome.error;
        continue;
      }
      if (round > 0) results[command.id].push(outcome);
    }
    process.stdout.write(round === 0 ? "warm-up done" : ` ${round}`);
  }
  process.stdout.write("\n");
  return { results, errors };
}

/** Findings as `file:line:rule`, sorted: what must stay the same across scanner changes. */
const findingKeys = (findings) => [...new Set(findings.map((f) => `${f.file}:${f.line}:${f.ruleId}`))].sort();

/** The recorded findings of a tree (bench/results/findings-<label>.txt), written with --record-findings. */
function compareWithBaseline(label, keys, record) {
  const file = join(BENCH_DIR, "results", `findings-${label}.txt`);
  if (record) {
    writeFileSync(file, `${keys.join("\n")}\n`);
    return { ok: true, text: `recorded ${keys.length} in ${posix.relative(REPO_ROOT, file)}` };
  }
  if (!existsSync(file))
    return { ok: false, text: `no baseline (${posix.relative(REPO_ROOT, file)}; --record-findings)` };
  const before = new Set(readFileSync(file, "utf8").split("\n").filter(Boolean));
  const now = new Set(keys);
  const gained = keys.filter((k) => !before.has(k));
  const lost = [...before].filter((k) => !now.has(k));
  if (!gained.length && !lost.length) return { ok: true, text: `identical (${keys.length})` };
  return {
    ok: false,
    text: `+${gained.length} -${lost.length} of ${before.size}${lost.length ? ` (lost ${lost.slice(0, 2).join(", ")})` : ""}`,
  };
}

/** One column of the table: the figures of one tree and whether each target holds. */
function summarise(label, tree, marker, { results, errors }, rgAvailable, options) {
  const scanner = results.scanner;
  const scanMs = median(scanner.map((r) => r.ms));
  const grepRuns = results["git grep"];
  const grepMs = grepRuns.length ? median(grepRuns.map((r) => r.ms)) : undefined;
  const rgRuns = results.rg ?? [];
  const rgMs = rgRuns.length ? median(rgRuns.map((r) => r.ms)) : undefined;
  const rssValues = scanner.map((r) => r.rssKb).filter((v) => typeof v === "number");
  const peakRssMb = rssValues.length === scanner.length ? Math.max(...rssValues) / 1024 : undefined;
  const medianRssMb = rssValues.length ? median(rssValues) / 1024 : undefined;
  const ratio = grepMs ? scanMs / grepMs : undefined;
  const rgRatio = rgMs ? scanMs / rgMs : undefined;
  const totals = new Set(scanner.map((r) => r.summary.total));
  const lastRun = scanner[scanner.length - 1];
  const last = lastRun.summary;
  const found = marker.planted ? marker.planted.filter((file) => lastRun.filesWithFindings.has(file)) : [];
  const baseline = marker.planted ? compareWithBaseline(label, lastRun.findingKeys, options.recordFindings) : undefined;
  // The targets hold on the real trees; the synthetic one covers shapes (and its tiny files flatter grep).
  const verdict = (ok, value) => `${value} ${!options.real ? "" : ok ? "PASS" : "FAIL"}`.trim();
  const checks = {
    "ratio to git grep": ratio !== undefined && ratio <= TARGET_RATIO,
    "ratio to rg": rgRatio === undefined || rgRatio <= TARGET_RG_RATIO,
    "peak RSS": peakRssMb !== undefined && peakRssMb <= TARGET_RSS_MB,
    "planted files found": !marker.planted || found.length === marker.planted.length,
    "findings as recorded": !baseline || baseline.ok,
  };
  const cells = {
    "files in tree": String(marker.files),
    "scanner median (ms)": `${fmtMs(scanMs)} ${spread(scanner.map((r) => r.ms))}`,
    "scanner CPU user+sys, with its git and rg (ms, median)": fmtMs(cpuMedian(scanner)),
    "git grep CPU user+sys (ms, median)": fmtMs(cpuMedian(grepRuns)),
    "rg CPU user+sys (ms, median)": rgAvailable ? fmtMs(cpuMedian(rgRuns)) : "no rg",
    "CPU ratio scanner / git grep": cpuRatio(scanner, grepRuns),
    "CPU ratio scanner / rg": rgAvailable ? cpuRatio(scanner, rgRuns) : "no rg",
    "git grep -F median (ms)": errors["git grep"]
      ? `error: ${errors["git grep"]}`
      : `${fmtMs(grepMs)} ${spread(grepRuns.map((r) => r.ms))}`,
    "rg -F median (ms)": rgAvailable
      ? errors.rg
        ? `error: ${errors.rg}`
        : `${fmtMs(rgMs)} ${spread(rgRuns.map((r) => r.ms))}`
      : "no rg",
    [`ratio scanner / git grep (<= ${TARGET_RATIO.toFixed(1)}x)`]: verdict(
      checks["ratio to git grep"],
      ratio === undefined ? "n/a" : `${ratio.toFixed(2)}x`,
    ),
    [`ratio scanner / rg (<= ${TARGET_RG_RATIO.toFixed(1)}x)`]: verdict(
      checks["ratio to rg"],
      rgRatio === undefined ? "n/a" : `${rgRatio.toFixed(2)}x`,
    ),
    [`scanner peak RSS MB (<= ${TARGET_RSS_MB})`]: verdict(
      checks["peak RSS"],
      peakRssMb === undefined ? "n/a" : `${peakRssMb.toFixed(1)} (median ${medianRssMb.toFixed(1)})`,
    ),
    "findings (summary.total)": `${[...totals].join(" / ")}${totals.size > 1 ? " (varies!)" : ""}`,
    "files with findings": String(last.files ?? "n/a"),
    "candidates: scanner / git grep": `${last.candidates ?? "n/a"} / ${grepRuns.length ? grepRuns[grepRuns.length - 1].matched : "n/a"}`,
    "listed / analysed / text only / skipped": `${last.filesListed ?? "n/a"} / ${last.analysed ?? "n/a"} / ${last.textOnly ?? "n/a"} / ${last.skipped ?? "n/a"}`,
  };
  if (marker.planted) {
    cells["planted files found"] = verdict(
      checks["planted files found"],
      `${found.length} of ${marker.planted.length}`,
    );
    const missedPlants = marker.planted.filter((file) => !found.includes(file));
    if (missedPlants.length)
      cells["planted files missed"] = missedPlants.slice(0, 3).join(", ") + (missedPlants.length > 3 ? ", …" : "");
    cells["file:line:rule vs recorded"] = verdict(baseline.ok, baseline.text);
  } else {
    cells["planted: V1 / look-alike files"] = `${marker.plantedV1} / ${marker.plantedLookalike}`;
  }
  const missed = options.real ? Object.keys(checks).filter((k) => !checks[k]) : [];
  return { label, tree, cells, missed, totalsVary: totals.size > 1 };
}

async function main() {
  const options = parseCli();
  if (!existsSync(options.cli)) {
    console.error(`${options.cli} not found: build the project first (npm run build).`);
    process.exit(1);
  }
  const dist = resolve(dirname(options.cli), "..");
  const { needlePattern, prefilterNeedles } = await import(pathToFileURL(join(dist, "src", "scan", "needles.js")).href);
  const { DEFAULT_HOSTS } = await import(pathToFileURL(join(dist, "src", "core", "urls.js")).href);
  const needles = prefilterNeedles(DEFAULT_HOSTS);
  // The scanner's own needles as plain literals (`git grep -F`), the simplest search for them: the
  // scanner itself asks rg for more (`/run` must end a path segment), which costs rg and git no more.
  const needleArgs = needles.flatMap((n) => ["-e", n.literal]);

  const trees = options.real
    ? [
        {
          label: "real",
          ...ensureRealTree(options.tree, resolve(REPO_ROOT, "..", "shared", "bench", "make-real-tree.sh")),
        },
        { label: "monorepo", ...ensureRealTree(options.monorepoTree, join(BENCH_DIR, "make-monorepo-tree.sh")) },
      ]
    : [{ label: "synthetic", ...ensureTree(options.files) }];
  const work = join(tmpdir(), `comfydeploy-migrate-bench-work-${process.pid}`);
  mkdirSync(work, { recursive: true });

  // rg from PATH, else the binary the optional @vscode/ripgrep package ships (the scanner uses that one too).
  const rg = findOnPath("rg") ?? bundledRipgrep();
  console.log(`Scanner: ${options.cli}`);
  console.log(
    `Needles (${needles.length}): ${needles.map((n) => n.literal).join(", ")}; the scanner hands rg ${needles
      .filter((n) => n.endsSegment)
      .map(needlePattern)
      .join(", ")}`,
  );
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; 1 warm-up + ${options.runs} measured runs each, alternating`,
  );
  const busy = await cpuBusyShare(1000);
  if (busy > 0.2) {
    console.log(
      `Note: the CPUs were ${(busy * 100).toFixed(0)}% busy before the benchmark started; other processes are running and the timings will be noisy.`,
    );
  }

  const columns = [];
  try {
    for (const { label, root, marker } of trees)
      columns.push(
        summarise(label, root, marker, await measureTree(root, options, needleArgs, rg, work), Boolean(rg), options),
      );
  } catch (error) {
    process.stdout.write("\n");
    rmSync(work, { recursive: true, force: true });
    if (error instanceof ScannerFailure) {
      console.error(`Scanner failed: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  rmSync(work, { recursive: true, force: true });

  const metrics = [...new Set(columns.flatMap((c) => Object.keys(c.cells)))];
  console.log("");
  console.log(
    table([
      ["Metric", ...columns.map((c) => `${c.label} tree`)],
      ...metrics.map((m) => [m, ...columns.map((c) => c.cells[m] ?? "")]),
    ]),
  );
  console.log("");
  if (!options.real)
    console.log("Synthetic tree: shape coverage only; the targets are checked on the real trees (--real).");
  const missed = columns.flatMap((c) => c.missed.map((m) => `${m} (${c.label})`));
  if (options.real)
    console.log(
      missed.length
        ? `Missed target(s): ${missed.join(", ")}${options.check ? "" : " (run with --check to fail on this)"}`
        : "All targets met.",
    );
  if (columns.some((c) => c.totalsVary)) console.log("Warning: the number of findings differed between runs.");
  process.exitCode = options.check && missed.length ? 1 : 0;
}

await main();
