/**
 * V1 run results returned from helper functions: a name assigned from the
 * helper's call holds a run result, so its `.object` reads (in f-strings too) are V1.
 */
import { describe, expect, it } from "vitest";
import { pythonFindingLines } from "../../../helpers/python-scan.js";

const REQUIREMENTS = "comfydeploy==0.0.19\n";

function lines(code: string): string[] {
  return pythonFindingLines("app/status.py", { "requirements.txt": REQUIREMENTS, "app/status.py": code }, false);
}

describe("run results returned from functions", () => {
  it("follows a helper that returns the SDK call", () => {
    const code = [
      "from comfydeploy import ComfyDeploy",
      "client = ComfyDeploy(bearer_auth='x')",
      "def fetch(run_id):",
      "    return client.run.get(run_id=run_id)",
      "def report(rid):",
      "    res = fetch(rid)",
      '    print(f"status: {res.object.live_status}")',
    ].join("\n");
    expect(lines(code)).toContain("7:v1-sdk-call");
  });

  it("follows a helper that returns a name bound to the SDK call", () => {
    const code = [
      "from comfydeploy import ComfyDeploy",
      "client = ComfyDeploy(bearer_auth='x')",
      "async def fetch(run_id):",
      "    result = await client.run.get_async(run_id=run_id)",
      "    return result",
      "async def report(rid):",
      "    res = await fetch(rid)",
      '    return f"{res.object.status}"',
    ].join("\n");
    expect(lines(code)).toContain("8:v1-sdk-call");
  });

  it("stays quiet on helpers returning something else", () => {
    const code = [
      "from comfydeploy import ComfyDeploy",
      "import requests",
      "client = ComfyDeploy(bearer_auth='x')",
      "def fetch(url):",
      "    return requests.get(url)",
      "def report(url):",
      "    res = fetch(url)",
      '    print(f"{res.object.status}")',
    ].join("\n");
    expect(lines(code).filter((l) => l.startsWith("8:"))).toEqual([]);
  });
});

/** The helper module of the tests below: a V1 client and helpers returning its run results. */
const HELPERS = [
  "import time",
  "from comfydeploy import ComfyDeploy",
  "client = ComfyDeploy(bearer_auth='x')",
  "def start_render(deployment_id, inputs):",
  "    return client.run.create(request={'deployment_id': deployment_id, 'inputs': inputs})",
  "def wait_for(run_id):",
  "    while True:",
  "        res = client.run.get(run_id=run_id)",
  "        if res.object.status in ('success', 'failed'):",
  "            return res",
  "        time.sleep(2)",
].join("\n");

function linesIn(file: string, files: Record<string, string>): string[] {
  return pythonFindingLines(file, files, false);
}

describe("run results returned from functions of another module", () => {
  it("follows `from app.comfy import f` to the helper's run call", () => {
    const files = {
      "requirements.txt": REQUIREMENTS,
      "app/comfy.py": HELPERS,
      "app/page.py": [
        "from app.comfy import start_render, wait_for",
        "queued = start_render('dep', {})",
        "res = wait_for(queued.object.run_id)",
        'print(f"{res.object.live_status}")',
        "outputs = res.object.outputs",
      ].join("\n"),
    };
    expect(linesIn("app/page.py", files)).toEqual(["3:v1-sdk-call", "4:v1-sdk-call", "5:v1-sdk-call"]);
  });

  it("follows a module imported with `from . import comfy` and a package __init__ re-export", () => {
    const files = {
      "requirements.txt": REQUIREMENTS,
      "app/services/__init__.py": "from .comfy import wait_for, start_render\n",
      "app/services/comfy.py": HELPERS,
      "app/routes.py": [
        "from app.services import comfy",
        "def status(rid):",
        "    res = comfy.wait_for(rid)",
        "    return {'status': res.object.status}",
      ].join("\n"),
      "app/tasks.py": [
        "from app.services import wait_for",
        "def poll(job):",
        "    done = wait_for(job)",
        "    return done.object.outputs",
      ].join("\n"),
    };
    expect(linesIn("app/routes.py", files)).toEqual(["4:v1-sdk-call"]);
    expect(linesIn("app/tasks.py", files)).toEqual(["4:v1-sdk-call"]);
  });

  it("takes V1 from the helper module's client when no manifest pins the SDK", () => {
    const files = {
      "app/comfy.py": HELPERS,
      "app/page.py": ["from app.comfy import wait_for", "res = wait_for('r')", 'print(f"{res.object.status}")'].join(
        "\n",
      ),
    };
    expect(linesIn("app/page.py", files)).toEqual(["3:v1-sdk-call"]);
  });

  it("stays quiet on a module of the same name in another package and on an uninstalled one", () => {
    const files = {
      "requirements.txt": REQUIREMENTS,
      "app/comfy.py": HELPERS,
      // A local ComfyUI helper of the same module and function names.
      "tools/preview/comfy.py": [
        "import requests",
        "def wait_for(prompt_id):",
        "    return requests.get(f'http://127.0.0.1:8188/history/{prompt_id}')",
      ].join("\n"),
      "tools/preview/cli.py": ["from comfy import wait_for", "res = wait_for('p')", "print(res.object)"].join("\n"),
      "tools/other.py": ["from vendor_sdk.comfy import wait_for", "res = wait_for('p')", "print(res.object)"].join(
        "\n",
      ),
    };
    expect(linesIn("tools/preview/cli.py", files)).toEqual([]);
    expect(linesIn("tools/other.py", files)).toEqual([]);
  });

  it("stays quiet on a V2 SDK helper's result read the V2 way", () => {
    const files = {
      "requirements.txt": "comfydeploy==0.6.3\n",
      "app/comfy.py": [
        "from comfydeploy import ComfyDeploy",
        "def fetch(run_id):",
        "    with ComfyDeploy(bearer='x') as cd:",
        "        return cd.run.get(run_id=run_id)",
      ].join("\n"),
      "app/page.py": [
        "from app.comfy import fetch",
        "res = fetch('r')",
        'print(f"{res.workflow_run_model.status}")',
      ].join("\n"),
    };
    expect(linesIn("app/page.py", files)).toEqual([]);
  });
});
