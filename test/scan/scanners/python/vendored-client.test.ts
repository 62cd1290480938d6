/**
 * Local copies of the V1 client in Python, recognised by what they send:
 * classes whose methods (under any name) send V1's requests on a
 * ComfyDeploy base, module-level functions that do, and packages that
 * re-export them; then the app's imports, constructions and calls.
 */
import { describe, expect, it } from "vitest";
import { pythonFindingLines } from "../../../helpers/python-scan.js";

const V1 = "https://www.comfydeploy.com/api";

function scan(file: string, files: Record<string, string>): string[] {
  // As the engine sets it: the repository holds a V1 base somewhere.
  return pythonFindingLines(
    file,
    files,
    Object.values(files).some((text) => text.includes(V1)),
  );
}

const sdkClass = (base: string, create = "create_run", read = "fetch") => `import requests
SERVER = ${JSON.stringify(base)}
class Renderer:
    def __init__(self, key, server=SERVER):
        self.server = server

    def ${create}(self, deployment_id, inputs):
        return requests.post(self.server + "/run", json={"deployment_id": deployment_id, "inputs": inputs}).json()

    def ${read}(self, run_id):
        return requests.get(self.server + "/run", params={"run_id": run_id}).json()

    def wait(self, run_id):
        return self.${read}(run_id)
`;

const app = `from sdk import Renderer

client = Renderer("key")
run_id = client.create_run("d", {})
client.wait(run_id)
client.close()
`;

