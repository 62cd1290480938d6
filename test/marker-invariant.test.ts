/**
 * The scan → fix → scan invariant over every fixture that is a repository
 * or a file of one (rule fixtures, transform inputs, the demo app, the
 * real-shapes corpus; the scenario apps have their own test): after fix,
 * every finding fix claims (fix class auto or review, severity warning or
 * error) is gone or has a review marker for its rule above it, and a second
 * run changes nothing.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../src/core/urls.js";
import { planFixes, writeFixes } from "../src/fix/runner.js";
import { scan } from "../src/scan/engine.js";
import { TRANSFORM_IDS } from "../transforms/index.js";
import { DEFAULT_NODE_REF } from "../transforms/node-pin/target.js";
import { scratchDir } from "./helpers/demo-copy.js";
import { targetName } from "./helpers/fix-fixtures.js";
import { unmarkedFindings } from "./helpers/scenario-fix.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

interface Subject {
  label: string;
  /** Copies the fixture into `root`. */
  copy(root: string): void;
}

function folder(label: string, source: string): Subject {
  return { label, copy: (root) => cpSync(source, root, { recursive: true }) };
}

function subdirectories(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => statSync(join(dir, name)).isDirectory())
        .sort()
    : [];
}

function subjects(): Subject[] {
  const out: Subject[] = [folder("demo-app", join(FIXTURES, "demo-app"))];
  for (const area of subdirectories(join(FIXTURES, "rules", "files"))) {
    for (const name of subdirectories(join(FIXTURES, "rules", "files", area)))
      out.push(folder(`rules/files/${area}/${name}`, join(FIXTURES, "rules", "files", area, name)));
  }
  for (const rule of subdirectories(join(FIXTURES, "rules", "js")))
    out.push(folder(`rules/js/${rule}`, join(FIXTURES, "rules", "js", rule)));
  for (const repo of subdirectories(join(FIXTURES, "real-shapes")))
    out.push(folder(`real-shapes/${repo}`, join(FIXTURES, "real-shapes", repo)));
  for (const transform of subdirectories(join(FIXTURES, "transforms"))) {
    const dir = join(FIXTURES, "transforms", transform);
    for (const file of readdirSync(dir)) {
      const match = /^(.+?)\.input\.(.+)$/.exec(file);
      if (!match) continue;
      const context = join(dir, `${match[1]}.context`);
      out.push({
        label: `transforms/${transform}/${file}`,
        copy: (root) => {
          const target = join(root, targetName(match[1]!, match[2]!));
          mkdirSync(dirname(target), { recursive: true });
          cpSync(join(dir, file), target);
          if (existsSync(context)) cpSync(context, root, { recursive: true });
        },
      });
    }
  }
  return out;
}

describe.each(subjects().map((s) => [s.label, s] as const))("fix on %s", (_label, subject) => {
  it("leaves every site it claims rewritten or marked, and converges in one run", async () => {
    const root = scratchDir("invariant-");
    try {
      subject.copy(root);
      // Its own repository: test/.tmp is ignored by this one, and the scan lists files as git does.
      execFileSync("git", ["init", "-q"], { cwd: root });
      const options = { root, hosts: DEFAULT_HOSTS, transforms: TRANSFORM_IDS, nodeRef: DEFAULT_NODE_REF };
      const plan = await planFixes(options);
      await writeFixes(root, plan.changes);
      expect(unmarkedFindings((await scan({ root, hosts: DEFAULT_HOSTS })).findings, plan.notes)).toEqual([]);
      expect((await planFixes(options)).changes.map((c) => c.file)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
