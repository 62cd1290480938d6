/** GitHub workflow commands: severities, properties and escaping as @actions/core writes them. */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/core/finding.js";
import { escapeData, escapeProperty, workflowCommand } from "../../src/report/github.js";

const finding: Finding = {
  ruleId: "legacy-get-run",
  severity: "error",
  file: "src/app.ts",
  line: 3,
  column: 5,
  endLine: 3,
  endColumn: 20,
  message: "use GET {base}/run/{run_id}",
  fix: "auto",
};

describe("escaping", () => {
  it("encodes %, CR and LF in messages, and also : and , in properties", () => {
    expect(escapeData("100% done\r\nnext: a,b")).toBe("100%25 done%0D%0Anext: a,b");
    expect(escapeProperty("100% done\r\nnext: a,b")).toBe("100%25 done%0D%0Anext%3A a%2Cb");
  });

  it("encodes % first, so an escape already in the text stays literal", () => {
    expect(escapeData("%0A")).toBe("%250A");
  });
});

describe("workflowCommand", () => {
  it("maps severities to error, warning and notice", () => {
    expect(workflowCommand(finding)).toMatch(/^::error /);
    expect(workflowCommand({ ...finding, severity: "warning" })).toMatch(/^::warning /);
    expect(workflowCommand({ ...finding, severity: "info" })).toMatch(/^::notice /);
  });

  it("names file, line, column, end and the rule as title", () => {
    expect(workflowCommand(finding)).toBe(
      "::error file=src/app.ts,line=3,col=5,endLine=3,endColumn=20,title=legacy-get-run%3A V1 get-run endpoint::use GET {base}/run/{run_id} [fix: auto]",
    );
  });

  it("leaves endColumn out when the finding spans lines (GitHub ignores it there)", () => {
    expect(workflowCommand({ ...finding, endLine: 5 })).toContain(",endLine=5,title=");
  });

  it("keeps a hostile path and message inside their command", () => {
    const line = workflowCommand({
      ...finding,
      file: "a,line=99:b.ts",
      message: "x\n::error file=evil.ts::injected %0A",
    });
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain("file=a%2Cline=99%3Ab.ts,line=3,");
    expect(line).toContain("::x%0A::error file=evil.ts::injected %250A [fix: auto]");
  });
});
