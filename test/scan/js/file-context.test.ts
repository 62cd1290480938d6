import { describe, expect, it } from "vitest";
import { parseSource } from "../../../src/scan/js/file-context.js";

describe("parseSource", () => {
  it("parses the code but not its JSDoc, which no rule reads (a well-documented file parses faster)", () => {
    const text = [
      "/**",
      " * Queues a run.",
      " * @param {string} id the deployment",
      " * @returns {Promise<Response>}",
      " */",
      'export function queue(id) { return fetch("https://www.comfydeploy.com/api/run", { method: "POST" }); }',
    ].join("\n");
    const file = parseSource("client.js", text);
    const [fn] = file.statements;
    expect(fn?.getText(file)).toMatch(/^export function queue/);
    expect((fn as { jsDoc?: unknown[] }).jsDoc).toBeUndefined();
  });
});
