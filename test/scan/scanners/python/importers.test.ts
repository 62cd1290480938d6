/**
 * The Python importer follow-up: files holding nothing V1 themselves that
 * import a module sending V1 requests are scanned too, through a package's
 * `__init__.py` and a module that passes the client on, and only those.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { scan } from "../../../../src/scan/engine.js";
import { PyImportIndex, pythonModuleNames } from "../../../../src/scan/scanners/python/importers.js";
import { tempRepo } from "../../../helpers/temp-repo.js";

const comfy = `import os

import requests

BASE = os.getenv("COMFY_API", "https://www.comfydeploy.com/api")


def submit(deployment, prompt):
    return requests.post(BASE + "/run", json={"deployment_id": deployment, "inputs": {"prompt": prompt}}).json()


def fetch(job):
    return requests.get(BASE + "/run", params={"run_id": job}).json()
`;

const linesOf = (findings: ReadonlyArray<{ file: string; line: number; ruleId: string }>, file: string): string[] =>
  findings.filter((f) => f.file === file).map((f) => `${f.line}:${f.ruleId}`);

describe("the Python importer follow-up", () => {
  it("reports the imports and calls of a module of V1 functions in files with no V1 text of their own", async () => {
    const root = tempRepo({
      "worker/__init__.py": "from .comfy import fetch, submit\n",
      "worker/comfy.py": comfy,
      "worker/tasks.py":
        "from worker.comfy import fetch, submit\n\n\ndef render(d, p):\n    job = submit(d, p)\n    return fetch(job)\n",
      "app/jobs.py": "from worker import submit\n\n\ndef go():\n    return submit('d', 'p')\n",
      // Passes the function on under its own name: its importers are a second round.
      "app/facade.py": "from worker.comfy import submit as queue_render\n",
      "app/cli.py": "from app.facade import queue_render\n\nqueue_render('d', 'p')\n",
      "app/other.py": "from app.util import submit\n\nsubmit('x', 'y')\n",
      "app/util.py": "def submit(a, b):\n    return a\n",
    });
    const { findings } = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    expect(linesOf(findings, "worker/tasks.py")).toEqual([
      "1:v1-sdk-import",
      "5:vendored-v1-client",
      "6:vendored-v1-client",
    ]);
    expect(linesOf(findings, "app/jobs.py")).toEqual(["1:v1-sdk-import", "5:vendored-v1-client"]);
    expect(linesOf(findings, "app/facade.py")).toEqual(["1:v1-sdk-import"]);
    expect(linesOf(findings, "app/cli.py")).toEqual(["1:v1-sdk-import", "3:vendored-v1-client"]);
    // Same function name from an unrelated module.
    expect(linesOf(findings, "app/other.py")).toEqual([]);
  });

  it("follows a module that builds a V1 SDK client or returns its run results, without a V1 pin", async () => {
    const root = tempRepo({
      "app/comfy.py": [
        "from comfydeploy import ComfyDeploy",
        "client = ComfyDeploy(bearer_auth='x')",
        "def wait_for(job):",
        "    return client.run.get(run_id=job)",
        "",
      ].join("\n"),
      // No needle of its own: only the import leads to it.
      "app/page.py": [
        "from app.comfy import wait_for",
        "res = wait_for('j')",
        'print(f"{res.object.status}")',
        "",
      ].join("\n"),
    });
    const { findings } = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    expect(linesOf(findings, "app/page.py")).toEqual(["3:v1-sdk-call"]);
  });

  it("indexes the names import statements spell, parenthesised lists included", () => {
    const index = new PyImportIndex();
    index.add("a.py", "from ..lib.comfy import (\n    fetch,\n    submit,\n)\n");
    index.add("b.py", "import worker.comfy as wc\n");
    index.add("c.py", "# from comfy import x\nx = 'import comfy'\n");
    expect([...index.importersOf(pythonModuleNames(["lib/comfy.py"]))].sort()).toEqual(["a.py", "b.py"]);
    // A commented-out import and a string are no imports.
    expect([...index.importersOf(["x"])]).toEqual([]);
    // A package by its folder (`from pkg import client`, `from pkg.client import C`); a top-level module has no folder name.
    expect([...pythonModuleNames(["pkg/client/__init__.py", "main.py"])]).toEqual(["client", "main"]);
  });
});
