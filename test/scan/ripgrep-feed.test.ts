/**
 * rg over a listing that arrives in batches answers as rg over the whole
 * listing at once: paths fed but not in the final listing are not matches,
 * paths of the final listing never fed are searched too.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { needlePattern, prefilterNeedles } from "../../src/scan/needles.js";
import { findRipgrep } from "../../src/scan/prefilter-pass.js";
import { RipgrepFeed, ripgrepMatches } from "../../src/scan/ripgrep-feed.js";
import { tempRepo } from "../helpers/temp-repo.js";

const rg = findRipgrep();
const needles = prefilterNeedles(DEFAULT_HOSTS).map(needlePattern);

function tree(): { root: string; files: string[]; v1: string[] } {
  const files: Record<string, string> = {};
  const v1: string[] = [];
  for (let i = 0; i < 4000; i++) {
    // Long paths: a command line of rg arguments (512 KB) fills after about 2,400 of them.
    const path = `packages/package-number-${i % 50}/src/${"a-fairly-long-folder-name/".repeat(7)}file-${i}.js`;
    const uses = i % 400 === 7;
    files[path] = uses
      ? 'fetch("https://www.comfydeploy.com/api/run", { method: "POST" });\n'
      : `export const v${i} = ${i};\n`;
    if (uses) v1.push(path);
  }
  return { root: tempRepo(files), files: Object.keys(files).sort(), v1: v1.sort() };
}

describe.skipIf(!rg)("RipgrepFeed", () => {
  it("starts rg while paths are still arriving and ends with the matches of the final listing", async () => {
    const { root, files, v1 } = tree();
    const feed = new RipgrepFeed(rg!, root, needles);
    const fed = files.slice(0, 3000);
    for (let i = 0; i < fed.length; i += 500) feed.add(fed.slice(i, i + 500));
    expect(feed.started).toBe(true);
    // One matching path was fed but is no longer part of the listing; the last 1000 were never fed.
    const gone = v1.find((f) => fed.includes(f))!;
    const final = files.filter((f) => f !== gone);
    const matched = await feed.finish(final);
    expect([...matched].sort()).toEqual(v1.filter((f) => f !== gone));
    expect(matched.complete).toBe(true);
    expect([...(await ripgrepMatches(rg!, root, final, needles))].sort()).toEqual([...matched].sort());
  });

  it("does not start rg for fewer paths than a command line holds", () => {
    const feed = new RipgrepFeed(rg!, tempRepo({}), needles);
    feed.add(["a.js", "b.js"]);
    expect(feed.started).toBe(false);
  });
});
