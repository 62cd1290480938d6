/** In-source ignore comments: which line each covers, and which cover nothing. */
import { describe, expect, it } from "vitest";
import { makeFinding, type Finding } from "../../src/core/finding.js";
import { applySuppressions, isDirective, parseSuppressions, unusedIgnoreFinding } from "../../src/core/suppression.js";

function findingAt(line: number, ruleId: Finding["ruleId"] = "legacy-base-url"): Finding {
  return makeFinding("a.ts", { ruleId, message: "m", location: { line, column: 1, endLine: line, endColumn: 2 } });
}

const V1 = `const A = "https://www.comfydeploy.com/api";`;
const TODAY = "2026-01-01";

describe("ignore comments", () => {
  it("after code cover their own line only, not the next one", () => {
    const text = `${V1} // comfydeploy-migrate-ignore legacy-base-url -- proxied\n${V1}\n`;
    const findings = [findingAt(1), findingAt(2)];
    const unused = applySuppressions(findings, parseSuppressions(text), TODAY);
    expect(findings.map((f) => Boolean(f.suppression))).toEqual([true, false]);
    expect(unused).toEqual([]);
  });

  it("alone on their line cover the next line, not their own", () => {
    const text = `# comfydeploy-migrate-ignore legacy-base-url -- moving\n${V1}\n${V1}\n`;
    const findings = [findingAt(2), findingAt(3)];
    applySuppressions(findings, parseSuppressions(text), TODAY);
    expect(findings.map((f) => Boolean(f.suppression))).toEqual([true, false]);
  });

  it.each([
    ["// comfydeploy-migrate-ignore *", 2],
    ["  /* comfydeploy-migrate-ignore * */", 2],
    ["<!-- comfydeploy-migrate-ignore * -->", 2],
    ["-- comfydeploy-migrate-ignore *", 2],
    ["{/* comfydeploy-migrate-ignore * */}", 2],
    [`${V1} # comfydeploy-migrate-ignore *`, 1],
    ["}); // comfydeploy-migrate-ignore *", 1],
  ])("%s covers line %i", (line, covered) => {
    expect(parseSuppressions(`${line}\n${V1}\n`)[0]!.covers).toBe(covered);
  });

  it("stacked comments, and a block comment's closing line, still cover the first code line after them", () => {
    const stacked = parseSuppressions(
      `// comfydeploy-migrate-ignore legacy-base-url\n// comfydeploy-migrate-ignore legacy-get-run\n${V1}\n`,
    );
    expect(stacked.map((s) => s.covers)).toEqual([3, 3]);
    const block = parseSuppressions(`/*\n * comfydeploy-migrate-ignore legacy-base-url -- why\n */\n${V1}\n`);
    expect(block.map((s) => s.covers)).toEqual([4]);
  });

  it("handle CRLF line endings", () => {
    const text = `${V1} // comfydeploy-migrate-ignore legacy-base-url\r\n${V1}\r\n`;
    const findings = [findingAt(1), findingAt(2)];
    applySuppressions(findings, parseSuppressions(text), TODAY);
    expect(findings.map((f) => Boolean(f.suppression))).toEqual([true, false]);
  });

  it("that cover no finding are returned, and become unused-ignore findings at the directive", () => {
    const text = `const ok = 1;\n// comfydeploy-migrate-ignore legacy-get-run -- wrong rule\n${V1}\n`;
    const findings = [findingAt(3)];
    const unused = applySuppressions(findings, parseSuppressions(text), TODAY);
    expect(findings[0]!.suppression).toBeUndefined();
    expect(unused).toHaveLength(1);
    const finding = unusedIgnoreFinding("a.ts", unused[0]!);
    expect(finding).toMatchObject({ ruleId: "unused-ignore", severity: "warning", line: 2, column: 4, fix: "manual" });
    expect(text.slice(finding.span!.start, finding.span!.end)).toBe(
      "comfydeploy-migrate-ignore legacy-get-run -- wrong rule",
    );
    expect(finding.message).toContain("line 3");
  });

  it("an expired one that matched is used, not unused", () => {
    const text = `${V1} // comfydeploy-migrate-ignore legacy-base-url until 2024-01-31\n`;
    const findings = [findingAt(1)];
    expect(applySuppressions(findings, parseSuppressions(text), TODAY)).toEqual([]);
    expect(findings[0]!.suppression?.expired).toBe(true);
  });

  it("in prose, only an HTML comment is a directive (the rest document one)", () => {
    const [inCode, inComment] = parseSuppressions(
      "    // comfydeploy-migrate-ignore legacy-base-url\n<!-- comfydeploy-migrate-ignore * -->\n",
    );
    expect(isDirective(inCode!, true)).toBe(false);
    expect(isDirective(inComment!, true)).toBe(true);
    expect(isDirective(inCode!, false)).toBe(true);
  });
});
