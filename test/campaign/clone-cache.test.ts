/**
 * Two `campaign run`s sharing one clone cache (the default) wait for each
 * other per clone instead of resetting a work tree the other is scanning:
 * both report what a run alone reports.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEstate, SHAPES } from "../helpers/campaign-estate.js";
import { runCliAsync } from "../helpers/cli.js";

const ENV = {
  GITHUB_TOKEN: "",
  GH_TOKEN: "",
  GITHUB_API_URL: "",
  GITHUB_SERVER_URL: "",
  GITHUB_REPOSITORY: "",
  COMFYDEPLOY_API_KEY: "",
};

interface RepoReport {
  status: string;
  failure?: unknown;
  scan?: { findings: Array<{ ruleId: string; location: unknown }> };
}

function reports(out: string): Record<string, { status: string; findings: string[] }> {
  const dir = join(out, "repos");
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const report = JSON.parse(readFileSync(join(dir, name), "utf8")) as RepoReport;
      return [
        name,
        {
          status: report.status,
          findings: (report.scan?.findings ?? []).map((f) => `${f.ruleId} ${JSON.stringify(f.location)}`).sort(),
        },
      ];
    }),
  );
}

describe("two campaign runs sharing a clone cache", () => {
  it("both finish every repository with the findings of a run alone, cold and with clones to refresh", async () => {
    const names = Object.keys(SHAPES);
    const estate = createEstate(names);
    const file = estate.campaignFile(`repositories:\n${names.map((n) => `  - url: ${estate.origin(n)}\n`).join("")}`);
    const run = (out: string, cache: string) =>
      runCliAsync(["campaign", "run", file, "--out", out, "--cache", cache, "--concurrency", "4"], {
        cwd: estate.dir,
        env: ENV,
      });
    const shared = join(estate.dir, "cache-shared");

    for (let round = 0; round < 3; round++) {
      // A new commit everywhere, so the shared clones are fetched, reset and cleaned while the other run may scan them.
      if (round > 0) for (const name of names) estate.commit(name, { [`notes-${round}.md`]: `round ${round}\n` });
      await run(join(estate.dir, `alone-${round}`), join(estate.dir, `cache-alone-${round}`));
      const expected = reports(join(estate.dir, `alone-${round}`));
      expect(Object.values(expected).every((r) => r.status === "ok" && r.findings.length > 0)).toBe(true);

      const [a, b] = await Promise.all([
        run(join(estate.dir, `a-${round}`), shared),
        run(join(estate.dir, `b-${round}`), shared),
      ]);
      expect([a.status, b.status], a.stderr + b.stderr).toEqual([1, 1]);
      expect(reports(join(estate.dir, `a-${round}`))).toEqual(expected);
      expect(reports(join(estate.dir, `b-${round}`))).toEqual(expected);
      expect(readdirSync(shared).filter((entry) => entry.endsWith(".lock"))).toEqual([]);
    }
  }, 240_000);
});
