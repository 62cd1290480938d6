/**
 * The line a JS/TS status request is reported on when its `run_id` sits in a
 * query option (axios `params`, ky/got `searchParams`) written below the URL:
 * the `run_id` line, as the other languages' query builders are; and what
 * `fix` makes of such a request, which is the same as when the finding stood
 * on the URL.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { fixSingleFile } from "../../helpers/fix-fixtures.js";
import { rulesIn } from "../../helpers/scan-rules.js";
import { tempRepo } from "../../helpers/temp-repo.js";

const HEAD = ['import axios from "axios";', 'const V1 = "https://www.comfydeploy.com/api";'];
const file = (...lines: string[]): string => [...HEAD, ...lines, ""].join("\n");
const statusRules = async (text: string): Promise<string[]> =>
  (await rulesIn({ "src/status.ts": text }, "src/status.ts")).filter((rule) => !rule.endsWith("legacy-base-url"));

describe("a status request whose run_id option is below its URL", () => {
  it("is reported on the run_id line: an instance's params, a nested searchParams, a shorthand entry", async () => {
    const text = file(
      "const client = axios.create({ baseURL: V1 });",
      "export const a = (id: string) =>",
      '  client.get("/run", {',
      "    params: { run_id: id },",
      "  });",
      'import ky from "ky";',
      "export const b = (id: string) =>",
      "  ky.get(`${V1}/run`, {",
      "    searchParams: {",
      "      run_id: id,",
      "    },",
      "  });",
      "export async function c(run_id: string) {",
      "  return axios.get(`${V1}/run`, {",
      "    timeout: 5000,",
      "    params: { run_id },",
      "  });",
      "}",
    );
    expect(await statusRules(text)).toEqual(["12:legacy-get-run", "18:legacy-get-run", "6:legacy-get-run"]);
  });

  it("is reported on the run_id line of an axios config object, also one held in a variable", async () => {
    const text = file(
      "export function a(id: string) {",
      "  const config = {",
      "    url: `${V1}/run`,",
      '    method: "get",',
      "    params: { run_id: id },",
      "  };",
      "  return axios.request(config);",
      "}",
      "export const b = (id: string) =>",
      "  axios({",
      "    url: `${V1}/run`,",
      "    params: { run_id: id },",
      "  });",
    );
    expect(await statusRules(text)).toEqual(["14:legacy-get-run", "7:legacy-get-run"]);
  });

  it("stays on the URL when the run_id is on its line, or in options written before it", async () => {
    const text = file(
      "export const a = (id: string) => axios.get(`${V1}/run`, { params: { run_id: id } });",
      "export function b(id: string) {",
      "  const options = {",
      "    params: { run_id: id },",
      "  };",
      "  return axios.get(`${V1}/run`,",
      "    options);",
      "}",
    );
    expect(await statusRules(text)).toEqual(["3:legacy-get-run", "8:legacy-get-run"]);
  });

  it("stays on the caller's URL when the run_id is in a helper's own options further down", async () => {
    const text = file(
      'export const status = () => send("/run");',
      "function send(path: string) {",
      "  return axios.get(`${V1}${path}`, {",
      "    params: { run_id: currentRun() },",
      "  });",
      "}",
      "declare function currentRun(): string;",
    );
    expect(await statusRules(text)).toEqual(["3:legacy-get-run"]);
  });

  it("carries the URL's span in its facts, for fix to edit", async () => {
    const text = file(
      "const client = axios.create({ baseURL: V1 });",
      "export const a = (id: string) =>",
      '  client.get("/run", {',
      "    params: { run_id: id },",
      "  });",
    );
    const result = await scan({ root: tempRepo({ "src/status.ts": text }), hosts: DEFAULT_HOSTS, workers: false });
    const finding = result.findings.find((f) => f.ruleId === "legacy-get-run")!;
    expect(finding.line).toBe(6);
    const facts = finding.facts?.kind === "endpoint" ? finding.facts : undefined;
    expect(facts?.url && text.slice(facts.url.start, facts.url.end)).toBe('"/run"');
  });
});

describe("fix on a status request found on its run_id line", () => {
  const input = file(
    "const client = axios.create({ baseURL: V1 });",
    "export const a = (id: string) =>",
    '  client.get("/run", {',
    "    params: { run_id: id },",
    "  });",
    "export async function b(runId: string) {",
    "  const config = {",
    "    url: `${V1}/run`,",
    "    params: { run_id: runId },",
    "  };",
    "  return axios.request(config);",
    "}",
  );

  it("edits the URL as before, reports each rewrite on the finding's line, and changes nothing on a second run", async () => {
    const first = await fixSingleFile("src/status.ts", input, ["v2-endpoints"]);
    expect(first.skipped).toEqual([]);
    expect(first.text).toContain("  client.get(`/run/${id}`);\nexport async function b");
    expect(first.text).toContain("    url: `${V1}/run/${runId}`,\n  };");
    expect(first.text).not.toContain("run_id");
    expect(first.events.filter((e) => e.ruleId === "legacy-get-run").map((e) => `${e.kind}:${e.line}`)).toEqual([
      "rewrite:6",
      "rewrite:11",
    ]);
    const second = await fixSingleFile("src/status.ts", first.text, ["v2-endpoints"]);
    expect(second.text).toBe(first.text);
  });
});
