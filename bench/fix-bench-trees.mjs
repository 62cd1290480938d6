// The trees fix-bench.mjs times and fix-output-check.mjs fixes: files with V1 use (the transform fixtures'
// inputs, or 100 raw-fetch JS and 100 V1-SDK TS files) in packages that depend on the V1 SDK, committed to git.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/transforms/", import.meta.url));
/** Candidates per package (each package.json names the V1 SDK). */
const PER_PACKAGE = 25;

/** The transform fixtures' inputs with V1 use, in a fixed order. */
function candidateSources() {
  const out = [];
  for (const transform of ["v2-endpoints", "v2-sdk", "node-pin"]) {
    for (const name of readdirSync(join(FIXTURES, transform)).sort()) {
      const match = /^(.*)\.input\.(.+)$/.exec(name);
      if (!match || /already|vendor-doc|own-api-route|links|current/.test(match[1])) continue;
      out.push({ path: join(FIXTURES, transform, name), base: match[1], ext: match[2] });
    }
  }
  return out;
}

export function makeTree(candidates, noise) {
  const tree = mkdtempSync(join(tmpdir(), `cdm-fix-bench-${candidates}-`));
  const sources = candidateSources();
  for (let i = 0; i < candidates; i++) {
    const pkg = join(tree, "apps", `app-${Math.floor(i / PER_PACKAGE)}`);
    const src = sources[i % sources.length];
    mkdirSync(join(pkg, "src"), { recursive: true });
    if (i % PER_PACKAGE === 0)
      writeFileSync(
        join(pkg, "package.json"),
        `${JSON.stringify({ name: `app-${i}`, dependencies: { comfydeploy: "^0.0.19" } }, null, 2)}\n`,
      );
    const name = src.ext === "Dockerfile" ? `Dockerfile.${i}` : `${src.base}-${i}.${src.ext}`;
    writeFileSync(join(pkg, "src", name), readFileSync(src.path));
  }
  for (let i = 0; i < noise; i++) {
    const dir = join(tree, "packages", `lib-${i % 40}`, "src", `mod-${i % 7}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `util-${i}.ts`),
      `import { helper${i % 13} } from "../shared";\n\nexport interface Item${i} { id: string; count: number }\n\n` +
        `export async function load${i}(base: string): Promise<Item${i}[]> {\n  const res = await fetch(\`\${base}/items?page=${i}\`);\n  return helper${i % 13}(await res.json());\n}\n`,
    );
  }
  commitTree(tree);
  return tree;
}

/** 100 raw-fetch JS files and 100 V1-SDK TS files, in packages of 25 that depend on the V1 SDK. */
export function makeV1Tree() {
  const tree = mkdtempSync(join(tmpdir(), "cdm-fix-bench-prettier-"));
  const files = [];
  for (let i = 0; i < 200; i++) {
    const pkg = join("apps", `app-${Math.floor(i / PER_PACKAGE)}`);
    mkdirSync(join(tree, pkg, "src"), { recursive: true });
    if (i % PER_PACKAGE === 0)
      writeFileSync(
        join(tree, pkg, "package.json"),
        `${JSON.stringify({ name: `app-${i}`, dependencies: { comfydeploy: "^0.0.19" } }, null, 2)}\n`,
      );
    const file = join(pkg, "src", i % 2 === 0 ? `runs-${i}.js` : `comfy-${i}.ts`);
    writeFileSync(join(tree, file), i % 2 === 0 ? rawFetchSource(i) : v1SdkSource(i));
    files.push(file);
  }
  commitTree(tree);
  return { tree, files };
}

function rawFetchSource(i) {
  return `const API = process.env.COMFY_API ?? "https://www.comfydeploy.com/api";
const headers = { "Content-Type": "application/json", Authorization: \`Bearer \${process.env.COMFY_TOKEN}\` };

export async function queue${i}(prompt) {
  const res = await fetch(\`\${API}/run\`, { method: "POST", headers, body: JSON.stringify({ deployment_id: "dep-${i}", inputs: { prompt } }) });
  if (!res.ok) throw new Error(\`queue failed: \${res.status}\`);
  return (await res.json()).run_id;
}

export async function status${i}(runId) {
  const res = await fetch(\`\${API}/run?run_id=\${runId}\`, { headers });
  return res.json();
}
`;
}

function v1SdkSource(i) {
  return `import { ComfyDeployClient } from "comfydeploy";

const client = new ComfyDeployClient({ apiToken: process.env.COMFY_TOKEN ?? "" });

export async function generate${i}(prompt: string): Promise<string | null> {
  const run = await client.run({ deployment_id: "dep-${i}", inputs: { prompt } });
  return run?.run_id ?? null;
}

export async function check${i}(runId: string) {
  const run = await client.getRun(runId);
  return run ? { status: run.status, outputs: run.outputs } : null;
}
`;
}

/** `git init`, and every file of the tree committed: fix wants a clean tree. */
export function commitTree(tree) {
  const git = (...args) => execFileSync("git", args, { cwd: tree, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=bench@example.com", "-c", "user.name=bench", "commit", "-qm", "bench tree");
}
