/** The node-pin column says the same in campaign.json, campaign.md and campaign.html. */
import { describe, expect, it } from "vitest";
import { buildCampaign } from "../../src/campaign/campaign-model.js";
import { nodePinLabel } from "../../src/campaign/labels.js";
import { renderCampaignHtml } from "../../src/campaign/render-html.js";
import { renderCampaignMarkdown } from "../../src/campaign/render-markdown.js";
import { NODE_PIN_STATES } from "../../src/campaign/repo-report.js";
import { failedReport, scannedReport } from "../helpers/campaign-reports.js";

describe("the node-pin column", () => {
  it("agrees across JSON, Markdown and HTML for every state, and for a repository never scanned", () => {
    const reports = [
      ...NODE_PIN_STATES.map((state) => scannedReport(`pin-${state}`, {}, { nodePins: state })),
      failedReport("unscanned"),
    ];
    const campaign = buildCampaign(reports, "error", []);
    const json = JSON.parse(JSON.stringify(campaign)) as typeof campaign;
    const md = renderCampaignMarkdown(campaign).split("\n");
    const html = renderCampaignHtml(campaign).split("\n");
    const header = md.find((l) => l.startsWith("| Repository |"))!.split(" | ");
    const column = header.indexOf("Node pin");
    for (const row of json.repositories) {
      const expected = nodePinLabel(row.nodePins);
      if (row.nodePins) expect(expected, row.name).toBe(row.nodePins);
      const mdCell = md.find((l) => l.startsWith(`| [${row.name}]`))!.split(" | ")[column];
      const htmlCell = /<td class="node-pin">([^<]*)<\/td>/.exec(
        html.find((l) => l.startsWith(`<tr data-repo="${row.name}"`))!,
      )?.[1];
      expect({ name: row.name, md: mdCell, html: htmlCell }).toEqual({ name: row.name, md: expected, html: expected });
    }
  });
});
