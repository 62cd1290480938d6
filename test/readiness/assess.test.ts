/** The readiness report: checklist items per area, and the overall verdict. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cutoffStatus } from "../../src/knowledge/cutoff.js";
import type { CheckResult } from "../../src/check/live-check.js";
import { assessReadiness, renderReadinessMarkdown, renderReadinessText } from "../../src/readiness/readiness.js";
import { buildReport } from "../../src/report/model.js";
import { scan } from "../../src/scan/engine.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";

const NOW = new Date("2025-04-01T00:00:00Z");

async function reportFor(dir: string) {
  const result = await scan({ root: dir, hosts: DEFAULT_HOSTS, workers: false });
  return buildReport(result, { command: "npx comfydeploy-migrate report", now: NOW });
}

function check(verdict: CheckResult["verdict"]): CheckResult {
  return {
    verdict,
    reason: "run x succeeded",
    deploymentId: "d",
    flag: "partner_v2",
    baseUrl: "http://127.0.0.1/api",
    cutoff: cutoffStatus(NOW),
  };
}

describe("readiness", () => {
  it("is NOT READY for the demo app, with the code items open", async () => {
    const readiness = assessReadiness(
      await reportFor(join(import.meta.dirname, "..", "..", "fixtures", "demo-app")),
      check("READY"),
    );
    expect(readiness.verdict).toBe("NOT_READY");
    const states = Object.fromEntries(readiness.items.map((i) => [i.title, i.state]));
    expect(states["Code talks to the V2 API (no legacy host or endpoints)"]).toBe("todo");
    expect(states["Code uses the V2 SDK"]).toBe("todo");
    expect(states["Live check on V2 with the migration flag"]).toBe("done");
    expect(renderReadinessText(readiness)).toMatch(/^Overall: NOT READY/);
  });

  it("is INCOMPLETE for clean code without a live check, READY with one, NOT READY when it fails", async () => {
    const clean = await reportFor(join(import.meta.dirname, "..", "..", "fixtures", "rules", "js", "legacy-base-url"));
    const noFindings = { ...clean, findings: [] };
    expect(assessReadiness(noFindings, undefined).verdict).toBe("INCOMPLETE");
    expect(assessReadiness(noFindings, check("READY")).verdict).toBe("READY");
    expect(assessReadiness(noFindings, check("NOT_READY")).verdict).toBe("NOT_READY");
    expect(renderReadinessMarkdown(assessReadiness(noFindings, check("READY")))).toContain("## V2 readiness: ✅ READY");
  });
});
