#!/bin/bash
# Builds a monorepo-shaped scan benchmark tree: published npm packages laid out as first-party workspace packages
# (`packages/<name>/`, each with its own package.json, no node_modules anywhere in a path), so that every package is
# "the repository's own code" and the importer follow-up cannot narrow its search to one package. Planted V1 uses:
# modules that export a V1 client instance, imported from other packages (directly and through a barrel), `fetch`
# calls to the V1 API, Python services, a Dockerfile node pin, `.env`, a workflow and the SDK dependency.
#
# Usage: bench/make-monorepo-tree.sh [DIR]      (default DIR: ./.bench/monorepo-tree; needs the npm registry once)
# Writes DIR/.planted (one planted file per line) and prints the file count. Idempotent: a tree this version of the
# script built is kept; one an older version built is rebuilt (its planted files and size differ).
set -eu
version=2
tree=$(realpath -m "${1:-.bench/monorepo-tree}")
[[ -f $tree/.planted && $(cat "$tree/.git/bench-generator" 2>/dev/null) == "$version" ]] && { echo "kept $tree ($(git -C "$tree" ls-files | wc -l) files)"; exit 0; }
src=$tree.src
mkdir -p "$src"; cd "$src"
[[ -f package.json ]] || npm init -y >/dev/null
# Version 2 adds packages of few, large files (the compiler, the v2 AWS SDK, three, pdf.js), toward the issue's ~650 MB in ~39k files.
[[ -d node_modules/aws-sdk ]] || npm i --ignore-scripts --no-audit --no-fund --prefer-offline \
  antd@5 echarts@5 firebase@11 @aws-sdk/client-s3@3 typeorm@0.3 sequelize@6 openai@4 express@4 axios@1 \
  @apollo/client@3 graphql@16 mongoose@8 @nestjs/core@10 @nestjs/common@10 rollup@4 @sentry/node@8 chart.js@4 \
  d3@7 ramda@0.30 immutable@4 typescript@5 aws-sdk@2 three@0.170 pdfjs-dist@4 >/dev/null 2>&1
rm -rf "$tree"; mkdir -p "$tree/packages"
cd "$tree"
python3 - "$src/node_modules" <<'PY'
import os, random, json, shutil, sys
random.seed(2025)
modules = sys.argv[1]

# Every installed package (scoped ones by scope-name) becomes packages/<name>/, without nested node_modules.
dirs = []
for entry in sorted(os.listdir(modules)):
    if entry.startswith("."): continue
    if entry.startswith("@"):
        dirs += [(f"{entry[1:]}-{sub}", os.path.join(modules, entry, sub)) for sub in sorted(os.listdir(os.path.join(modules, entry)))]
    else:
        dirs.append((entry, os.path.join(modules, entry)))
skip_dir = lambda d: d in ("node_modules", ".bin")
skip_file = lambda f: f.endswith((".map", ".node")) or f == ".gitignore"
for name, path in dirs:
    if not os.path.isfile(os.path.join(path, "package.json")): continue
    shutil.copytree(path, os.path.join("packages", name), symlinks=True,
                    ignore=lambda d, names: [n for n in names if skip_dir(n) or skip_file(n)])

code = sorted(os.path.join(d, f) for d, _, fs in os.walk("packages") for f in fs
              if f.endswith((".js", ".mjs", ".cjs", ".ts", ".tsx")) and not f.endswith(".d.ts") and os.path.getsize(os.path.join(d, f)) < 150_000)
# Only CommonJS-looking .js files take the appended require() snippets.
cjs = [f for f in code if f.endswith((".js", ".cjs")) and "require(" in open(f, encoding="utf-8", errors="replace").read(4000)]
planted = []

def append(path, text):
    with open(path, "a") as h: h.write(text)
    planted.append(path)

def rel(from_file, to_file):
    r = os.path.relpath(to_file, os.path.dirname(from_file)).replace(os.sep, "/")
    return r if r.startswith(".") else "./" + r

