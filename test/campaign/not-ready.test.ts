/** A "not ready" row says why, in campaign.json, campaign.md and campaign.html alike. */
import { describe, expect, it } from "vitest";
import { buildCampaign } from "../../src/campaign/campaign-model.js";
import { reasonsOf } from "../../src/campaign/not-ready.js";
import { renderCampaignHtml } from "../../src/campaign/render-html.js";
import { renderCampaignMarkdown } from "../../src/campaign/render-markdown.js";
import { failedReport, scannedReport } from "../helpers/campaign-reports.js";

const CHECKED = "2025-03-02T10:00:00.000Z";

describe("why a repository is not ready", () => {
  const reports = [
    scannedReport("markers", { "review-marker": 2 }),
    scannedReport("pinned", { "node-component-pin": 1 }, { nodePins: "outdated" }),
    scannedReport("legacy", { "legacy-base-url": 3, "review-marker": 1 }),
    scannedReport(
      "live",
      {},
      { check: { deploymentId: "d", verdict: "NOT_READY", reason: "the run used V1 nodes", checkedAt: CHECKED } },
    ),
    scannedReport(
      "red-ci",
      { "legacy-base-url": 1 },
      { pullRequest: { state: "open", number: 4, checks: "failed", review: "approved", checkedAt: CHECKED } },
    ),
    failedReport("gone"),
    scannedReport("clean", {}, { nodePins: "none" }),
  ];

  it("names each cause once, with its count", () => {
    const kinds = Object.fromEntries(reports.map((r) => [r.name, reasonsOf(r).map((x) => x.kind)]));
    expect(kinds).toEqual({
      markers: ["markers"],
      pinned: ["node-pin"],
      legacy: ["markers", "findings"],
      live: ["live-check"],
      "red-ci": ["findings", "pr-checks"],
      gone: ["run-failed"],
      clean: [],
    });
    expect(reasonsOf(reports[2]!).map((r) => r.text)).toEqual(["1 review marker left", "3 V1 findings left"]);
    expect(reasonsOf(reports[3]!)[0]!.text).toBe("live check NOT READY: the run used V1 nodes");
    expect(reasonsOf(reports[5]!)[0]!.text).toBe("clone failed: fatal: repository not found");
  });

  it("every row that is not ready carries its reasons into the JSON, the Markdown and the HTML; a ready row none", () => {
    const campaign = buildCampaign(reports, "error", []);
    const md = renderCampaignMarkdown(campaign);
    const html = renderCampaignHtml(campaign);
    for (const row of campaign.repositories) {
      if (row.readiness === "ready") {
        expect(row.reasons).toEqual([]);
        continue;
      }
      expect(row.reasons.length, row.name).toBeGreaterThan(0);
      const mdRow = md.split("\n").find((l) => l.startsWith(`| [${row.name}]`))!;
      const htmlRow = html.split("\n").find((l) => l.startsWith(`<tr data-repo="${row.name}"`))!;
      for (const reason of row.reasons) {
        expect(mdRow, row.name).toContain(reason.text);
        expect(htmlRow, row.name).toContain(`<li data-reason="${reason.kind}">${reason.text}</li>`);
      }
    }
    expect(campaign.repositories.find((r) => r.name === "clean")!.readiness).toBe("ready");
  });
});
