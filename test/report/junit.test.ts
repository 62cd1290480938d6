/** `scan --format junit`: well-formed XML in the JUnit shape CI test tabs read. */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

interface Case {
  "@_classname": string;
  "@_name": string;
  "@_file"?: string;
  "@_line"?: string;
  failure?: { "@_type": string; "@_message": string; "#text": string };
}
interface Suite {
  "@_name": string;
  "@_tests": string;
  "@_failures": string;
  testcase: Case[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  isArray: (name) => name === "testsuite" || name === "testcase",
});

function junitOf(files: Record<string, string>): {
  testsuites: { "@_tests": string; "@_failures": string; testsuite: Suite[] };
} {
  const run = runCli(["scan", tempRepo(files), "--format", "junit", "--fail-on", "none"]);
  expect(run.status, run.stderr).toBe(0);
  expect(XMLValidator.validate(run.stdout)).toBe(true);
  return parser.parse(run.stdout);
}

describe("JUnit XML", () => {
  it("has one suite per file and one failing case per finding, with counts that add up", () => {
    const xml = junitOf({
      "a.ts": 'export const BASE = "https://www.comfydeploy.com/api";\nexport const RUN = `${BASE}/run`;\n',
      "b.py": 'API = "https://www.comfydeploy.com/api" # <tag> & "quotes" \x1b[2J\n',
    });
    const suites = xml.testsuites.testsuite;
    expect(suites.map((s) => s["@_name"]).sort()).toEqual(["a.ts", "b.py"]);
    const cases = suites.flatMap((s) => s.testcase);
    expect(Number(xml.testsuites["@_tests"])).toBe(cases.length);
    expect(Number(xml.testsuites["@_failures"])).toBe(cases.length);
    for (const suite of suites) {
      expect(Number(suite["@_tests"])).toBe(suite.testcase.length);
      for (const c of suite.testcase) {
        expect(c["@_classname"]).toBe(suite["@_name"]);
        expect(c["@_file"]).toBe(suite["@_name"]);
        expect(Number(c["@_line"])).toBeGreaterThan(0);
        expect(c.failure!["@_type"]).toMatch(/^(error|warning|info)$/);
        expect(c["@_name"]).toMatch(/^[a-z0-9-]+ at \d+:\d+$/);
      }
    }
    const python = suites.find((s) => s["@_name"] === "b.py")!.testcase[0]!.failure!["#text"];
    // Markup characters arrive as text; a control character XML cannot hold becomes U+FFFD.
    expect(python).toContain('<tag> & "quotes"');
    expect(python).toContain("\ufffd[2J");
  });

  it("is one passing case when nothing is found, so the test tab shows the run", () => {
    const xml = junitOf({ "ok.ts": "export const x = 1;\n" });
    expect(xml.testsuites["@_failures"]).toBe("0");
    const cases = xml.testsuites.testsuite.flatMap((s) => s.testcase);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.failure).toBeUndefined();
  });
});
