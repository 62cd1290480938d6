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
