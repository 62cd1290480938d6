/**
 * Values a base is built from: fallback assignments (`??=`, `||=`), env reads
 * by element access, and options merged with `Object.assign`.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const V1 = "https://www.comfydeploy.com/api";

describe("base values", () => {
  it("takes the fallback a `??=` or `||=` assignment gives a variable or a member", async () => {
    const variable = {
      "src/comfy.ts": [
        "let base = process.env.COMFY_URL;",
        `base ??= "${V1}";`,
        'export const queue = () => fetch(`${base}/run`, { method: "POST", body: JSON.stringify({ deployment_id: "d" }) });',
        "",
      ].join("\n"),
    };
    expect(await rulesIn(variable, "src/comfy.ts")).toEqual(["2:legacy-base-url", "3:legacy-create-run"]);
    const member = {
      "src/render.ts": [
        "export class Render {",
        "  private base?: string;",
        "  constructor(base?: string) {",
        "    this.base = base;",
        `    this.base ||= "${V1}";`,
        "  }",
        "  status(id: string) {",
        "    return fetch(`${this.base}/run?run_id=${id}`);",
        "  }",
        "}",
        "",
      ].join("\n"),
    };
    expect(await rulesIn(member, "src/render.ts")).toContain("8:legacy-get-run");
  });

  it('reads process.env["X"] as the variable the env files set', async () => {
    const files = {
      ".env.example": `COMFY_API_URL=${V1}\n`,
      "src/comfy.ts":
        'export const status = (id: string) => fetch(`${process.env["COMFY_API_URL"]}/run?run_id=${id}`);\n',
    };
    expect(await rulesIn(files, "src/comfy.ts")).toEqual(["1:legacy-get-run"]);
  });

  it("reads an option merged with Object.assign over defaults", async () => {
    const files = {
      "src/render.js": [
        `const DEFAULTS = { baseUrl: "${V1}", timeout: 30000 };`,
        "class Render {",
        "  constructor(opts) {",
        "    this.opts = Object.assign({}, DEFAULTS, opts);",
        "  }",
        "  status(id) {",
        "    return fetch(`${this.opts.baseUrl}/run?run_id=${id}`);",
        "  }",
        "}",
        "module.exports = { Render };",
        "",
      ].join("\n"),
    };
    expect(await rulesIn(files, "src/render.js")).toContain("7:legacy-get-run");
  });
});
