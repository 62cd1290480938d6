/**
 * A run id moved from V1's `?run_id=` query into the V2 path is escaped as
 * one path segment, with each language's own call (and the import it
 * needs); shell leaves it as it is and says so. Every output is fixed again
 * without change, and Python and Java outputs go through their own parsers
 * where they are on this machine.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixSingleFile } from "../../helpers/fix-fixtures.js";
import { tempDir } from "../../helpers/temp-repo.js";

const V1 = "https://www.comfydeploy.com/api";

async function fixTwice(file: string, input: string): Promise<{ text: string; messages: string[] }> {
  const first = await fixSingleFile(file, input, ["v2-endpoints"]);
  expect(first.skipped).toEqual([]);
  const again = await fixSingleFile(file, first.text, ["v2-endpoints"]);
  expect(again.text, "a second run changes nothing").toBe(first.text);
  return {
    text: first.text,
    messages: first.events.filter((e) => e.ruleId === "legacy-get-run").map((e) => e.message),
  };
}

/** One read per language, the id interpolated into the URL or concatenated after it, and the escaped path fix writes. */
const CASES: Array<{ file: string; input: string; escaped: string[]; adds?: string }> = [
  {
    file: "client.php",
    input: `<?php\nconst BASE = '${V1}';\nfunction a($id) { return file_get_contents(BASE . '/run?run_id=' . $id); }\nfunction b($id) { return file_get_contents("${V1}/run?run_id={$id}"); }\n`,
    escaped: [`BASE . '/run/' . rawurlencode($id)`, `"https://api.comfydeploy.com/api/run/" . rawurlencode($id))`],
  },
  {
    file: "client.go",
    input: `package c\n\nimport (\n\t"net/http"\n)\n\nconst base = "${V1}"\n\nfunc Get(id string) (*http.Response, error) {\n\treturn http.Get(base + "/run?run_id=" + id)\n}\n`,
    escaped: [`base + "/run/" + url.PathEscape(id)`],
    adds: `\t"net/http"\n\t"net/url"\n)`,
  },
  {
    file: "runs.rb",
    input: `require "net/http"\n\nBASE = "${V1}"\ndef get(id) = Net::HTTP.get(URI("#{BASE}/run?run_id=#{id}"))\n`,
    escaped: [`"#{BASE}/run/#{ERB::Util.url_encode(id)}"`],
    adds: `require "net/http"\nrequire "erb"\n`,
  },
  {
    file: "Runs.cs",
    input: `public class Runs {\n  const string Base = "${V1}";\n  public string A(string id) => Base + "/run?run_id=" + id;\n  public string B(string id) => $"{Base}/run?run_id={id}";\n}\n`,
    escaped: [`Base + "/run/" + System.Uri.EscapeDataString(id)`, `$"{Base}/run/{System.Uri.EscapeDataString(id)}"`],
  },
  {
    file: "Runs.java",
    input: `class Runs {\n  static final String BASE = "${V1}";\n  static java.net.URI get(String id) { return java.net.URI.create(BASE + "/run?run_id=" + id); }\n}\n`,
    escaped: [
      `BASE + "/run/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20")`,
    ],
  },
  {
    file: "Runs.kt",
    input: `const val BASE = "${V1}"\nfun get(id: String) = Request.Builder().url("$BASE/run?run_id=$id").get().build()\n`,
    escaped: [`"$BASE/run/\${java.net.URLEncoder.encode(id, Charsets.UTF_8).replace("+", "%20")}"`],
  },
  {
    file: "runs.dart",
    input: `const base = '${V1}';\nFuture get(String id) => http.get(Uri.parse('$base/run?run_id=$id'));\n`,
    escaped: [`'$base/run/\${Uri.encodeComponent(id)}'`],
  },
  {
    file: "runs.py",
    input: `import requests\n\nBASE = "${V1}"\n\n\ndef a(run_id):\n    return requests.get(f"{BASE}/run?run_id={run_id}")\n\n\ndef b(run_id):\n    return requests.get(BASE + "/run?run_id=" + run_id)\n`,
    escaped: [
      `f"{BASE}/run/{urllib.parse.quote(run_id, safe='')}"`,
      `BASE + "/run/" + urllib.parse.quote(run_id, safe="")`,
    ],
    adds: "import requests\nimport urllib.parse\n",
  },
];

describe("the run id moved into the path is escaped as a path segment", () => {
  it.each(CASES)("$file", async ({ file, input, escaped, adds }) => {
    const { text, messages } = await fixTwice(file, input);
    for (const expected of escaped) expect(text).toContain(expected);
    if (adds) expect(text).toContain(adds);
    expect(text).not.toContain("run_id=");
    expect(messages.every((m) => !m.includes("unescaped"))).toBe(true);
  });

  it("shell leaves the id as it is and says so in the rewrite", async () => {
    const { text, messages } = await fixTwice("status.sh", `#!/usr/bin/env bash\ncurl -sS "${V1}/run?run_id=$1"\n`);
    expect(text).toContain(`"https://api.comfydeploy.com/api/run/$1"`);
    expect(messages).toEqual([expect.stringMatching(/unescaped \(shell has no call for it\)/)]);
  });

  it("Go code that names a variable url keeps the id unescaped rather than break, and says so", async () => {
    const input = `package c\n\nimport "net/http"\n\nfunc Get(id string) (*http.Response, error) {\n\turl := "${V1}/run?run_id=" + id\n\treturn http.Get(url)\n}\n`;
    const { text, messages } = await fixTwice("client.go", input);
    expect(text).toContain(`"https://api.comfydeploy.com/api/run/" + id`);
    expect(text).not.toContain("net/url");
    expect(messages).toEqual([expect.stringMatching(/unescaped/)]);
  });

  it.skipIf(spawnSync("python3", ["--version"]).status !== 0)(
    "the Python output parses (python3's own parser)",
    async () => {
      const { text } = await fixTwice("runs.py", CASES.find((c) => c.file === "runs.py")!.input);
      const parsed = spawnSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], {
        input: text,
        encoding: "utf8",
      });
      expect(parsed.stderr).toBe("");
    },
  );

  it.skipIf(spawnSync("javac", ["-version"]).status !== 0)("the Java output compiles (javac)", async () => {
    const { text } = await fixTwice("Runs.java", CASES.find((c) => c.file === "Runs.java")!.input);
    const dir = tempDir("cdm-escape-java-");
    mkdirSync(join(dir, "out"));
    writeFileSync(join(dir, "Runs.java"), text);
    const compiled = spawnSync("javac", ["-d", join(dir, "out"), join(dir, "Runs.java")], { encoding: "utf8" });
    expect(compiled.stderr).toBe("");
  });
});
