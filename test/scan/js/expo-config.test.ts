/**
 * Expo's app config read through expo-constants: `Constants.expoConfig.extra`
 * (and `Constants.manifest`) is what app.json or app.config sets.
 */
import { describe, expect, it } from "vitest";
import { rulesIn } from "../../helpers/scan-rules.js";

const V1 = "https://www.comfydeploy.com/api";

const client = (prelude: string, base: string) =>
  [
    'import Constants from "expo-constants";',
    prelude,
    "export const queue = (inputs: object) =>",
    `  fetch(\`\${${base}}/run\`, { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs }) });`,
    `export const status = (id: string) => fetch(\`\${${base}}/run?run_id=\${id}\`);`,
    "",
  ].join("\n");

describe("Expo app config", () => {
  it("reads app.json's expo.extra through Constants.expoConfig and Constants.manifest", async () => {
    const appJson = JSON.stringify({ expo: { name: "app", extra: { apiUrl: V1 } } }, null, 2);
    for (const base of ["Constants.expoConfig?.extra?.apiUrl", "Constants.manifest!.extra!.apiUrl"]) {
      const files = { "app.json": appJson, "src/api.ts": client("", base) };
      expect(await rulesIn(files, "src/api.ts"), base).toEqual(["4:legacy-create-run", "5:legacy-get-run"]);
    }
  });

  it("reads what app.config.ts's function returns, destructured with a fallback object", async () => {
    const files = {
      "app.config.ts": `export default ({ config }: { config: object }) => ({\n  ...config,\n  extra: { apiUrl: process.env.API_URL ?? "${V1}" },\n});\n`,
      "src/api.ts": client("const { apiUrl } = Constants.expoConfig?.extra ?? {};", "apiUrl"),
    };
    expect(await rulesIn(files, "src/api.ts")).toEqual(["4:legacy-create-run", "5:legacy-get-run"]);
  });

  it("keeps another service's extra entry quiet", async () => {
    const files = {
      "app.json": JSON.stringify({ expo: { extra: { apiUrl: "https://api.runpod.ai/v2/abc" } } }),
      "src/api.ts": client("", "Constants.expoConfig?.extra?.apiUrl"),
    };
    expect(await rulesIn(files, "src/api.ts")).toEqual([]);
  });
});
