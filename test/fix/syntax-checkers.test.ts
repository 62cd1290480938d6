/** fix --verify with each language's own syntax checker: errors in changed files found, a missing checker said so. */
import { describe, expect, it } from "vitest";
import { checkSyntax, type CheckerRun } from "../../src/fix/syntax-checkers.js";
import { verifyChanges } from "../../src/fix/verify.js";
import { tempRepo } from "../helpers/temp-repo.js";

const notInstalled = async (): Promise<CheckerRun> => ({
  code: null,
  stdout: "",
  stderr: "",
  timedOut: false,
  spawnError: true,
});

describe("verifyChanges on shell (bash -n, on every machine this runs on)", () => {
  it("passes a script that parses and reports the line of one that does not", async () => {
    const dir = tempRepo({
      "ok.sh": 'curl -sS "$BASE/run/$1"\n',
      "broken.sh": 'echo start\nif [ -n "$1" ]; then\n  curl "$BASE/run"\n',
    });
    const good = await verifyChanges(dir, ["ok.sh"]);
    expect(good.checks).toEqual([expect.objectContaining({ command: "bash -n ok.sh", status: "passed" })]);
    const bad = await verifyChanges(dir, ["broken.sh"]);
    expect(bad.checks).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(bad.findings.map((f) => [f.ruleId, f.file, f.line])).toEqual([["verify-failed", "broken.sh", 4]]);
  });
});

describe("checkSyntax", () => {
  it("says which checker is not installed instead of passing the files", async () => {
    const results = await checkSyntax(["src/Client.php", "runs.go", "lib/runs.rb", "README.md"], notInstalled);
    expect(results.map((r) => [r.command, r.status, r.reason])).toEqual([
      ["php -n -l src/Client.php", "not-run", "php is not installed: the PHP files fix changed were not checked"],
      ["gofmt -l -e runs.go", "not-run", "gofmt is not installed: the Go files fix changed were not checked"],
      ["ruby -c lib/runs.rb", "not-run", "ruby is not installed: the Ruby files fix changed were not checked"],
    ]);
  });

  it("reads the line from each checker's own error format", async () => {
    const outputs: Record<string, Partial<CheckerRun>> = {
      php: {
        code: 255,
        stdout: 'PHP Parse error:  syntax error, unexpected token "}" in a.php on line 7\nErrors parsing a.php\n',
      },
      gofmt: { code: 2, stderr: "b.go:12:3: expected ';', found 'EOF'\n" },
      ruby: { code: 1, stderr: "c.rb:5: syntax error, unexpected end-of-input\n" },
    };
    const results = await checkSyntax(["a.php", "b.go", "c.rb"], async (program) => ({
      code: 0,
      stdout: "",
      stderr: "",
      timedOut: false,
      spawnError: false,
      ...outputs[program],
    }));
    expect(results.flatMap((r) => r.errors.map((e) => [e.file, e.line]))).toEqual([
      ["a.php", 7],
      ["b.go", 12],
      ["c.rb", 5],
    ]);
  });
});
