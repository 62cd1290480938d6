/** Runs `fix` on a single fixture file in a scratch repository, as the transform fixture tests do. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { planFixes } from "../../src/fix/runner.js";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import type { FixEvent, TransformId } from "../../transforms/types.js";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";

/** `<case>.input.<ext>` is written as `<case>.<ext>`, except names such as Dockerfile, package.json or env. */
export function targetName(caseName: string, ext: string): string {
  if (ext === "env") return ".env";
  if (/^[A-Z]/.test(ext) || ext.includes(".")) return ext;
  return `${caseName}.${ext}`;
}

export interface FixOutcome {
  text: string;
  events: FixEvent[];
  skipped: Array<{ file: string; reason: string }>;
}

/** Fixes one file (plus optional context files) and returns its new text. */
export async function fixSingleFile(
  name: string,
  content: Buffer | string,
  transforms: readonly TransformId[],
  context: Record<string, string> = {},
): Promise<FixOutcome> {
  const root = mkdtempSync(join(tmpdir(), "cdm-fix-"));
  try {
    for (const [file, text] of Object.entries({ ...context, [name]: content })) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    const plan = await planFixes({ root, hosts: DEFAULT_HOSTS, transforms, nodeRef: DEFAULT_NODE_REF });
    const change = plan.changes.find((c) => c.file === name);
    return {
      text: change ? change.after : readFileSync(join(root, name), "utf8"),
      events: change?.events ?? [],
      skipped: plan.skipped,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
