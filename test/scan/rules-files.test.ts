/**
 * File-based rule fixtures (manifests, lockfiles, other languages, pins):
 * each folder under fixtures/rules/files/ is scanned as a repository and its
 * findings must equal expected.json, a list of { file, line, ruleId }.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scan } from "../../src/scan/engine.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";

const ROOT = join(import.meta.dirname, "..", "..", "fixtures", "rules", "files");

interface Expected {
  file: string;
  line: number;
  ruleId: string;
}

function caseDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (existsSync(join(path, "expected.json"))) out.push(path);
    else out.push(...caseDirs(path));
  }
  return out.sort();
}

const cases = caseDirs(ROOT);

describe.each(cases.map((c) => [c.slice(ROOT.length + 1), c]))("file fixtures: %s", (_name, dir) => {
  it("reports exactly the expected findings", async () => {
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected[];
    const result = await scan({ root: dir, hosts: DEFAULT_HOSTS, workers: false, exclude: ["expected.json"] });
    const key = (f: Expected): string => `${f.file}:${f.line}:${f.ruleId}`;
    expect([...new Set(result.findings.map(key))].sort()).toEqual([...new Set(expected.map(key))].sort());
  });
});
