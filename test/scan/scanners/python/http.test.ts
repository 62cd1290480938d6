/**
 * V1 requests in Python HTTP code on bases the file does not spell out:
 * V1 paths on the V2 host, and client subclasses that join relative paths
 * onto their own base.
 */
import { describe, expect, it } from "vitest";
import { pythonFindingLines } from "../../../helpers/python-scan.js";

function scan(file: string, files: Record<string, string>): string[] {
  return pythonFindingLines(file, files, true);
}

describe("Python requests on a base held elsewhere", () => {
  const v2Host = {
    "bot/conf.py": 'import os\nBASE = os.getenv("BASE", "https://api.comfydeploy.com/api")\n',
    "bot/api.py": [
      "from . import conf",
      "",
      'RUN = conf.BASE + "/run"',
      "",
      "async def create(session, inputs):",
      '    return await session.post(RUN, json={"deployment_id": "d", "inputs": inputs})',
      "",
      "async def read(session, run_id):",
      '    return await session.get(RUN, params={"run_id": run_id})',
      "",
      "async def read_v2(session, run_id):",
      '    return await session.get(f"{conf.BASE}/run/{run_id}")',
      "",
    ].join("\n"),
    "bot/main.py":
      "from .api import create, read\n\nasync def go(s):\n    run_id = await create(s, {})\n    return await read(s, run_id)\n",
  };

  it("reports V1 paths on the V2 host as V1 requests, and leaves the V2 path quiet", () => {
    expect(scan("bot/api.py", v2Host)).toEqual(["6:legacy-create-run", "9:legacy-get-run"]);
  });

  it("does not treat functions sending V1 paths to the V2 host as a V1 client for their callers", () => {
    expect(scan("bot/main.py", v2Host)).toEqual([]);
  });

  it("joins a Session subclass's relative paths onto its own base", () => {
    const files = {
      "app/session.py": [
        "import os",
        "import requests",
        "",
        "class Jobs(requests.Session):",
        "    def __init__(self, base_url=None):",
        "        super().__init__()",
        '        self.base_url = base_url or os.getenv("JOBS_URL", "https://www.comfydeploy.com/api/")',
        "",
        "    def start(self, deployment_id):",
        '        return self.post("run", json={"deployment_id": deployment_id}).json()',
        "",
        "    def poll(self, run_id):",
        '        return self.get("run", params={"run_id": run_id}).json()',
        "",
      ].join("\n"),
      "app/other.py": [
        "import requests",
        "",
        "class Other(requests.Session):",
        '    base_url = "https://api.example.com/v1/"',
        "",
        "    def start(self, body):",
        '        return self.post("run", json=body).json()',
        "",
        "    def poll(self, run_id):",
        '        return self.get("run", params={"run_id": run_id}).json()',
        "",
      ].join("\n"),
    };
    expect(scan("app/session.py", files)).toEqual([
      "4:vendored-v1-client",
      "7:legacy-base-url",
      "10:legacy-create-run",
      "13:legacy-get-run",
    ]);
    expect(scan("app/other.py", files)).toEqual([]);
  });

  it("reads a call of a request wrapper as the request it sends, with the call's path, method and body", () => {
    const wrapper = (base: string) =>
      [
        "import requests",
        "",
        "class Api:",
        `    def __init__(self, base_url="${base}"):`,
        "        self.base_url = base_url",
        "        self.session = requests.Session()",
        "",
        "    def _request(self, method, endpoint, **kwargs):",
        "        url = f\"{self.base_url}/{endpoint.lstrip('/')}\"",
        "        return self.session.request(method, url, **kwargs)",
        "",
        "    def run(self, deployment_id, inputs):",
        '        return self._request("POST", "/run", json={"deployment_id": deployment_id, "inputs": inputs}).json()',
        "",
        "    def get_run(self, run_id):",
        '        return self._request("GET", "run", params={"run_id": run_id}).json()',
        "",
      ].join("\n");
    const files = {
      "sdk/api.py": wrapper("https://www.comfydeploy.com/api"),
      "other/api.py": wrapper("https://api.example.com"),
    };
    expect(scan("sdk/api.py", files)).toEqual([
      "3:vendored-v1-client",
      "4:legacy-base-url",
      "13:legacy-create-run",
      "16:legacy-get-run",
    ]);
    expect(scan("other/api.py", files)).toEqual([]);
  });
});
