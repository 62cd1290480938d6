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
  });
});