describe("Python copies of the V1 client", () => {
  it("recognises a class by the V1 requests its methods send, whatever their names, and the app's calls of them", () => {
    const files = {
      "sdk/__init__.py": "from .client import Renderer\n",
      "sdk/client.py": sdkClass(V1),
      "main.py": app,
    };
    expect(scan("sdk/client.py", files)).toEqual([
      "2:legacy-base-url",
      "3:vendored-v1-client",
      "8:legacy-create-run",
      "11:legacy-get-run",
    ]);
    // Through the package's re-export; `wait` polls a sending method, `close` sends nothing.
    expect(scan("main.py", files)).toEqual([
      "1:v1-sdk-import",
      "3:v1-sdk-client",
      "4:vendored-v1-client",
      "5:vendored-v1-client",
    ]);
    // The package's own re-export is part of the copy.
    expect(scan("sdk/__init__.py", files)).toEqual([]);
  });

  it("keeps another service's client with the same shape quiet", () => {
    const files = {
      "sdk/__init__.py": "from .client import Renderer\n",
      "sdk/client.py": sdkClass("https://api.runpod.ai/v2/abc"),
      "main.py": app,
    };
    // Its `/run` signature on the parameter's base stays a warning; it is no copy of the V1 client.
    expect(scan("sdk/client.py", files).filter((f) => !f.endsWith("v1-shape-unknown-base"))).toEqual([]);
    expect(scan("main.py", files)).toEqual([]);
    // On a base it cannot resolve, another service's host in the class keeps it from being a copy.
    const unresolved = sdkClass("").replace(
      "self.server = server",
      "self.server = server\n        self.docs = 'https://docs.runpod.io/serverless'",
    );
    const quiet = { ...files, "sdk/client.py": unresolved };
    expect(scan("sdk/client.py", quiet).filter((f) => !f.endsWith("v1-shape-unknown-base"))).toEqual([]);
    expect(scan("main.py", quiet)).toEqual([]);
  });

  it("counts module-level functions that send V1 requests like methods", () => {
    const helpers = `import requests

API = "${V1}"

def run_workflow(deployment_id, inputs):
    return requests.post(API + "/run", json={"deployment_id": deployment_id, "inputs": inputs}).json()

def get_run_status(run_id):
    return requests.get(API + "/run", params={"run_id": run_id}).json()

def health():
    return requests.get(API + "/health").ok
`;
    const main = `from helpers import get_run_status, health, run_workflow

rid = run_workflow("d", {})
get_run_status(rid)
health()
`;
    const other = helpers.replace(V1, "https://api.replicate.com/v1");
    expect(scan("main.py", { "helpers.py": helpers, "main.py": main })).toEqual([
      "1:v1-sdk-import",
      "3:vendored-v1-client",
      "4:vendored-v1-client",
    ]);
    expect(scan("main.py", { "helpers.py": other, "main.py": main })).toEqual([]);
    // Functions reading the app's shared settings object are the app's own code: their requests are the findings.
    const onSettings = helpers
      .replace(`API = "${V1}"`, "from config import settings")
      .replaceAll("API + ", "settings.comfy_api + ");
    const shared = { "config.py": `class S:\n    comfy_api = "${V1}"\n\nsettings = S()\n`, "helpers.py": onSettings };
    expect(scan("helpers.py", shared)).toEqual(["6:legacy-create-run", "9:legacy-get-run"]);
    expect(scan("main.py", { ...shared, "main.py": main })).toEqual([]);
  });

  it("takes a class for a client only when it holds its connection settings: an app service's importers stay quiet", () => {
    const service = `import httpx

from app.settings import settings


class RenderService:
    def __init__(self, db):
        self.db = db
        self.http = httpx.Client(timeout=30)

    def create_run(self, prompt):
        return self.http.post(f"{settings.comfy_api}/run", json={"deployment_id": "d", "inputs": {"prompt": prompt}}).json()

    def get_run(self, run_id):
        return self.http.get(f"{settings.comfy_api}/run", params={"run_id": run_id}).json()
`;
    const routes = `from app.services import RenderService

service = RenderService(None)
service.create_run("a cat")
service.get_run("r")
`;
    const files = {
      "app/settings.py": `class Settings:\n    comfy_api: str = "${V1}"\n\nsettings = Settings()\n`,
      "app/services.py": service,
      "app/routes.py": routes,
    };
    // Its own V1 requests are the findings; the service itself is app code.
    expect(scan("app/services.py", files)).toEqual(["12:legacy-create-run", "15:legacy-get-run"]);
    expect(scan("app/routes.py", files)).toEqual([]);
    // Handed the app's whole settings object, it is still the app's service.
    const withSettings = service
      .replace("def __init__(self, db):", "def __init__(self, settings):")
      .replace("self.db = db", "self.settings = settings")
      .replaceAll("{settings.comfy_api}", "{self.settings.comfy_api}");
    expect(scan("app/routes.py", { ...files, "app/services.py": withSettings })).toEqual([]);
    // Configured with its key but creating runs of a deployment it picks from the app's inputs: still the app's service.
    const keyed = service
      .replace("def __init__(self, db):", "def __init__(self, token):")
      .replace("self.db = db", "self.headers = {'Authorization': f'Bearer {token}'}")
      .replace('"deployment_id": "d"', '"deployment_id": settings.deployment')
      .replaceAll("json=", "headers=self.headers, json=")
      .replace('params={"run_id": run_id}', 'params={"run_id": run_id}, headers=self.headers');
    expect(scan("app/services.py", { ...files, "app/services.py": keyed })).toEqual([
      "12:legacy-create-run",
      "15:legacy-get-run",
    ]);
    expect(scan("app/routes.py", { ...files, "app/services.py": keyed })).toEqual([]);
    // The same class configured by its constructor is a local client.
    const client = service
      .replace("def __init__(self, db):", "def __init__(self, api_base=settings.comfy_api):")
      .replace("self.db = db", "self.api_base = api_base")
      .replace("def create_run(self, prompt):", "def create_run(self, deployment_id, prompt):")
      .replace('"deployment_id": "d"', '"deployment_id": deployment_id')
      .replaceAll("{settings.comfy_api}", "{self.api_base}");
    const withClient = { ...files, "app/services.py": client };
    expect(scan("app/services.py", withClient)).toContain("6:vendored-v1-client");
    expect(scan("app/routes.py", withClient)).toEqual([
      "1:v1-sdk-import",
      "3:v1-sdk-client",
      "4:vendored-v1-client",
      "5:vendored-v1-client",
    ]);
  });

  it("takes a class sending one V1 request on a ComfyDeploy base for a client, under any names and beside another service's URL", () => {
    const jobs = `import requests

from .config import API_BASE

LOCAL_COMFY = "http://127.0.0.1:8188"


class Jobs:
    def __init__(self, token, base=API_BASE):
        self.base = base
        self.token = token

    def submit(self, deployment_id, inputs):
        return requests.post(f"{self.base}/run", json={"deployment_id": deployment_id, "inputs": inputs}).json()
`;
    const files = { "cloud/config.py": `API_BASE = "${V1}"\n`, "cloud/jobs.py": jobs };
    expect(scan("cloud/jobs.py", files)).toEqual(["8:vendored-v1-client", "14:legacy-create-run"]);
  });

  it("follows the client through the functions and methods that return one", () => {
    const node = `import os

from sdk import Renderer


def get_renderer():
    return Renderer(os.environ["KEY"])


class CloudNode:
    def _renderer(self):
        return Renderer(os.environ["KEY"])

    def render(self, deployment_id):
        run_id = self._renderer().create_run(deployment_id, {})
        renderer = get_renderer()
        return renderer.wait(run_id)
`;
    const files = {
      "sdk/__init__.py": "from .client import Renderer\n",
      "sdk/client.py": sdkClass(V1),
      "nodes.py": node,
    };
    expect(scan("nodes.py", files)).toEqual([
      "3:v1-sdk-import",
      "7:v1-sdk-client",
      "12:v1-sdk-client",
      "15:vendored-v1-client",
      "17:vendored-v1-client",
    ]);
  });
});
