/**
 * Where fix cannot rewrite a V1 request, its marker says what to change at
 * that site: the URL as written there and what it becomes, the id
 * expression and the call escaping it, from the endpoint data.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../../src/knowledge/migration.js";
import { fixSingleFile } from "../../helpers/fix-fixtures.js";

const V1 = "https://www.comfydeploy.com/api";

async function markersOf(
  file: string,
  input: string,
  context: Record<string, string> = {},
): Promise<{ text: string; markers: string[] }> {
  const fixed = await fixSingleFile(file, input, ["v2-endpoints"], context);
  const again = await fixSingleFile(file, fixed.text, ["v2-endpoints"], context);
  expect(again.text, "a second run changes nothing").toBe(fixed.text);
  return { text: fixed.text, markers: fixed.events.filter((e) => e.kind === "marker").map((e) => e.message) };
}

describe("markers name what to change at their site", () => {
  it("a read whose query goes on after the id: the id expression and its escaping call", async () => {
    const input = `<?php\n$base = '${V1}';\nfunction g($base, $id) { return file_get_contents($base . '/run?run_id=' . $id . '&outputs=1'); }\n`;
    const { markers } = await markersOf("a.php", input);
    expect(markers).toEqual([
      expect.stringContaining(
        `put rawurlencode($id) after ${ENDPOINTS.getRun.v1.path}/ in place of the ${ENDPOINTS.getRun.v1.query} query`,
      ),
    ]);
  });

  it("a create taken on the repository's evidence: the URL as written and what it becomes", async () => {
    const input = `module Comfy\n  def self.q(c)\n    c.post("#{@settings.base}/run", { deployment_id: 1 }.to_json)\n  end\nend\n`;
    const { markers } = await markersOf("lib/runs.rb", input, { "lib/config.rb": `BASE = "${V1}"\n` });
    expect(markers).toEqual([
      expect.stringContaining(`make #{@settings.base}/run into #{@settings.base}${ENDPOINTS.createRun.v2.path}`),
    ]);
  });

  it("Python: a read concatenated with a query after the id is marked, not left without its `?`", async () => {
    const input = `import requests\nBASE = "${V1}"\ndef g(run_id):\n    return requests.get(BASE + "/run?run_id=" + run_id + "&x=1")\n`;
    const { text, markers } = await markersOf("b.py", input);
    expect(text).toContain(`BASE + "/run?run_id=" + run_id + "&x=1"`);
    expect(markers).toEqual([
      expect.stringContaining(`put urllib.parse.quote(run_id, safe="") after ${ENDPOINTS.getRun.v1.path}/`),
    ]);
  });
});
