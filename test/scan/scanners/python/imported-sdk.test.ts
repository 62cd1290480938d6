/**
 * The V1 SDK a file reaches through its imports: a client built in another
 * module (a module-level object, a factory, a client stored on `self`) makes
 * the file's SDK calls V1 even when no manifest pins the SDK; a V2 client or
 * another library's client there does not.
 */
import { describe, expect, it } from "vitest";
import { pythonFindingLines } from "../../../helpers/python-scan.js";

const V1_CLIENT = [
  "import os",
  "from comfydeploy import ComfyDeploy",
  "client = ComfyDeploy(bearer_auth=os.environ['COMFY_API_KEY'])",
  "def get_client():",
  "    return ComfyDeploy(bearer_auth=os.environ['COMFY_API_KEY'])",
].join("\n");

const JOBS = [
  "from app.comfy import client",
  "def queue(deployment_id):",
  "    res = client.run.create(request={'deployment_id': deployment_id})",
  "    return res.object.run_id",
].join("\n");

describe("SDK clients built in another module", () => {
  it("reports calls on a module-level V1 client imported from another module", () => {
    const files = { "app/comfy.py": V1_CLIENT, "app/jobs.py": JOBS };
    expect(pythonFindingLines("app/jobs.py", files, false)).toEqual(["3:v1-sdk-call", "4:v1-sdk-call"]);
  });

  it("follows a factory of another module, also through an attribute set from it", () => {
    const files = {
      "app/comfy.py": V1_CLIENT,
      "app/status.py": [
        "from app.comfy import get_client",
        "class Status:",
        "    def __init__(self):",
        "        self.cd = get_client()",
        "    def read(self, rid):",
        "        res = self.cd.run.get(run_id=rid)",
        "        return res.object.live_status",
      ].join("\n"),
    };
    expect(pythonFindingLines("app/status.py", files, false)).toEqual(["6:v1-sdk-call", "7:v1-sdk-call"]);
  });

  it("stays quiet on a V2 client or another library's client of the same name", () => {
    const v2 = {
      "app/comfy.py": "from comfydeploy import ComfyDeploy\nclient = ComfyDeploy(bearer='x')\n",
      "app/jobs.py": [
        "from app.comfy import client",
        "def read(rid):",
        "    res = client.run.get(run_id=rid)",
        "    return res.workflow_run_model.status",
      ].join("\n"),
    };
    expect(pythonFindingLines("app/jobs.py", v2, false)).toEqual([]);
    const other = { "app/comfy.py": "from tracker import Client\nclient = Client()\n", "app/jobs.py": JOBS };
    expect(pythonFindingLines("app/jobs.py", other, false)).toEqual([]);
  });
});
