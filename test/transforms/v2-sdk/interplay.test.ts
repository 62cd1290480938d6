/**
 * v2-sdk after v2-endpoints on the same file: the endpoint rewrite may add
 * marker lines and rewrite URLs, so the scan's positions have moved; the SDK
 * rewrite must still find every V1 node.
 */
import { describe, expect, it } from "vitest";
import { fixSingleFile } from "../../helpers/fix-fixtures.js";

const SOURCE = `import { ComfyDeployClient } from "comfydeploy";

const BASE = process.env.COMFY_API_BASE ?? "https://www.comfydeploy.com/api";

export async function raw(id: string) {
  return fetch(\`\${BASE}/run?run_id=\${id}\`);
}

export async function rawCreate(deploymentId: string) {
  return fetch(\`\${BASE}/run\`, { method: "POST", body: JSON.stringify({ deployment_id: deploymentId, workflow_api: {} }) });
}

const client = new ComfyDeployClient({ apiToken: "t", apiBase: "https://www.comfydeploy.com" });
export const go = () => client.getRun("x");
export const queue = () => client.run({ deployment_id: "d" });
`;

describe("v2-sdk after v2-endpoints", () => {
  it("rewrites every V1 SDK use although the earlier transform moved lines", async () => {
    const result = await fixSingleFile("mixed.ts", SOURCE, ["v2-endpoints", "v2-sdk"]);
    expect(result.skipped).toEqual([]);
    expect(result.text).not.toMatch(/ComfyDeployClient|apiToken|apiBase|\.getRun\(|client\.run\(/);
    expect(result.text).toContain('const client = new ComfyDeploy({ bearer: "t" });');
    expect(result.text).toContain('client.run.get({ runId: "x" }).then(');
    expect(result.text).toContain('client.run.deployment.queue({ deploymentId: "d" }).then(');
    const sdkEvents = result.events.filter((e) => e.ruleId.startsWith("v1-sdk"));
    expect(sdkEvents.every((e) => e.kind === "rewrite")).toBe(true);
  });
});
