/**
 * The v2-endpoints transform beyond the fixtures: the URL text helpers, hosts
 * configured as legacy that are not the vendor's (marked, never rewritten to
 * the vendor's V2 host), URLs built in another module, and the events.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { hostRewrites, moveRunIdIntoPath, v1OnlyFields } from "../../../transforms/v2-endpoints/urls.js";
import { findRunIdParam, findRunSegment } from "../../../src/core/run-path.js";
import { DEFAULT_NODE_REF } from "../../../transforms/node-pin/target.js";
import { planFixes } from "../../../src/fix/runner.js";
import { DEFAULT_HOSTS, type HostSet } from "../../../src/core/urls.js";
import { fixSingleFile } from "../../helpers/fix-fixtures.js";
import { tempDir } from "../../helpers/temp-repo.js";

const CORP_HOST = "comfy.corp.example";
const WITH_CORP: HostSet = { ...DEFAULT_HOSTS, legacy: [...DEFAULT_HOSTS.legacy, CORP_HOST] };

async function fixWithHosts(
  files: Record<string, string>,
  hosts: HostSet,
): Promise<Record<string, { text: string; kinds: string[] }>> {
  const root = tempDir("cdm-endpoints-");
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const plan = await planFixes({ root, hosts, transforms: ["v2-endpoints"], nodeRef: DEFAULT_NODE_REF });
  expect(plan.skipped).toEqual([]);
  const out: Record<string, { text: string; kinds: string[] }> = {};
  for (const file of Object.keys(files)) {
    const change = plan.changes.find((c) => c.file === file);
    out[file] = {
      text: change?.after ?? readFileSync(join(root, file), "utf8"),
      kinds: (change?.events ?? []).map((e) => `${e.kind}:${e.ruleId}`),
    };
  }
  return out;
}

describe("URL text helpers", () => {
  it("finds the run path before a query, a trailing slash or the end", () => {
    expect(findRunSegment("https://www.comfydeploy.com/api/run")).toMatchObject({
      start: 32,
      end: 35,
      trailingSlash: false,
    });
    expect(findRunSegment("/run/?run_id=1")).toMatchObject({ trailingSlash: true, queryStart: 5 });
    expect(findRunSegment("run")).toMatchObject({ start: 0, end: 3 });
    expect(findRunSegment("/run/deployment/queue")).toBeUndefined();
    expect(findRunSegment("/api/runs")).toBeUndefined();
  });

  it("moves the run_id value into the path and keeps the rest of the query", () => {
    expect(moveRunIdIntoPath("/run?run_id={rid}")).toBe("/run/{rid}");
    expect(moveRunIdIntoPath("$API/run?run_id=$1&x=1#top")).toBe("$API/run/$1?x=1#top");
    expect(moveRunIdIntoPath("/run?x=1&run_id={{run_id}}&y=2")).toBe("/run/{{run_id}}?x=1&y=2");
    expect(moveRunIdIntoPath("/run/?run_id=abc")).toBe("/run/abc");
    expect(moveRunIdIntoPath("#{BASE}/run?run_id=#{id}")).toBe("#{BASE}/run/#{id}");
    // Positional placeholders in the moved parameters would swap their arguments.
    expect(moveRunIdIntoPath("%s/run?x=%s&run_id=%s")).toBeUndefined();
    expect(moveRunIdIntoPath("/run?run_id=")).toBeUndefined();
    expect(moveRunIdIntoPath("/run?x=1")).toBeUndefined();
  });

  it("reads the run_id parameter among others", () => {
    expect(findRunIdParam("/run?a=1&run_id=7&b=2", 4)).toEqual({
      queryStart: 4,
      valueStart: 16,
      valueEnd: 17,
      before: "a=1",
      after: "&b=2",
    });
  });

  it("rewrites API bases and whole bare hosts, never vendor web pages", () => {
    const api = hostRewrites("https://www.comfydeploy.com/api/run", DEFAULT_HOSTS);
    expect(api.edits).toEqual([{ start: 8, end: 27, text: "api.comfydeploy.com" }]);
    expect(hostRewrites("https://www.comfydeploy.com", DEFAULT_HOSTS).edits).toHaveLength(1);
    expect(hostRewrites("see https://www.comfydeploy.com for more", DEFAULT_HOSTS).edits).toEqual([]);
    expect(hostRewrites("https://www.comfydeploy.com/docs", DEFAULT_HOSTS).edits).toEqual([]);
    expect(hostRewrites("https://www.comfydeploy.com/api-keys", DEFAULT_HOSTS).edits).toEqual([]);
    expect(hostRewrites(`https://${CORP_HOST}/api`, WITH_CORP)).toEqual({ edits: [], otherHosts: [CORP_HOST] });
  });

  it("names the V1-only create fields of a body", () => {
    expect(v1OnlyFields(["deployment_id", "inputs", "workflow_api", "machine_id"])).toEqual([
      "workflow_api",
      "machine_id",
    ]);
    expect(v1OnlyFields(["deployment_id", "inputs", "webhook", "gpu"])).toEqual([]);
  });
});

describe("hosts configured as legacy that are not the vendor's", () => {
  it("marks JS/TS uses and never rewrites them to the vendor's V2 host", async () => {
    const source = [
      `const BASE = "https://${CORP_HOST}/api";`,
      "",
      "export async function create(deployment_id: string) {",
      '  return fetch(`${BASE}/run`, { method: "POST", body: JSON.stringify({ deployment_id }) });',
      "}",
      "",
    ].join("\n");
    const { "src/corp.ts": result } = await fixWithHosts({ "src/corp.ts": source }, WITH_CORP);
    // The vendor's V2 host appears only in the marker's advice.
    expect(result!.text.replace(/\/\/.*$/gm, "")).not.toContain("api.comfydeploy.com");
    expect(result!.text).toContain(`const BASE = "https://${CORP_HOST}/api";`);
    expect(result!.text).toContain("`${BASE}/run`");
    expect(result!.kinds).toEqual(["marker:legacy-create-run", "marker:legacy-base-url"]);
    expect(result!.text).toMatch(
      /TODO\(comfydeploy-migrate\): legacy-create-run: comfy\.corp\.example is configured as a V1 host/,
    );
  });

  it("marks a base the file cannot see when other legacy hosts are configured", async () => {
    const files = {
      "src/config.ts": `export const BASE = process.env.BASE ?? "https://${CORP_HOST}/api";\n`,
      "src/client.ts":
        'import { BASE } from "./config";\n\nexport const create = () => fetch(`${BASE}/run`, { method: "POST" });\n',
    };
    const result = await fixWithHosts(files, WITH_CORP);
    expect(result["src/client.ts"]!.text).toContain(
      "TODO(comfydeploy-migrate): legacy-create-run: the base URL of this V1 /run request is not provably",
    );
    expect(result["src/client.ts"]!.text).toContain("`${BASE}/run`");
  });

  it("marks config and code values in text files, and leaves JSON as it is", async () => {
    const files = {
      ".env": `COMFY_API_BASE=https://${CORP_HOST}/api\nOTHER=https://www.comfydeploy.com/api\n`,
      "collection.json": `{ "variable": [{ "key": "base", "value": "https://${CORP_HOST}/api" }] }\n`,
    };
    const result = await fixWithHosts(files, WITH_CORP);
    expect(result[".env"]!.text).toBe(
      `# TODO(comfydeploy-migrate): legacy-base-url: ${CORP_HOST} is configured as a V1 host but is not the vendor's: point it at its V2 API base (the vendor's is https://api.comfydeploy.com/api), then POST {base}/run becomes POST {base}/run/deployment/queue and GET {base}/run?run_id=<id> becomes GET {base}/run/{run_id}\n` +
        `COMFY_API_BASE=https://${CORP_HOST}/api\nOTHER=https://api.comfydeploy.com/api\n`,
    );
    expect(result["collection.json"]!.text).toBe(files["collection.json"]);
    expect(result["collection.json"]!.kinds).toEqual([]);
  });
});

describe("URLs built in another module", () => {
  it("rewrites the /run path written here and leaves the base to its own file", async () => {
    const result = await fixSingleFile(
      "src/client.ts",
      'import { BASE } from "./config";\n\nexport const create = (deployment_id: string) =>\n  fetch(`${BASE}/run`, { method: "POST", body: JSON.stringify({ deployment_id }) });\n',
      ["v2-endpoints"],
      { "src/config.ts": 'export const BASE = "https://www.comfydeploy.com/api";\n' },
    );
    expect(result.text).toContain("fetch(`${BASE}/run/deployment/queue`");
  });

  it("marks a request whose whole URL comes from another module", async () => {
    const result = await fixSingleFile(
      "src/client.ts",
      'import { RUN_URL } from "./config";\n\nexport async function create(deployment_id: string) {\n  return fetch(RUN_URL, { method: "POST", body: JSON.stringify({ deployment_id }) });\n}\n',
      ["v2-endpoints"],
      { "src/config.ts": 'export const RUN_URL = "https://www.comfydeploy.com/api/run";\n' },
    );
    expect(result.text).toContain(
      "  // TODO(comfydeploy-migrate): legacy-create-run: this request's V1 /run path is written where its URL is built",
    );
    expect(result.events.map((e) => `${e.line} ${e.kind} ${e.ruleId}`)).toEqual(["4 marker legacy-create-run"]);
  });

  it("marks a shared constant used by a create and by a read", async () => {
    const result = await fixSingleFile(
      "src/client.ts",
      [
        'const RUN = "https://www.comfydeploy.com/api/run";',
        'export const create = (deployment_id: string) => fetch(RUN, { method: "POST", body: JSON.stringify({ deployment_id }) });',
        "export const read = (id: string) => fetch(`${RUN}?run_id=${id}`);",
        "",
      ].join("\n"),
      ["v2-endpoints"],
    );
    // Above the constant, where the path is written (and where the scan reports it once the host is V2).
    expect(result.text).toMatch(
      /TODO\(comfydeploy-migrate\): legacy-create-run: this V1 \/run path builds a URL that other code uses too[^\n]*\nconst RUN = /,
    );
    expect(result.text).toContain("fetch(`${RUN}/${id}`)");
    expect(result.text).toContain('const RUN = "https://api.comfydeploy.com/api/run";');
  });
});

describe("events", () => {
  it("reports each rewrite and marker on the line of its finding", async () => {
    const source = readFileSync(
      join(import.meta.dirname, "..", "..", "..", "fixtures", "transforms", "v2-endpoints", "unknown-method.input.ts"),
      "utf8",
    );
    const result = await fixSingleFile("unknown-method.ts", source, ["v2-endpoints"]);
    expect(result.events.map((e) => `${e.line} ${e.kind} ${e.ruleId}`).sort()).toEqual([
      "1 rewrite legacy-base-url",
      "3 marker legacy-create-run",
      "6 marker legacy-create-run",
    ]);
  });
});
