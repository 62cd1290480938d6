/**
 * The Python half of v2-sdk in a project that pins the V1 SDK: the client is
 * built in another module, so the calls are known from the pin alone. The
 * rewrite holds, and a second run (the pin not upgraded yet) changes nothing.
 */
import { describe, expect, it } from "vitest";
import { fixSingleFile } from "./helpers/fix-fixtures.js";

const CLIENT_MODULE = `from comfydeploy import ComfyDeploy

s = ComfyDeploy(bearer="token")
`;

const APP = `from client import s


def queue(deployment_id: str) -> str:
    res = s.run.create(request={"deployment_id": deployment_id, "webhook": "https://app.example.test/hook"})
    return res.object.run_id


def status(run_id: str) -> str:
    run = s.run.get(run_id=run_id)
    return run.object.status


def raw(run_id: str):
    return s.run.get(run_id=run_id)
`;

const MIGRATED = `from client import s


def queue(deployment_id: str) -> str:
    res = s.run.deployment.queue(request={"deployment_id": deployment_id, "webhook": "https://app.example.test/hook"})
    return res.create_run_response.run_id


def status(run_id: str) -> str:
    run = s.run.get(run_id=run_id)
    return run.workflow_run_model.status


def raw(run_id: str):
    return s.run.get(run_id=run_id)
`;

const CONTEXT = { "requirements.txt": "comfydeploy==0.4.1\n", "client.py": CLIENT_MODULE };

describe("v2-sdk on Python under a V1 pin", () => {
  it("rewrites calls and accessors whose every use is in the same function, and marks the rest", async () => {
    const result = await fixSingleFile("app.py", APP, ["v2-sdk"], CONTEXT);
    expect(result.skipped).toEqual([]);
    const marker = "    # TODO(comfydeploy-migrate): v1-sdk-call: run.get(): its result's .object becomes .workflow_run_model in V2;";
    const [head, tail] = MIGRATED.split("    return s.run.get(run_id=run_id)\n");
    expect(result.text.startsWith(`${head}${marker}`)).toBe(true);
    expect(result.text.endsWith(`    return s.run.get(run_id=run_id)\n${tail}`)).toBe(true);
    expect(result.events.filter((e) => e.kind === "rewrite").map((e) => e.line)).toEqual([5, 10]);
  });

  it("changes nothing on a second run", async () => {
    const first = await fixSingleFile("app.py", APP, ["v2-sdk"], CONTEXT);
    const second = await fixSingleFile("app.py", first.text, ["v2-sdk"], CONTEXT);
    expect(second.text).toBe(first.text);
    expect(second.events).toEqual([]);
  });
});
