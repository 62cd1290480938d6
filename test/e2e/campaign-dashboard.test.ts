/**
 * The dashboard in a real browser: headless Chromium from the OS packages,
 * driven by playwright-core. campaign.html comes from two real runs over an
 * estate of git repositories; the page must show one row per repository, a
 * drawn chart and burn-down, no console error, and make no request at all.
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

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)("campaign.html in Chromium", () => {
  let estate: Estate;
  let html: string;

  beforeAll(async () => {
    estate = createEstate();
    const file = estate.campaignFile(
      `repositories:\n${REPOSITORIES.map((name) => `  - url: ${estate.origin(name)}\n${name === "bots" ? "    path: packages/bot\n" : ""}`).join("")}`,
    );
    const out = join(estate.dir, "out");
    const run = (): Promise<unknown> => runCliAsync(["campaign", "run", file, "--out", out, "--cache", join(estate.dir, "cache")], { env: { GITHUB_TOKEN: "", GH_TOKEN: "" } });
    await run();
    // A second run after one repository gained a V1 use: two points on the burn-down.
    estate.commit(CLEAN, { "src/legacy.ts": 'export const RUN = "https://www.comfydeploy.com/api/run";\n' });
    await run();
    html = join(out, "campaign.html");
  });

  afterAll(() => estate?.remove());

  it("shows one row per repository, both charts and the cutoff, with no console error and no request", async () => {
    const profile = mkdtempSync(join(estate.dir, "chromium-profile-"));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const pageUrl = pathToFileURL(html).href;
      const requests: string[] = [];
      const problems: string[] = [];
      context.on("request", (request) => requests.push(request.url()));
      // Anything but the page itself is refused, so a stray request cannot reach anywhere either.
      await context.route("**/*", (route) => (route.request().url() === pageUrl ? route.continue() : route.abort()));
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
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
