/**
 * The published JSON Schemas of the campaign file, the per-repository report
 * and campaign.json are generated from the zod schemas the code validates
 * with; this keeps the files in schema/ in step (UPDATE_SCHEMAS=1 rewrites
 * them) and checks that a standard validator agrees with zod on examples.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { campaignFileJsonSchema, parseCampaignFile } from "../../src/campaign/campaign-file.js";
import { campaignJsonSchema } from "../../src/campaign/campaign-model.js";
import { repoReportJsonSchema } from "../../src/campaign/repo-report.js";

const SCHEMA_DIR = join(import.meta.dirname, "..", "..", "schema");

const SCHEMAS: Record<string, () => Record<string, unknown>> = {
  "campaign-file.schema.json": campaignFileJsonSchema,
  "campaign-repo-report.schema.json": repoReportJsonSchema,
  "campaign.schema.json": campaignJsonSchema,
};

describe("published campaign schemas", () => {
  for (const [file, generate] of Object.entries(SCHEMAS)) {
    it(`schema/${file} is generated from the code's schema (UPDATE_SCHEMAS=1 to rewrite)`, () => {
      const expected = `${JSON.stringify(generate(), null, 2)}\n`;
      if (process.env.UPDATE_SCHEMAS === "1") writeFileSync(join(SCHEMA_DIR, file), expected);
      expect(readFileSync(join(SCHEMA_DIR, file), "utf8")).toBe(expected);
    });
  }

  it("the campaign file schema and the CLI's validation agree", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const validate = ajv.compile(JSON.parse(readFileSync(join(SCHEMA_DIR, "campaign-file.schema.json"), "utf8")));
    const good = [
      {
        repositories: [
          { url: "https://github.com/acme/web-app.git" },
          { url: "../bots/discord-bot", path: "packages/bot" },
        ],
      },
      {
        github: { org: "acme", topic: "comfy" },
        failOn: "warning",
        pullRequests: { labels: ["migration"], draft: true },
      },
      {
        repositories: [
          {
            url: "git@github.com:acme/app.git",
            name: "app",
            base: "develop",
            deploymentId: "5b0c1e7a-3d4f-4a2b-9c8d-7e6f5a4b3c2d",
            github: "acme/app",
          },
        ],
      },
    ];
    const bad = [
      { repositories: [{ url: "a", pth: "x" }] },
      { repository: [] },
      { repositories: [{ url: 1 }] },
      { repositories: [{ url: "a", deploymentId: "x" }] },
      { repositories: [{ url: "-uexploit" }] },
      { failOn: "loud" },
      { github: { topic: "no-org" } },
    ];
    for (const value of good) {
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      expect(() => parseCampaignFile(JSON.stringify(value), "c.yml")).not.toThrow();
    }
    for (const value of bad) {
      expect(validate(value), JSON.stringify(value)).toBe(false);
      expect(() => parseCampaignFile(JSON.stringify(value), "c.yml"), JSON.stringify(value)).toThrow(/c\.yml: /);
    }
  });
});
