/**
 * The SDK bindings the v2-sdk transform edits: those the scan proved (the
 * findings' js-sdk facts, nodes found by span), and the same read from the
 * tree when a plain jscodeshift run hands it findings without facts.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import jscodeshift from "jscodeshift";
import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/core/finding.js";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { parserFor } from "../../../transforms/lib/jscodeshift-part.js";
import type { FixEvent } from "../../../transforms/types.js";
import transform from "../../../transforms/v2-sdk/js.js";
import { fixSingleFile, targetName } from "../../helpers/fix-fixtures.js";
import { tempRepo } from "../../helpers/temp-repo.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "fixtures", "transforms", "v2-sdk");

/** The codemod run directly on one file, as jscodeshift runs it, with the findings given. */
function runCodemod(file: string, source: string, findings: readonly Finding[]): { text: string; events: FixEvent[] } {
  const j = jscodeshift.withParser(parserFor(file));
  const events: FixEvent[] = [];
  const text = transform(
    { path: file, source },
    { jscodeshift: j, j, stats: () => {}, report: () => {} },
    {
      hosts: DEFAULT_HOSTS,
      findings,
      report: (event) => events.push(event),
      useSupportModule: () => ({ specifier: "./comfydeploy-v1-compat", syntax: "esm" }),
    },
  );
  return { text, events };
}

function withoutFacts(findings: readonly Finding[]): Finding[] {
  return findings.map(({ facts: _facts, ...finding }) => finding);
}

describe("v2-sdk bindings", () => {
  it("follows the scan's bindings: a TypeScript `import cd = require(...)` is the SDK's namespace", async () => {
    const source = [
      'import cd = require("comfydeploy");',
      "",
      "const client = new cd.ComfyDeployClient({ apiToken: process.env.TOKEN! });",
      "",
      "export const status = (id: string) => client.getRun(id);",
      "",
    ].join("\n");
    const result = await fixSingleFile("a.ts", source, ["v2-sdk"]);
    expect(result.text).toContain("const client = new cd.ComfyDeploy({ bearer: process.env.TOKEN! });");
    expect(result.events.filter((e) => e.kind === "marker")).toEqual([]);
  });

  const inputs = readdirSync(FIXTURES).filter((f) => /^[^.]+\.input\.[cm]?[jt]sx?$/.test(f));

  it.each(inputs)("%s: a run without the scan's facts rewrites exactly as a run with them", async (input) => {
    const [, name, ext] = /^(.+)\.input\.(.+)$/.exec(input) as unknown as [string, string, string];
    const file = targetName(name, ext);
    const source = readFileSync(join(FIXTURES, input), "utf8");
    const root = tempRepo({ [file]: source });
    const context = join(FIXTURES, `${name}.context`);
    if (existsSync(context)) cpSync(context, root, { recursive: true });
    const findings = (await scan({ root, hosts: DEFAULT_HOSTS, workers: false })).findings.filter(
      (f) => f.file === file,
    );
    const withFacts = runCodemod(file, source, findings);
    expect(findings.some((f) => f.facts?.kind === "js-sdk")).toBe(findings.some((f) => f.ruleId.startsWith("v1-sdk")));
    expect(runCodemod(file, source, withoutFacts(findings))).toEqual(withFacts);
  });
});
