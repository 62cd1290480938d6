/**
 * The Python half of v2-sdk in a project that pins the V1 SDK: the client is
 * built in another module, so the calls are known from the pin alone. The
 * rewrite holds, a second run (the pin not upgraded yet) changes nothing,
 * and once fix has moved the pin the scan still sees what V2 lacks.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixSingleFile } from "../../helpers/fix-fixtures.js";
import { type FixedRepo, fixRepository, unmarkedFindings } from "../../helpers/scenario-fix.js";

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
    const marker =
      "    # TODO(comfydeploy-migrate): v1-sdk-call: run.get(): its result's .object becomes .workflow_run_model in V2;";
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

const FACTORY_MODULE = `import os
from functools import lru_cache

from comfydeploy import ComfyDeploy


@lru_cache(maxsize=1)
def client() -> ComfyDeploy:
    return ComfyDeploy(bearer_auth=os.environ["KEY"], timeout_ms=30_000)
`;

const ASYNC_APP = `from comfydeploy.models import operations

from sdk import client


def request_for(deployment_id: str, prompt: str) -> dict:
    return {"deployment_id": deployment_id, "inputs": {"prompt": prompt}}


async def queue(deployment_id: str, prompt: str) -> str:
    res = await client().run.create_async(request=request_for(deployment_id, prompt))
    if res.object is None:
        raise RuntimeError(res.http_meta.response.status_code)
    return res.object.run_id


async def status(run_id: str) -> str:
    return (await client().run.get_async(run_id=run_id)).object.status


def upload_slot(size: int):
    return client().files.get_upload_url(type_=operations.Type.IMAGE_PNG, file_size=str(size))
`;

describe("v2-sdk on awaitable Python calls under a V1 pin", () => {
  const context = { "requirements.txt": "comfydeploy==0.4.1\n", "sdk.py": FACTORY_MODULE };

  it("rewrites create_async and get_async through a client factory, and marks what V2 lacks", async () => {
    const result = await fixSingleFile("app.py", ASYNC_APP, ["v2-sdk"], context);
    const lines = result.text.split("\n");
    expect(lines).toContain(
      "    res = await client().run.deployment.queue_async(request=request_for(deployment_id, prompt))",
    );
    expect(lines).toContain("    if res.create_run_response is None:");
    expect(lines).toContain("        raise RuntimeError(res.http_meta.response.status_code)");
    expect(lines).toContain("    return res.create_run_response.run_id");
    expect(lines).toContain("    return (await client().run.get_async(run_id=run_id)).workflow_run_model.status");
    const markers = lines.filter((l) => l.includes("TODO(comfydeploy-migrate)"));
    expect(markers).toHaveLength(2);
    expect(lines[lines.indexOf("from comfydeploy.models import operations") - 1]).toMatch(
      /v1-sdk-import: comfydeploy\.models holds the V1 SDK's request and response types/,
    );
    const upload = lines.indexOf(
      "    return client().files.get_upload_url(type_=operations.Type.IMAGE_PNG, file_size=str(size))",
    );
    expect(lines[upload - 1]).toMatch(
      /v1-sdk-call: client\.files\.get_upload_url\(\) exists only in the V1 Python SDK: .*file\.upload\(request=/,
    );
  });

  it("renames bearer_auth in the client module and keeps the options V2 shares", async () => {
    const result = await fixSingleFile("sdk.py", FACTORY_MODULE, ["v2-sdk"], {
      "requirements.txt": "comfydeploy==0.4.1\n",
    });
    expect(result.text).toBe(FACTORY_MODULE.replace("bearer_auth=", "bearer="));
  });
});

describe("fix on a V1 Python project, end to end", () => {
  let fixed: FixedRepo | undefined;
  let source: string | undefined;
  afterEach(() => {
    fixed?.remove();
    if (source) rmSync(source, { recursive: true, force: true });
    fixed = source = undefined;
  });

  it("converges in one run, and the scan afterwards still reports what V2 lacks, each under its marker", async () => {
    source = mkdtempSync(join(tmpdir(), "cdm-py-project-"));
    for (const [file, text] of Object.entries({
      "requirements.txt": "comfydeploy==0.4.1\n",
      "sdk.py": FACTORY_MODULE,
      "app.py": ASYNC_APP,
    })) {
      writeFileSync(join(source, file), text);
    }
    fixed = await fixRepository(source);
    expect(fixed.diff).toContain("+comfydeploy==0.7.0");
    expect(fixed.second.changes.map((c) => c.file)).toEqual([]);
    const left = fixed.after.filter((f) => f.ruleId === "v1-sdk-call").map((f) => [f.file, f.line, f.fix]);
    // The upload call, two markers further down than in the original.
    expect(left).toEqual([["app.py", 24, "manual"]]);
    expect(unmarkedFindings(fixed.after)).toEqual([]);
  });
});
