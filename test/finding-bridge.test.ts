/** The bridge from a finding to code: findings moved onto the text a part receives, and nodes found by span. */
import jscodeshift from "jscodeshift";
import { describe, expect, it } from "vitest";
import { type Finding, makeFinding } from "../src/core/finding.js";
import { LineIndex } from "../src/core/location.js";
import { crlfToLf, relocateFindings, spanMap } from "../src/fix/relocate.js";
import { SpanIndex } from "../transforms/lib/span-index.js";

function findingAt(text: string, needle: string, from = 0): Finding {
  const start = text.indexOf(needle, from);
  if (start < 0) throw new Error(`${needle} not in text`);
  const end = start + needle.length;
  return makeFinding("a.ts", {
    ruleId: "legacy-base-url",
    message: "m",
    location: new LineIndex(text).location(start, end),
    span: { start, end },
  });
}

const textOf = (text: string, f: Finding): string => text.slice(f.span!.start, f.span!.end);

describe("relocating findings", () => {
  it("follows lines an inserted marker moved, with line and column recomputed", () => {
    const scanned = 'const a = 1;\nfetch("https://x/run");\n';
    const current = '// TODO(comfydeploy-migrate): note\nconst a = 1;\nfetch("https://x/run");\n';
    const [moved] = relocateFindings([findingAt(scanned, '"https://x/run"')], scanned, current);
    expect(textOf(current, moved!)).toBe('"https://x/run"');
    expect(moved).toMatchObject({ line: 3, column: 7, endLine: 3, endColumn: 22 });
  });

  it("keeps a span whose inside an earlier part rewrote, shrunk to the characters that survived", () => {
    const scanned = 'fetch("https://www.comfydeploy.com/api/run", { method: "POST" });\n';
    const current = 'fetch("https://api.comfydeploy.com/api/run/deployment/queue", { method: "POST" });\n';
    const [moved] = relocateFindings([findingAt(scanned, "fetch(")], scanned, current);
    expect(textOf(current, moved!)).toBe("fetch(");
    const [url] = relocateFindings([findingAt(scanned, '"https://www.comfydeploy.com/api/run"')], scanned, current);
    expect(textOf(current, url!)).toBe('"https://api.comfydeploy.com/api/run/deployment/queue"');
  });

  it("drops a finding none of whose characters survived", () => {
    expect(relocateFindings([findingAt("abc XYZ def", "XYZ")], "abc XYZ def", "abc def")).toEqual([]);
  });

  it("converts spans of a CRLF file onto its LF text", () => {
    const raw = "line one\r\nconst url = BASE;\r\n";
    const lf = raw.replace(/\r\n/g, "\n");
    const [moved] = relocateFindings([findingAt(raw, "BASE")], lf, lf, crlfToLf(raw));
    expect(textOf(lf, moved!)).toBe("BASE");
    expect(moved).toMatchObject({ line: 2, column: 13 });
  });

  it("moves a JS SDK finding's bindings with it, and drops a binding an earlier part removed", () => {
    const raw =
      'import { ComfyDeployClient } from "comfydeploy";\r\nimport * as cd from "comfydeploy";\r\nnew cd.ComfyDeployClient({});\r\n';
    const lf = raw.replace(/\r\n/g, "\n");
    const current = `// note\n${lf.replace('import * as cd from "comfydeploy";\n', "")}`;
    const binding = (needle: string, local: string) => {
      const start = raw.indexOf(needle);
      return {
        module: "comfydeploy",
        imported: local,
        local,
        typeOnly: false,
        span: { start, end: start + needle.length },
      };
    };
    const finding: Finding = {
      ...findingAt(raw, "new cd.ComfyDeployClient({})"),
      ruleId: "v1-sdk-client",
      facts: { kind: "js-sdk", imports: [binding("ComfyDeployClient", "ComfyDeployClient"), binding("* as cd", "*")] },
    };
    const [moved] = relocateFindings([finding], lf, current, crlfToLf(raw));
    const facts = moved!.facts?.kind === "js-sdk" ? moved!.facts : undefined;
    expect(facts?.imports.map((b) => current.slice(b.span.start, b.span.end))).toEqual(["ComfyDeployClient"]);
  });

  it("moves the URL span of an endpoint finding reported on its run_id line, with it", () => {
    const raw = 'client.get("/run", {\r\n  params: { run_id: id },\r\n});\r\n';
    const lf = raw.replace(/\r\n/g, "\n");
    const current = `// note\n${lf}`;
    const url = raw.indexOf('"/run"');
    const finding: Finding = {
      ...findingAt(raw, "run_id: id"),
      ruleId: "legacy-get-run",
      facts: { kind: "endpoint", endpoint: "get-run", methodSeen: true, url: { start: url, end: url + 6 } },
    };
    const [moved] = relocateFindings([finding], lf, current, crlfToLf(raw));
    const facts = moved!.facts?.kind === "endpoint" ? moved!.facts : undefined;
    expect(facts?.url && current.slice(facts.url.start, facts.url.end)).toBe('"/run"');
    expect(moved).toMatchObject({ line: 3 });
  });

  it("maps a point between characters after the last kept character", () => {
    expect(spanMap("ab|cd", "xab|cd")({ start: 3, end: 3 })).toEqual({ start: 4, end: 4 });
  });
});

describe("finding nodes by span", () => {
  const j = jscodeshift.withParser("ts");

  it("finds the node on tab-indented lines, where Babel's offsets differ from the source's", () => {
    const source =
      "function f(id: string) {\n\tif (id) {\n\t\treturn fetch(`https://www.comfydeploy.com/api/run?run_id=${id}`);\n\t}\n}\n";
    const root = j(source);
    const index = new SpanIndex(j, root, source);
    const finding = findingAt(source, "`https://www.comfydeploy.com/api/run?run_id=${id}`");
    const url = index.expressionAt(finding);
    expect(url?.node.type).toBe("TemplateLiteral");
    expect(index.stringPartAt(finding)?.node.type).toBe("TemplateElement");
    expect(index.at(findingAt(source, "fetch(")).map((p) => p.node.type)).toContain("CallExpression");
  });

  it("finds the same nodes with spaces", () => {
    const source =
      "function f(id: string) {\n    return fetch(`https://www.comfydeploy.com/api/run?run_id=${id}`);\n}\n";
    const index = new SpanIndex(j, j(source), source);
    expect(index.expressionAt(findingAt(source, "`https://www.comfydeploy.com/api/run?run_id=${id}`"))?.node.type).toBe(
      "TemplateLiteral",
    );
  });
});