# 10 client modules in 10 packages, each exporting a V1 client instance; 5 of them behind a barrel (index of a folder).
packages = sorted({f.split("/")[1] for f in cjs})
owners = random.sample(packages, 10)
clients = []
for i, pkg in enumerate(owners):
    folder = f"packages/{pkg}/render"
    os.makedirs(folder, exist_ok=True)
    module = f"{folder}/comfy-client-{i}.js"
    open(module, "w").write('const { ComfyDeployClient } = require("comfydeploy");\n\n'
                            f'module.exports.renderClient{i} = new ComfyDeployClient({{ apiToken: process.env.RENDER_TOKEN_{i} }});\n')
    planted.append(module)
    if i % 2:
        barrel = f"{folder}/index.js"
        open(barrel, "w").write(f'export {{ renderClient{i} }} from "./comfy-client-{i}";\n')
        clients.append((i, pkg, barrel.rsplit("/", 1)[0]))  # imported by folder: ../render
    else:
        clients.append((i, pkg, module[:-3]))

# 16 importers in other packages: they name nothing V1 themselves, only the client module's export.
for n in range(16):
    i, pkg, target = clients[n % len(clients)]
    importer = random.choice([f for f in cjs if f.split("/")[1] != pkg and f not in planted])
    # Through a barrel in ESM syntax: the analyser follows `export … from`, not `module.exports = require(…)`.
    binding = f'import {{ renderClient{i} }} from "{rel(importer, target)}";\nexport const' if i % 2 else f'const {{ renderClient{i} }} = require("{rel(importer, target)}");\nmodule.exports.'
    append(importer, f'\n{binding}{" " if i % 2 else ""}queueRender{n} = (deploymentId, inputs) => renderClient{i}.run({{ deployment_id: deploymentId, inputs }});\n')

# 12 direct uses of the V1 API appended to package code.
snips = [
 '\nconst CD_API = "https://www.comfydeploy.com/api";\nexport async function queueRender(deploymentId, inputs) {\n  return fetch(CD_API + "/run", { method: "POST", body: JSON.stringify({ deployment_id: deploymentId, inputs }) });\n}\n',
 '\nexport function renderStatus(apiBase, runId) {\n  return fetch(`${apiBase}/run?run_id=${encodeURIComponent(runId)}`).then((r) => r.json());\n}\n',
 '\nexport const statusUrl = (id) => "https://www.comfydeploy.com/api/run?run_id=" + id;\n',
]
for n, f in enumerate(random.sample([f for f in code if f not in planted], 12)):
    append(f, snips[n % len(snips)])

# 6 Python services, each its own folder with a requirements file.
for n in range(6):
    service = f"services/render-{n}"
    os.makedirs(service, exist_ok=True)
    open(f"{service}/requirements.txt", "w").write("httpx==0.27.0\n")
    p = f"{service}/queue.py"
    open(p, "w").write('import os\nimport httpx\n\nAPI = os.environ.get("CD_API", "https://www.comfydeploy.com/api")\n\n\n'
                       'def queue(deployment_id):\n    return httpx.post(f"{API}/run", json={"deployment_id": deployment_id}).json()["run_id"]\n')
    planted.append(p)

os.makedirs("services/worker", exist_ok=True)
open("services/worker/Dockerfile", "w").write("FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\nRUN git clone https://github.com/BennyKok/comfyui-deploy.git /comfyui/custom_nodes/comfyui-deploy \\\n && cd /comfyui/custom_nodes/comfyui-deploy && git checkout 7e640a0da474d8d8a788ff20dda9eee100dd69a2\n")
planted.append("services/worker/Dockerfile")
os.makedirs(".github/workflows", exist_ok=True)
open(".github/workflows/smoke.yml", "w").write("name: smoke\non: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -X POST https://www.comfydeploy.com/api/run -H \"Authorization: Bearer $TOKEN\" -d '{\"deployment_id\":\"x\"}'\n")
planted.append(".github/workflows/smoke.yml")
open(".env", "w").write("COMFY_DEPLOY_API=https://www.comfydeploy.com/api\n"); planted.append(".env")
json.dump({"name": "monorepo", "private": True, "workspaces": ["packages/*"], "dependencies": {"comfydeploy": "^0.0.21"}}, open("package.json", "w"), indent=2); planted.append("package.json")
open(".planted", "w").write("\n".join(planted) + "\n")
print("planted", len(planted), "in", len(code), "code files of", len(packages), "CommonJS packages")
PY
printf '.planted\n' > .git-info-exclude
git init -q . && mv .git-info-exclude .git/info/exclude && git add -A >/dev/null && git -c user.email=bench@example.invalid -c user.name=bench commit -qm tree
echo "$version" > .git/bench-generator
echo "files: $(git ls-files | wc -l), $(du -sm --exclude=.git . | cut -f1) MB in $tree"
