/**
 * The layers point down: a module imports only from its own area or from
 * areas below it. The order is the one ARCHITECTURE.md draws.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Lower ranks are lower layers; areas of one rank never import each other. */
const RANKS: Record<string, number> = {
  "src/knowledge": 0,
  "src/rules": 1,
  "src/core": 2,
  // Shared infrastructure (the GitHub client, …), just above core.
  "src/platform": 2.5,
  "src/lang": 3,
  "src/files": 3,
  "src/scan": 4,
  "src/pins": 5,
  transforms: 6,
  "src/fix": 7,
  "src/report": 7,
  "src/check": 8,
  "src/serve": 8,
  "src/readiness": 9,
  "src/pr": 10,
  "src/campaign": 11,
  "src/docs": 12,
  "src/commands": 12,
  "src/cli.ts": 13,
  "src/index.ts": 13,
};

function areaOf(file: string): string {
  const parts = file.split("/");
  const area = parts[0] === "src" ? `src/${parts[1]}` : parts[0]!;
  if (!(area in RANKS)) throw new Error(`${file} is in no layer: add its area to RANKS and to ARCHITECTURE.md`);
  return area;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]!);
  return specifiers.map((s) =>
    relative(ROOT, normalize(join(ROOT, dirname(file), s)))
      .split(sep)
      .join("/"),
  );
}

describe("layers", () => {
  const files = [...sourceFiles("src"), ...sourceFiles("transforms")];

  it("every import points to the same area or a lower layer", () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = areaOf(file);
      for (const target of relativeImports(file)) {
        const to = areaOf(target);
        if (to !== from && RANKS[to]! >= RANKS[from]!) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("src/core imports only the facts and the rule catalog below it", () => {
    const outside = files
      .filter((f) => f.startsWith("src/core/"))
      .flatMap((f) =>
        relativeImports(f)
          .filter((t) => !/^src\/(core|knowledge|rules)\//.test(t))
          .map((t) => `${f} -> ${t}`),
      );
    expect(outside).toEqual([]);
  });

  it("src/platform imports only core and what lies below it: the facts and the rule catalog", () => {
    const outside = files
      .filter((f) => f.startsWith("src/platform/"))
      .flatMap((f) =>
        relativeImports(f)
          .filter((t) => !/^src\/(platform|core|knowledge|rules)\//.test(t))
          .map((t) => `${f} -> ${t}`),
      );
    expect(outside).toEqual([]);
  });

  it("only src/platform/github/ talks to the GitHub API: no other module imports Octokit or sends requests to GitHub's REST paths", () => {
    const GITHUB_API = /api\.github\.com|["'`/]repos\/|["'`/]orgs\/|\/search\/repositories/;
    const SENDS_HTTP = /from\s+"(?:undici|node:https?|@octokit\/[^"]+)"|\bfetch\(/;
    const talking = files
      .filter((f) => !f.startsWith("src/platform/github/"))
      .filter((f) => {
        const text = readFileSync(join(ROOT, f), "utf8");
        return /from\s+"@octokit\//.test(text) || (SENDS_HTTP.test(text) && GITHUB_API.test(text));
      });
    expect(talking).toEqual([]);
  });

  it("serve and check read which run statuses end a run from the migration facts, not from each other", () => {
    for (const file of ["src/serve/runs.ts", "src/check/live-check.ts"]) {
      expect(relativeImports(file), file).toContain("src/knowledge/run-record.js");
    }
  });

  it("transforms and pins use what the scan proved, not the scanners' insides: nothing under src/scan/scanners/ is imported", () => {
    const reaching = files
      .filter((f) => f.startsWith("transforms/") || f.startsWith("src/pins/"))
      .flatMap((f) =>
        relativeImports(f)
          .filter((t) => t.startsWith("src/scan/scanners/"))
          .map((t) => `${f} -> ${t}`),
      );
    expect(reaching).toEqual([]);
  });

  it("no module is longer than 400 lines", () => {
    const MAX_LINES = 400;
    const long = files
      .map((f) => ({ f, lines: readFileSync(join(ROOT, f), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it("only src/platform/git.ts starts git", () => {
    // Any spawn/exec function (promisified ones included) called with "git" as the program.
    const spawnsGit = /\b\w*(spawn|exec)\w*\)?\s*\(\s*["'`]git["'`\s]/i;
    const offenders = files.filter(
      (f) => f !== "src/platform/git.ts" && spawnsGit.test(readFileSync(join(ROOT, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
