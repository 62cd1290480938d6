/**
 * The line a Python status request is reported on when the `run_id` entry of
 * its `params=` dict is written below the URL (requests, httpx, aiohttp, a
 * wrapper taking `params=`): the `run_id` line; and what `fix` makes of it,
 * which is the same as when the finding stood on the URL.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { scan } from "../../../../src/scan/engine.js";
import { fixSingleFile } from "../../../helpers/fix-fixtures.js";
import { pythonFindingLines } from "../../../helpers/python-scan.js";
import { tempRepo } from "../../../helpers/temp-repo.js";

const HEAD = ["import httpx", "import requests", "", 'BASE = "https://www.comfydeploy.com/api"', ""];
const module = (...lines: string[]): string => [...HEAD, ...lines, ""].join("\n");
const statusRules = (text: string, legacyBaseHeld = false): string[] =>
  pythonFindingLines("app/status.py", { "app/status.py": text }, legacyBaseHeld).filter(
    (rule) => !rule.endsWith("legacy-base-url"),
  );

describe("a Python status request whose params run_id is below its URL", () => {
  it("is reported on the run_id line: requests, an httpx client, a dict() call, a list of pairs", () => {
    const text = module(
      "def a(run_id):",
      "    return requests.get(",
      '        f"{BASE}/run",',
      '        params={"run_id": run_id},',
      "    ).json()",
      "",
      "async def b(rid):",
      "    async with httpx.AsyncClient(base_url=BASE) as client:",
      '        return await client.get("/run", params={',
      '            "run_id": rid,',
      "        })",
      "",
      "def c(rid):",
      '    return requests.get(BASE + "/run",',
      "                        params=dict(run_id=rid))",
      "",
      "def d(rid):",
      '    return requests.get(f"{BASE}/run",',
      '                        params=[("outputs", 1), ("run_id", rid)])',
    );
    expect(statusRules(text)).toEqual([
      "9:legacy-get-run",
      "15:legacy-get-run",
      "20:legacy-get-run",
      "24:legacy-get-run",
    ]);
  });

  it("is reported on the run_id line through a request wrapper, and as a V1 shape on a base not known here", () => {
    const text = module(
      "class Renders:",
      "    def __init__(self, base_url):",
      "        self.base_url = base_url",
      "        self.session = requests.Session()",
      "",
      "    def _request(self, method, path, **kwargs):",
      '        return self.session.request(method, f"{self.base_url}/{path}", **kwargs)',
      "",
      "    def status(self, run_id):",
      "        return self._request(",
      '            "GET", "run",',
      '            params={"run_id": run_id},',
      "        )",
    );
    expect(statusRules(text)).toEqual(["17:v1-shape-unknown-base"]);
  });

  it("stays on the URL when the run_id is on its line, or in a dict bound before the call", () => {
    const text = module(
      "def a(run_id):",
      '    return requests.get(f"{BASE}/run", params={"run_id": run_id}).json()',
      "",
      "def b(run_id):",
      '    query = {"run_id": run_id}',
      '    return requests.get(f"{BASE}/run",',
      "                        params=query).json()",
    );
    expect(statusRules(text)).toEqual(["7:legacy-get-run", "11:legacy-get-run"]);
  });

  it("carries the URL's span in its facts, for fix to edit", async () => {
    const text = module(
      "def a(run_id):",
      '    return requests.get(f"{BASE}/run",',
      '        params={"run_id": run_id})',
    );
    const result = await scan({ root: tempRepo({ "app/status.py": text }), hosts: DEFAULT_HOSTS, workers: false });
    const finding = result.findings.find((f) => f.ruleId === "legacy-get-run")!;
    expect(finding.line).toBe(8);
    const facts = finding.facts?.kind === "endpoint" ? finding.facts : undefined;
    expect(facts?.url && text.slice(facts.url.start, facts.url.end)).toBe('f"{BASE}/run"');
  });
});

describe("fix on a Python status request found on its run_id line", () => {
  it("edits the URL as before, reports the rewrite on the finding's line, and changes nothing on a second run", async () => {
    const input = module(
      "def a(run_id):",
      "    return requests.get(",
      '        f"{BASE}/run",',
      '        params={"run_id": run_id},',
      "        timeout=10,",
      "    ).json()",
    );
    const first = await fixSingleFile("app/status.py", input, ["v2-endpoints"]);
    expect(first.skipped).toEqual([]);
    expect(first.text).toContain(
      "    return requests.get(\n        f\"{BASE}/run/{urllib.parse.quote(run_id, safe='')}\",\n        timeout=10,\n",
    );
    expect(first.events.filter((e) => e.ruleId === "legacy-get-run").map((e) => `${e.kind}:${e.line}`)).toEqual([
      "rewrite:9",
    ]);
    const second = await fixSingleFile("app/status.py", first.text, ["v2-endpoints"]);
    expect(second.text).toBe(first.text);
  });
});
