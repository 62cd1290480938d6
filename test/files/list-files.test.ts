/**
 * A git listing is handed over as git writes it, so the prefilter can start
 * on the first paths; the listing returned at the end stays the one to trust.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listFiles } from "../../src/files/list-files.js";
import { git } from "../helpers/git-repo.js";
import { tempRepo } from "../helpers/temp-repo.js";

/** Long names, so that git writes the listing in more than one pipe read. */
function manyFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++)
    files[`packages/pkg-${i % 40}/src/${"deeply-nested-folder/".repeat(8)}module-${i}.ts`] =
      `export const v${i} = ${i};\n`;
  return files;
}

describe("listFiles with a git listing", () => {
  it("hands every listed path over in batches before it returns, each path once, with the include/exclude filter applied", async () => {
    const files = { ...manyFiles(1000), "docs/guide.md": "# guide\n", "ünïcode/ñame.ts": "export {};\n" };
    const root = tempRepo(files);
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "tree");
    writeFileSync(join(root, "untracked.ts"), "export {};\n");
    const batches: string[][] = [];
    const listing = await listFiles(root, { exclude: ["docs/**"] }, (paths) => batches.push(paths));
    expect(listing.source).toBe("git");
    expect(listing.files).toContain("untracked.ts");
    expect(listing.files).toContain("ünïcode/ñame.ts");
    expect(listing.files).not.toContain("docs/guide.md");
    const handed = batches.flat();
    expect(batches.length).toBeGreaterThan(1);
    expect(new Set(handed).size).toBe(handed.length);
    expect([...handed].sort()).toEqual(listing.files);
  });

  it("hands nothing over when it lists without git, and lists the same", async () => {
    const root = tempRepo({ "a.ts": "export {};\n", "b/c.js": "module.exports = 1;\n" });
    const batches: string[][] = [];
    const listing = await listFiles(root, {}, (paths) => batches.push(paths));
    expect(listing.source).toBe("filesystem");
    expect(listing.files).toEqual(["a.ts", "b/c.js"]);
    expect(batches).toEqual([]);
  });
});
