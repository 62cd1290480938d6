/**
 * The burn-down's points: a repository whose run failed keeps its last known
 * findings and marks the point partial, so one failed clone is neither
 * progress nor, on its return, a regression; pull requests merged are kept too.
 */
import { describe, expect, it } from "vitest";
import { buildCampaign, type HistoryPoint } from "../../src/campaign/campaign-model.js";
import { withPoint } from "../../src/campaign/history.js";
import { renderCampaignHtml } from "../../src/campaign/render-html.js";
import { renderCampaignMarkdown } from "../../src/campaign/render-markdown.js";
import type { RepoReport } from "../../src/campaign/repo-report.js";
import { failedReport, scannedReport } from "../helpers/campaign-reports.js";

function merge(points: HistoryPoint[], reports: RepoReport[]): HistoryPoint[] {
  return withPoint(points, buildCampaign(reports, "error", []), reports);
}

const at = (day: number): string => `2025-03-0${day}T10:00:00.000Z`;

describe("a failed run on the burn-down", () => {
  it("keeps the repository's last known findings, marks the point partial, and its return reads unchanged", () => {
    let points = merge(
      [],
      [
        scannedReport("web", { "legacy-base-url": 12 }, { startedAt: at(1) }),
        scannedReport("bot", { "legacy-base-url": 3 }, { startedAt: at(1) }),
      ],
    );
    expect(points.at(-1)).toMatchObject({ findings: { total: 15 } });
    expect(points.at(-1)!.partial).toBeUndefined();

    const failedRun = [
      failedReport("web", { startedAt: at(2) }),
      scannedReport("bot", { "legacy-base-url": 3 }, { startedAt: at(2), runKey: "bot-2" }),
    ];
    points = merge(points, failedRun);
    expect(points.at(-1)).toMatchObject({ findings: { total: 15, error: 15 }, partial: ["web"], failed: 1 });

    const back = [
      scannedReport("web", { "legacy-base-url": 12 }, { startedAt: at(3), runKey: "web-3" }),
      scannedReport("bot", { "legacy-base-url": 3 }, { startedAt: at(3), runKey: "bot-3" }),
    ];
    points = merge(points, back);
    expect(points.map((p) => p.findings.total)).toEqual([15, 15, 15]);
    const campaign = { ...buildCampaign(back, "error", []), history: points };
    expect(renderCampaignMarkdown(campaign)).toContain("unchanged since the previous run");

    // The partial point is drawn hollow and named partial.
    const html = renderCampaignHtml({ ...buildCampaign(failedRun, "error", []), history: points });
    expect(html.match(/<g class="point partial">/g)).toHaveLength(1);
    expect(html).toContain("partial: web failed, last known findings kept");
  });

  it("a repository never scanned counts nothing, and the point is still partial; merging the same reports again replaces it", () => {
    const reports = [
      failedReport("new", { startedAt: at(1) }),
      scannedReport("bot", { "legacy-base-url": 2 }, { startedAt: at(1) }),
    ];
    let points = merge([], reports);
    expect(points).toEqual([
      expect.objectContaining({ findings: expect.objectContaining({ total: 2 }), partial: ["new"] }),
    ]);
    points = merge(points, reports);
    expect(points).toHaveLength(1);
    expect(renderCampaignMarkdown({ ...buildCampaign(reports, "error", []), history: points })).not.toContain(
      "since the previous run",
    );
  });
});

describe("pull requests merged over time", () => {
  it("each point records pull requests by state, and the dashboard draws the merged ones beside the findings", () => {
    const pr = (state: "open" | "merged", n: number) => ({ pullRequest: { state, number: n, checkedAt: at(1) } });
    const first = [
      scannedReport("a", { "legacy-base-url": 1 }, { startedAt: at(1), ...pr("open", 1) }),
      scannedReport("b", { "legacy-base-url": 1 }, { startedAt: at(1), ...pr("open", 2) }),
    ];
    const second = [scannedReport("a", {}, { startedAt: at(2), runKey: "a2", ...pr("merged", 1) }), first[1]!];
    const third = [second[0]!, scannedReport("b", {}, { startedAt: at(3), runKey: "b3", ...pr("merged", 2) })];
    let points: HistoryPoint[] = [];
    for (const reports of [first, second, third]) points = merge(points, reports);
    expect(points.map((p) => p.pullRequests?.merged)).toEqual([0, 1, 2]);
    // A point from an older history file, without pull requests, is left out of that chart only.
    const { pullRequests: _dropped, ...older } = points[0]!;
    const html = renderCampaignHtml({ ...buildCampaign(third, "error", []), history: [older, points[1]!, points[2]!] });
    const merged = html.slice(html.indexOf('id="merged-chart"'));
    expect(merged.match(/<circle /g)).toHaveLength(2);
    expect([...merged.matchAll(/class="value"[^>]*>(\d+)</g)].map((m) => m[1])).toEqual(["1", "2"]);
  });
});
