/**
 * Transform fixtures, discovered from fixtures/transforms/<transform>/:
 * `<case>.input.<ext>` must become `<case>.output.<ext>` (or stay
 * byte-identical when there is no output file: no V1 use), and running the
 * transform again on the output must change nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRANSFORM_IDS } from "../../transforms/index.js";
import type { TransformId } from "../../transforms/types.js";
import { fixSingleFile, targetName } from "../helpers/fix-fixtures.js";

const ROOT = join(import.meta.dirname, "..", "..", "fixtures", "transforms");

interface Case {
  transform: TransformId;
  name: string;
  ext: string;
  input: string;
  output?: string;
  /** Files that stand beside the fixture's file (`<case>.context/`), e.g. code that imports the SDK a manifest declares. */
  context: Record<string, string>;
}

function filesUnder(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, filesUnder(path, `${prefix}${entry.name}/`));
    else out[`${prefix}${entry.name}`] = readFileSync(path, "utf8");
  }
  return out;
}

function discover(): Case[] {
  if (!existsSync(ROOT)) return [];
  const cases: Case[] = [];
  for (const transform of readdirSync(ROOT)) {
    if (!(TRANSFORM_IDS as readonly string[]).includes(transform))
      throw new Error(`unknown transform folder ${transform}`);
    const dir = join(ROOT, transform);
    for (const file of readdirSync(dir)) {
      const match = /^(.+?)\.input\.(.+)$/.exec(file);
      if (!match) continue;
      const [, name, ext] = match as unknown as [string, string, string];
      const output = join(dir, `${name}.output.${ext}`);
      const contextDir = join(dir, `${name}.context`);
      const context = existsSync(contextDir) ? filesUnder(contextDir) : {};
      cases.push({
        transform: transform as TransformId,
        name,
        ext,
        input: join(dir, file),
        context,
        ...(existsSync(output) ? { output } : {}),
      });
    }
  }
  return cases.sort((a, b) => (a.input < b.input ? -1 : 1));
}

const cases = discover();

describe.each(cases.map((c) => [`${c.transform}/${c.name}.${c.ext}`, c] as const))(
  "transform fixture %s",
  (_label, c) => {
    const file = targetName(c.name, c.ext);
    const input = readFileSync(c.input, "utf8");
    const expected = c.output ? readFileSync(c.output, "utf8") : input;

    it(
      c.output ? "rewrites the input to the expected output" : "leaves a file without V1 use byte-identical",
      async () => {
        const result = await fixSingleFile(file, input, [c.transform], c.context);
        expect(result.skipped).toEqual([]);
        expect(result.text).toBe(expected);
      },
    );

    it("is idempotent: the output is left as it is", async () => {
      const again = await fixSingleFile(file, expected, [c.transform], c.context);
      expect(again.text).toBe(expected);
    });
  },
);
