/** The campaign's pure parts: targets and names, shards, history points, bounded concurrency, escaping in the dashboard. */
import { describe, expect, it } from "vitest";
import { parseCampaignFile } from "../../src/campaign/campaign-file.js";
import { buildCampaign } from "../../src/campaign/campaign-model.js";
import { withPoint } from "../../src/campaign/history.js";
import { KeyedLock, mapLimit } from "../../src/platform/concurrency.js";
import { renderCampaignHtml } from "../../src/campaign/render-html.js";
import { renderCampaignMarkdown } from "../../src/campaign/render-markdown.js";
import type { RepoReport } from "../../src/campaign/repo-report.js";
import { isRemoteUrl, parseShard, planMatrix, resolveTargets, shardOf } from "../../src/campaign/targets.js";
import { scannedReport } from "../helpers/campaign-reports.js";

function targetsOf(yaml: string, listed: Parameters<typeof resolveTargets>[2] = []) {
  return resolveTargets(parseCampaignFile(yaml, "campaign.yml"), "/srv/campaigns", listed);
}

describe("targets", () => {
  it("names repositories after their URL or path, resolves local paths against the campaign file, and knows GitHub ones", () => {
    const targets = targetsOf(
      [
        "repositories:",
        "  - url: https://github.com/acme/web-app.git",
        "  - url: git@github.com:acme/worker.git",
        "  - url: https://gitlab.example/acme/site",
        "  - url: ../bots/discord-bot/",
        "  - url: /opt/src/api",
        "    github: acme/api",
        "    path: ./services//api/",
        "",
      ].join("\n"),
    );
    expect(targets.map((t) => [t.name, t.local, t.github ? `${t.github.owner}/${t.github.name}` : undefined])).toEqual([
      ["web-app", false, "acme/web-app"],
      ["worker", false, "acme/worker"],
      ["site", false, undefined],
      ["discord-bot", true, undefined],
      ["api", true, "acme/api"],
    ]);
    expect(targets[3]!.source).toBe("file:///srv/bots/discord-bot");
    expect(targets[4]!.path).toBe("services/api");
  });

  it("keeps credentials out of the URL it reports, and tells URLs from paths", () => {
    const [target] = targetsOf("repositories:\n  - url: https://user:s3cret@github.com/acme/app.git\n");
    expect(target!.url).not.toContain("s3cret");
    expect(target!.source).toContain("s3cret"); // git still needs it to clone
    expect(isRemoteUrl("ssh://git@host/x.git")).toBe(true);
    expect(isRemoteUrl("git@host:x.git")).toBe(true);
    expect(isRemoteUrl("../x")).toBe(false);
    expect(isRemoteUrl("C-drive/x")).toBe(false);
  });

  it("adds an organisation's repositories after the listed ones, without listing one twice", () => {
    const targets = targetsOf("repositories:\n  - url: https://github.com/acme/web-app.git\n    name: storefront\n", [
      { owner: "acme", name: "web-app", cloneUrl: "https://github.com/acme/web-app.git", archived: false },
      { owner: "acme", name: "bot", cloneUrl: "https://github.com/acme/bot.git", archived: false },
    ]);
    expect(targets.map((t) => t.name)).toEqual(["storefront", "bot"]);
  });
});

describe("shards", () => {
  it("deals repositories round robin, never more shards than repositories", () => {
    const items = ["a", "b", "c", "d", "e"];
    expect([1, 2].map((i) => shardOf(items, i, 2))).toEqual([
      ["a", "c", "e"],
      ["b", "d"],
    ]);
    const targets = items.map((name) => ({ name, url: name, source: name, local: true }));
    expect(planMatrix(targets, 3).include.map((m) => m.repositories)).toEqual([["a", "d"], ["b", "e"], ["c"]]);
    expect(planMatrix(targets, 9).include).toHaveLength(5);
    expect(parseShard("2/5")).toEqual({ index: 2, total: 5 });
    for (const bad of ["0/2", "3/2", "x", "1/0", "1-2"]) expect(() => parseShard(bad)).toThrow(/--shard must be i\/N/);
  });
});

function report(name: string, startedAt: string, errors: number, extra: Partial<RepoReport> = {}): RepoReport {
  return scannedReport(name, errors ? { "legacy-base-url": errors } : {}, {
    runKey: `${name}-${startedAt}`,
    startedAt,
    ...extra,
  });
}

describe("history", () => {
  it("adds a point per merge of new reports, dated by the newest scan, and replaces a repeated merge", () => {
    const first = [report("a", "2025-03-01T10:00:00Z", 4), report("b", "2025-03-01T10:05:00Z", 2)];
    const campaign1 = buildCampaign(first, "error", []);
    let points = withPoint([], campaign1, first);
    expect(points).toEqual([
      expect.objectContaining({ at: "2025-03-01T10:05:00Z", findings: { total: 6, error: 6, warning: 0, info: 0 } }),
    ]);
    points = withPoint(points, campaign1, first);
    expect(points).toHaveLength(1);
    const second = [report("a", "2025-03-08T10:00:00Z", 1), first[1]!];
    points = withPoint(points, buildCampaign(second, "error", []), second);
    expect(points.map((p) => p.findings.total)).toEqual([6, 3]);
  });
});

describe("bounded concurrency", () => {
  it("keeps results in order, never runs more than the limit, and serialises work on one key", async () => {
    let running = 0;
    let most = 0;
    const tick = () => new Promise((done) => setImmediate(done));
    const results = await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await tick();
      await tick();
      running--;
      return n * 10;
    });
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(most).toBe(3);

    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (key: string, id: string) =>
      lock.with(key, async () => {
        log.push(`start ${id}`);
        await tick();
        log.push(`end ${id}`);
      });
    await Promise.all([job("repo", "1"), job("repo", "2"), job("other", "3")]);
    expect(log.indexOf("end 1")).toBeLessThan(log.indexOf("start 2"));
    expect(log.indexOf("start 3")).toBeLessThan(log.indexOf("end 1"));
  });
});

describe("the dashboard and the summary", () => {
  it("escape what repositories and git say", () => {
    const failed = report("evil", "2025-03-01T10:00:00Z", 0, {
      status: "failed",
      failure: { stage: "clone", reason: "fatal: <script>alert(1)</script> | not found" },
      url: "https://example.test/<img src=x>",
    });
    const campaign = buildCampaign([failed], "error", []);
    const html = renderCampaignHtml({ ...campaign, history: [] });
    // The filters' own script is the page's only one; what the repository said is text.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('http-equiv="Content-Security-Policy" content="default-src \'none\';');
    const md = renderCampaignMarkdown({ ...campaign, history: [] });
    expect(md).toContain("\\| not found");
    expect(md).not.toMatch(/<script>|<img/);
  });
});
