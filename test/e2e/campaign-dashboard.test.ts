/**
 * The dashboard in a real browser: headless Chromium from the OS packages,
 * driven by playwright-core. campaign.html comes from two real runs over an
 * estate of git repositories and a `campaign status` against the fake GitHub
 * serving pull requests, checks and reviews; the page must show one row per
 * repository, each pull request's checks and review, a drawn chart, both
 * burn-downs, filters that hide and show rows, no console error, and make no
 * request at all.
 * Locally the test is skipped only when Chromium is missing; under CI it
 * always runs (.ci/run installs Chromium).
 */
import { copyFileSync, existsSync, mkdtempSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cutoffStatus } from "../../src/knowledge/cutoff.js";
import { CLEAN, createEstate, type Estate, GHOST, SHAPES } from "../helpers/campaign-estate.js";
import { runCliAsync } from "../helpers/cli.js";
import { FakeGitHub, type FakePull } from "../helpers/fake-github.js";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const REPOSITORIES = [...Object.keys(SHAPES), CLEAN, GHOST].sort();
const TOKEN = "ghp_dashboardFakeToken0123456789abcdef";
const BRANCH = "comfydeploy-migrate/v2";

/** Where each repository's pull request stands on the fake GitHub (clean-api and ghost have none). */
const PULLS: Record<
  string,
  { state: "open" | "merged"; checks?: "success" | "failure" | "pending"; review?: "APPROVED" | "CHANGES_REQUESTED" }
