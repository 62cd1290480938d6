/**
 * Requests sent on an HTTP client built elsewhere: the client's `base_url`
 * is followed to where it was constructed (a module global here or imported,
 * a property, a factory function, an `or` default), and a base from the
 * repository's env files reaches the scanner.
 */
import { describe, expect, it } from "vitest";
import { pythonFindingLines } from "../../helpers/python-scan.js";

const V1 = "https://www.comfydeploy.com/api";
const CREATE = 'json={"deployment_id": deployment_id, "inputs": inputs}';

/** Findings of requests, with no repository evidence: only what the base resolves to counts. */
function requests(file: string, files: Record<string, string>): string[] {
  return pythonFindingLines(file, files, false).filter((f) => !f.endsWith("legacy-base-url"));
}

describe("clients built elsewhere", () => {
  it("follows a client held by a module global in another module", () => {
    const files = {
      "bot/http.py": `import httpx\n\nclient = httpx.AsyncClient(base_url="${V1}", timeout=60)\n`,
      "bot/comfy.py": [
        "from .http import client",
        "",
        "async def queue(deployment_id, inputs):",
        `    return await client.post("/run", ${CREATE})`,
        "",
        "async def status(run_id):",
        '    return await client.get("/run", params={"run_id": run_id})',
        "",
      ].join("\n"),
    };
    expect(requests("bot/comfy.py", files)).toEqual(["4:legacy-create-run", "7:legacy-get-run"]);
  });

  it("follows a cached_property, a factory function and an `or` default to the construction", () => {
    const code = [
      "from functools import cached_property",
      "import httpx",
      "",
      "def make_client():",
      `    return httpx.AsyncClient(base_url="${V1}", event_hooks={"request": []})`,
      "",
      "class Comfy:",
      "    def __init__(self, http=None):",
      "        self.http = http or make_client()",
      "",
      "    @cached_property",
      "    def client(self):",
      `        return httpx.AsyncClient(base_url="${V1}")`,
      "",
      "    async def queue(self, deployment_id, inputs):",
      `        return await self.client.post("/run", ${CREATE})`,
      "",
      "    async def status(self, run_id):",
      '        return await self.http.get("/run", params={"run_id": run_id})',
      "",
      "async def once(deployment_id, inputs):",
      "    async with make_client() as c:",
      `        return await c.post("/run", ${CREATE})`,
      "",
    ].join("\n");
    expect(requests("bot/comfy.py", { "bot/comfy.py": code }).filter((f) => !f.includes("vendored"))).toEqual([
      "16:legacy-create-run",
      "19:legacy-get-run",
      "23:legacy-create-run",
    ]);
  });

  it("follows a client passed to a class's constructor from main(), in another module", () => {
    const files: Record<string, string> = {
      "bot/comfy_api.py": [
        "import httpx",
        "",
        "class ComfyAPI:",
        "    def __init__(self, http: httpx.AsyncClient, deployment_id: str):",
        "        self._http = http",
        "        self._deployment_id = deployment_id",
        "",
        "    async def create_run(self, inputs):",
        '        r = await self._http.post("/run", json={"deployment_id": self._deployment_id, "inputs": inputs})',
        '        return r.json()["run_id"]',
        "",
        "    async def get_run(self, run_id):",
        '        return (await self._http.get("/run", params={"run_id": run_id})).json()',
        "",
      ].join("\n"),
      "bot/__main__.py": [
        "import asyncio",
        "import httpx",
        "from bot.comfy_api import ComfyAPI",
        "",
        "async def main():",
        `    async with httpx.AsyncClient(base_url="${V1}") as http:`,
        '        api = ComfyAPI(http, "dep")',
        "        await run_bot(api)",
        "",
      ].join("\n"),
    };
    expect(requests("bot/comfy_api.py", files).filter((f) => !f.includes("vendored"))).toEqual([
      "9:legacy-create-run",
      "13:legacy-get-run",
    ]);
    // Callers passing clients on different bases leave the base unknown (a relative path on it says nothing).
    files["bot/other.py"] =
      'import httpx\nfrom bot.comfy_api import ComfyAPI\napi = ComfyAPI(httpx.AsyncClient(base_url="https://other.example.com"), "d")\n';
    expect(requests("bot/comfy_api.py", files).filter((f) => !f.includes("vendored"))).toEqual([]);
  });

  it("takes the base every caller passes a class's constructor when it is a ComfyDeploy base", () => {
    const client = [
      "import httpx",
      "",
      "class ComfyAPI:",
      "    def __init__(self, base_url: str, token: str):",
      '        self.base_url = base_url.rstrip("/")',
      '        self.headers = {"Authorization": f"Bearer {token}"}',
      "",
      "    async def create_run(self, deployment_id, inputs):",
      "        async with httpx.AsyncClient() as c:",
      `            return await c.post(f"{self.base_url}/run", ${CREATE}, headers=self.headers)`,
      "",
    ].join("\n");
    const main = (base: string) =>
      `from bot.config import settings\nfrom bot.comfy_api import ComfyAPI\n\napi = ComfyAPI(base_url=settings.COMFY_API_URL, token="t")\n`.replace(
        "settings.COMFY_API_URL",
        base,
      );
    const files = (base: string) => ({
      "bot/config.py": `import os\n\nclass Settings:\n    COMFY_API_URL = os.getenv("COMFY_API_URL", "${base}")\n\nsettings = Settings()\n`,
      "bot/comfy_api.py": client,
      "bot/main.py": main("settings.COMFY_API_URL"),
    });
    const requestsOnly = (f: string) => f.startsWith("10:");
    expect(requests("bot/comfy_api.py", files(V1)).filter(requestsOnly)).toEqual(["10:legacy-create-run"]);
    // A white-label host stays a V1 shape on a base this scan does not know.
    expect(requests("bot/comfy_api.py", files("https://render.example.com/api")).filter(requestsOnly)).toEqual([
      "10:v1-shape-unknown-base",
    ]);
  });

  it("reads aiohttp's base given first, and keeps a RunPod client's /run quiet", () => {
    const code = [
      "import aiohttp",
      "",
      `comfy = aiohttp.ClientSession("${V1}")`,
      'runpod = aiohttp.ClientSession(base_url="https://api.runpod.ai/v2/abc")',
      "",
      "async def queue(deployment_id, inputs):",
      `    return await comfy.post("/run", ${CREATE})`,
      "",
      "async def job(inputs):",
      '    return await runpod.post("/run", json={"input": inputs})',
      "",
    ].join("\n");
    expect(requests("app.py", { "app.py": code })).toEqual(["7:legacy-create-run"]);
  });

  it("takes a base the repository's env files set for a variable the code reads without a default", () => {
    const files = {
      ".env.example": `COMFY_API_URL=${V1}\nRUNPOD_URL=https://api.runpod.ai/v2/abc\n`,
      "worker/comfy.py": [
        "import os",
        "import requests",
        "",
        'BASE = os.environ["COMFY_API_URL"]',
        'RUNPOD = os.environ["RUNPOD_URL"]',
        "",
        "def queue(deployment_id, inputs):",
        `    return requests.post(f"{BASE}/run", ${CREATE})`,
        "",
        "def job(inputs):",
        '    return requests.post(f"{RUNPOD}/run", json={"input": inputs})',
        "",
      ].join("\n"),
    };
    expect(requests("worker/comfy.py", files)).toEqual(["8:legacy-create-run"]);
  });
});