> = {
  "web-app": { state: "open", checks: "failure", review: "CHANGES_REQUESTED" },
  "py-service": { state: "open", checks: "success", review: "APPROVED" },
  "comfy-worker": { state: "open", checks: "pending" },
  bots: { state: "merged" },
};

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)("campaign.html in Chromium", () => {
  let estate: Estate;
  let html: string;
  const github = new FakeGitHub(TOKEN);

  beforeAll(async () => {
    estate = createEstate();
    const file = estate.campaignFile(
      `repositories:\n${REPOSITORIES.map((name) => `  - url: ${estate.origin(name)}\n    github: acme/${name}\n${name === "bots" ? "    path: packages/bot\n" : ""}`).join("")}`,
    );
    const out = join(estate.dir, "out");
    const run = (): Promise<unknown> =>
      runCliAsync(["campaign", "run", file, "--out", out, "--cache", join(estate.dir, "cache")], {
        env: { GITHUB_TOKEN: "", GH_TOKEN: "" },
      });
    await run();
    // A second run after one repository gained a V1 use: two points on the burn-down.
    estate.commit(CLEAN, { "src/legacy.ts": 'export const RUN = "https://www.comfydeploy.com/api/run";\n' });
    await run();
    // The pull requests as GitHub has them, read by status, which rewrites the dashboard.
    await github.start();
    for (const [name, pr] of Object.entries(PULLS)) {
      github.addRepository({ owner: "acme", name });
      const pull: FakePull = {
        repo: `acme/${name}`,
        number: 7,
        head: BRANCH,
        base: "main",
        title: "t",
        body: "",
        draft: false,
        state: "open",
        merged: false,
        labels: [],
        reviewers: [],
        assignees: [],
      };
      if (pr.review) pull.reviews = [{ user: "lead", state: pr.review }];
      github.pulls.push(pull);
      if (pr.state === "merged") github.merge(`acme/${name}`, 7);
      if (pr.checks)
        github.checks.set(`acme/${name}@${BRANCH}`, { statuses: [{ context: "ci", state: pr.checks }], runs: [] });
    }
    for (const name of [CLEAN, GHOST]) github.addRepository({ owner: "acme", name });
    const status = (await runCliAsync(["campaign", "status", out, "--api-url", github.url], {
      env: { GITHUB_TOKEN: TOKEN, GH_TOKEN: "" },
    })) as { status: number; stderr: string };
    expect(status.status, status.stderr).toBe(0);
    html = join(out, "campaign.html");
  });

  afterAll(async () => {
    await github.stop();
    estate?.remove();
  });

  it("shows one row per repository, both charts and the cutoff, with no console error and no request", async () => {
    const profile = mkdtempSync(join(estate.dir, "chromium-profile-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const pageUrl = pathToFileURL(html).href;
      const requests: string[] = [];
      const problems: string[] = [];
      context.on("request", (request) => requests.push(request.url()));
      // Anything but the page itself is refused, so a stray request cannot reach anywhere either.
      await context.route("**/*", (route) => (route.request().url() === pageUrl ? route.continue() : route.abort()));
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning")
          problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));

      await page.goto(pageUrl, { waitUntil: "load" });
      await page.waitForTimeout(250); // let late requests, if any, show up

      const rows = page.locator("#readiness-table tbody tr");
      expect(await rows.count()).toBe(REPOSITORIES.length);
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-repo")))).toEqual(REPOSITORIES);
      expect(await page.locator(`tr[data-repo="${GHOST}"] .badge`).textContent()).toBe("failed");
      expect(await page.locator(`tr[data-repo="${CLEAN}"] .badge`).textContent()).toBe("not ready");

      // The rule chart is drawn: bars with a real size, one per rule found.
      const bars = page.locator("#rule-chart svg rect");
      expect(await bars.count()).toBeGreaterThan(3);
      const box = await bars.first().boundingBox();
      expect(box!.width).toBeGreaterThan(10);
      expect(box!.height).toBeGreaterThan(5);
      expect(await page.locator("#burn-down-chart svg circle").count()).toBe(2);
      expect(await page.locator("#merged-chart svg circle").count()).toBe(2);
      expect(await page.locator("#merged-chart svg .point .value").last().textContent()).toBe("1");

      // Each open pull request shows its checks and review, as GitHub has them.
      const pullCell = (name: string) => page.locator(`tr[data-repo="${name}"] td`).nth(6);
      expect(await pullCell("web-app").textContent()).toBe("#7 openchecks failed changes requested");
      expect(await pullCell("py-service").textContent()).toBe("#7 openchecks passed approved");
      expect(await pullCell("comfy-worker").textContent()).toBe("#7 openchecks pending review required");
      expect(await pullCell("bots").textContent()).toBe("#7 merged");
      expect(await page.locator(`tr[data-repo="web-app"] li[data-reason="pr-checks"]`).textContent()).toBe(
        "a failed check on the pull request",
      );
      expect(await page.locator(`tr[data-repo="${GHOST}"] li[data-reason="run-failed"]`).count()).toBe(1);

      // The filters hide and show rows, alone and together.
      const visible = async (): Promise<string[]> => {
        const shown: string[] = [];
        for (const name of REPOSITORIES)
          if (await page.locator(`tr[data-repo="${name}"]`).isVisible()) shown.push(name);
        return shown;
      };
      expect(await page.locator("#filters").isVisible()).toBe(true);
      await page.selectOption("#filter-checks", "failed");
      expect(await visible()).toEqual(["web-app"]);
      await page.selectOption("#filter-checks", "");
      await page.selectOption("#filter-pr", "open");
      expect(await visible()).toEqual(["comfy-worker", "py-service", "web-app"]);
      await page.selectOption("#filter-review", "approved");
      expect(await visible()).toEqual(["py-service"]);
      expect(await page.locator("#filter-count").textContent()).toBe(`1 of ${REPOSITORIES.length} shown`);
      await page.selectOption("#filter-pr", "");
      await page.selectOption("#filter-review", "");
      await page.selectOption("#filter-readiness", "failed");
      expect(await visible()).toEqual([GHOST]);
      await page.selectOption("#filter-readiness", "not-ready");
      await page.selectOption("#filter-pr", "merged");
      expect(await visible()).toEqual(["bots"]);
      await page.selectOption("#filter-pr", "");
      await page.selectOption("#filter-checks", "pending");
      const filtered = join(estate.dir, "campaign-filtered.png");
      await page.screenshot({ path: filtered, fullPage: true });
      if (process.env.CAMPAIGN_SCREENSHOT_COPY)
        copyFileSync(filtered, process.env.CAMPAIGN_SCREENSHOT_COPY.replace(/(\.png)?$/, "-filtered.png"));
      expect(await visible()).toEqual(["comfy-worker"]);
      await page.selectOption("#filter-checks", "");
      await page.selectOption("#filter-readiness", "");
      expect(await visible()).toEqual(REPOSITORIES);

      const cutoff = cutoffStatus();
      const banner = (await page.locator("#cutoff").textContent()) ?? "";
      expect(banner).toContain(cutoff.passed ? `passed ${-cutoff.daysLeft} day` : `${cutoff.daysLeft} day`);

      const screenshot = join(estate.dir, "campaign.png");
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(20_000);
      if (process.env.CAMPAIGN_SCREENSHOT_COPY) copyFileSync(screenshot, process.env.CAMPAIGN_SCREENSHOT_COPY);

      expect(problems).toEqual([]);
      expect(requests).toEqual([pageUrl]);
    } finally {
      await context.close();
    }
  });
});
