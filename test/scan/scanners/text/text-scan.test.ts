/**
 * The generic text scan of non-JS files: comments and severities, HTTP
 * method inference, bare hosts in settings, detached /run paths and run_id
 * queries, V1-shaped endpoints on other hosts, configured hosts, and
 * robustness on hostile input.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../../../src/core/finding.js";
import { fileKind, textSyntaxOf } from "../../../../src/platform/file-types.js";
import { scanLegacyUrls } from "../../../../src/scan/scanners/text/legacy-urls.js";
import { CommentMap } from "../../../../src/lang/text/comments.js";
import { methodFromName, methodInStatement } from "../../../../src/scan/scanners/text/http-methods.js";
import { valueShapeAt } from "../../../../src/scan/scanners/text/whole-values.js";
import { DEFAULT_HOSTS, type HostSet } from "../../../../src/core/urls.js";

const V1 = "https://www.comfydeploy.com";

function scanText(file: string, text: string, hosts: HostSet = DEFAULT_HOSTS): Finding[] {
  return scanLegacyUrls(file, text, fileKind(file), hosts);
}

/** `line:ruleId:severity` for each finding, sorted. */
function keys(findings: Finding[]): string[] {
  return findings.map((f) => `${f.line}:${f.ruleId}:${f.severity}`).sort();
}

function lines(...rows: string[]): string {
  return rows.join("\n");
}

describe("comments", () => {
  const commentAt = (syntax: Parameters<typeof textSyntaxOf>[0], text: string, needle: string): boolean =>
    new CommentMap(text, textSyntaxOf(syntax)).isComment(text.indexOf(needle));

  it("does not take the // of a URL in a string for a comment", () => {
    const text = `const base = "${V1}/api" // old host`;
    expect(commentAt("a.go", text, "https")).toBe(false);
    expect(commentAt("a.go", text, "old host")).toBe(true);
  });

  it("reads block comments across lines and Go raw strings", () => {
    const text = lines("/* first", `   ${V1}/api */`, "s := `/* not a comment`", "x := 1 // tail");
    expect(commentAt("a.cs", text, "https")).toBe(true);
    expect(commentAt("a.go", text, "not a comment")).toBe(false);
    expect(commentAt("a.go", text, "tail")).toBe(true);
  });

  it("needs a word start for # in shell and YAML, so URL fragments and $# stay code", () => {
    const text = lines(`curl "${V1}/api/run#frag" # queue`, "echo $# args");
    expect(commentAt("a.sh", text, "frag")).toBe(false);
    expect(commentAt("a.sh", text, "queue")).toBe(true);
    expect(commentAt("a.sh", text, "args")).toBe(false);
    expect(commentAt("a.yaml", `url: ${V1}/api#x # note`, "note")).toBe(true);
  });

  it("knows INI ; comments, properties ! comments and markup comments", () => {
    expect(commentAt("a.ini", "; old\nhost = x", "old")).toBe(true);
    expect(commentAt("a.ini", "host = x ; note", "note")).toBe(true);
    expect(commentAt("a.properties", "! old\nhost=x", "old")).toBe(true);
    expect(commentAt("a.xml", "<!-- old -->\n<a/>", "old")).toBe(true);
  });
});

describe("severity", () => {
  it("makes code and config errors, comments and docs warnings", () => {
    const go = lines(`const base = "${V1}/api"`, `// was ${V1}/api`);
    expect(keys(scanText("client.go", go))).toEqual(["1:legacy-base-url:error", "2:legacy-base-url:warning"]);
    expect(keys(scanText("docs/guide.md", `Call ${V1}/api from the server.`))).toEqual(["1:legacy-base-url:warning"]);
    expect(keys(scanText("settings.yaml", `api: ${V1}/api`))).toEqual(["1:legacy-base-url:error"]);
  });

  it("keeps other-host findings warnings even in code", () => {
    const found = scanText("client.go", `resp, _ := http.Get("https://comfy.example.org/api/run?run_id=" + id)`);
    expect(keys(found)).toEqual(["1:other-host-v1-shape:warning"]);
    expect(found[0]!.fix).toBe("manual");
  });
});

describe("HTTP method inference", () => {
  const method = (statement: string, url = "URL"): string | undefined =>
    methodInStatement(statement, statement.indexOf(url));

  it("follows curl's own rules", () => {
    expect(method("curl -X POST URL")).toBe("POST");
    expect(method("curl --request=GET URL -d x")).toBe("GET");
    expect(method("curl URL -d '{}'")).toBe("POST");
    expect(method("curl -G URL --data-urlencode run_id=1")).toBe("GET");
    expect(method("curl -sS URL")).toBe("GET");
  });

  it("recognises each language's clients", () => {
    expect(method(`req, err := http.NewRequest("POST", URL, body)`)).toBe("POST");
    expect(method("resp, err := http.Get(URL)")).toBe("GET");
    expect(method("await http.PostAsync(URL, content)")).toBe("POST");
    expect(method("await http.GetStringAsync(URL)")).toBe("GET");
    expect(method("new HttpRequestMessage(HttpMethod.Post, URL)")).toBe("POST");
    expect(method("HttpRequest.newBuilder().uri(URI.create(URL)).POST(body).build()")).toBe("POST");
    expect(method("Request.Builder().url(URL).post(body).build()")).toBe("POST");
    expect(method("curl_setopt($ch, CURLOPT_POST, true); // URL")).toBe("POST");
    expect(method("$client->post(URL, ['json' => $body])")).toBe("POST");
    expect(method("client.post(URL).json(&body).send()")).toBe("POST");
    expect(method(`{ "method": "POST", "url": "URL" }`)).toBe("POST");
  });

  it("counts a generic .get( only when it receives the URL", () => {
    expect(method("client.get(URL).send()")).toBe("GET");
    expect(method(`let base = config.get("base") + URL;`)).toBeUndefined();
  });

  it("prefers the signal nearest the URL", () => {
    expect(method(`http.Post(other, ...); http.Get(URL)`)).toBe("GET");
  });

  it("reads the purpose from a setting's name", () => {
    expect(methodFromName("status_path")).toBe("GET");
    expect(methodFromName("createRunUrl")).toBe("POST");
    expect(methodFromName("comfy.queue.url")).toBe("POST");
    expect(methodFromName("target")).toBeUndefined();
    expect(methodFromName("run_path")).toBeUndefined();
  });
});

describe("bare host values", () => {
  const shape = (line: string): string | undefined => {
    const start = line.indexOf("https://www") >= 0 ? line.indexOf("https://www") : line.indexOf("//www");
    return valueShapeAt(
      line,
      start,
      start + line.slice(start).search(/www\.comfydeploy\.com/) + "www.comfydeploy.com".length,
    );
  };

  it("accepts settings in every spelling", () => {
    expect(shape(`COMFY_API_BASE=${V1}`)).toBe("setting");
    expect(shape(`export COMFY_API_BASE="${V1}/"`)).toBe("setting");
    expect(shape(`base: '${V1}'   # the SDK adds /api`)).toBe("setting");
    expect(shape(`base_url = "${V1}" ; note`)).toBe("setting");
    expect(shape(`comfy.host=https\\://www.comfydeploy.com`)).toBe("setting");
    expect(shape(`comfy: { base: ${V1}, retries: 3 }`)).toBe("setting");
    expect(shape(`  - ${V1}`)).toBe("item");
    expect(shape(`Client("${V1}")`)).toBe("literal");
  });

  it("rejects prose and links", () => {
    expect(shape(`about: See ${V1} for details`)).toBeUndefined();
    expect(shape(`The site ${V1} has examples.`)).toBeUndefined();
    expect(shape(`<a href="${V1}">Home</a>`)).toBeUndefined();
  });

  it("reports a bare host in config and settings in docs code blocks, never in prose", () => {
    expect(keys(scanText(".env", `COMFY_DEPLOY_API_BASE=${V1} # sdk`))).toEqual(["1:legacy-base-url:error"]);
    expect(keys(scanText("app.toml", `host = "${V1}"`))).toEqual(["1:legacy-base-url:error"]);
    const md = lines(`Sign up at ${V1}.`, "```env", `COMFY_DEPLOY_API_BASE=${V1}`, "```");
    expect(keys(scanText("README.md", md))).toEqual(["3:legacy-base-url:warning"]);
    expect(scanText("footer.vue", `<a href="${V1}">ComfyDeploy</a>`)).toEqual([]);
  });

  it("redacts secrets in .env excerpts", () => {
    const found = scanText(
      ".env",
      lines("COMFY_DEPLOY_API_KEY=cd_live_abcdefgh12345678", `COMFY_API=${V1}/api # key cd_live_abcdefgh12345678`),
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.excerpt).not.toContain("abcdefgh");
  });
});

describe("V1 /run paths and run_id queries built apart from the base", () => {
  it("reports /run next to a legacy base with the method of its statement", () => {
    const text = lines(`BASE = "${V1}/api"`, `curl -X POST "$BASE/run" -d @body.json`, `curl "$BASE/run?run_id=$ID"`);
    expect(keys(scanText("run.sh", text))).toEqual([
      "1:legacy-base-url:error",
      "2:legacy-create-run:error",
      "3:legacy-get-run:error",
    ]);
  });

  it("ignores /run and run_id in a file without a legacy base (the app's own routes)", () => {
    const text = lines(`mux.HandleFunc("/run", handler)`, `q.Set("run_id", id)`, `http.Post(base+"/run", "", nil)`);
    expect(scanText("server.go", text)).toEqual([]);
  });

  it("reports run_id query construction at its line, not the GET that sends it", () => {
    const text = lines(
      `const base = "${V1}/api"`,
      `u, _ := url.Parse(base + "/run")`,
      `q := u.Query()`,
      `q.Set("run_id", id)`,
      `u.RawQuery = q.Encode()`,
      `resp, err := http.Get(u.String())`,
    );
    expect(keys(scanText("status.go", text))).toEqual(["1:legacy-base-url:error", "4:legacy-get-run:error"]);
  });

  it("does not take reading run_id from a response for a query", () => {
    const text = lines(
      `BASE="${V1}/api"`,
      `run_id=$(curl -sS -X POST "$BASE/run" -d @b.json | jq -r .run_id)`,
      `echo "run_id=$run_id" >> "$GITHUB_OUTPUT"`,
      `id = json["run_id"]`,
    );
    expect(keys(scanText("ci.sh", text))).toEqual(["1:legacy-base-url:error", "2:legacy-create-run:error"]);
  });

  it("follows a URL variable to the calls that use it", () => {
    const posted = lines(
      `private static final String RUN_URL = "${V1}/api/run";`,
      "",
      "void q() { http.send(HttpRequest.newBuilder(URI.create(RUN_URL)).POST(body).build()); }",
    );
    expect(keys(scanText("A.java", posted))).toEqual(["1:legacy-base-url:error", "1:legacy-create-run:error"]);
    const mixed = lines(
      `RUN_URL="${V1}/api/run"`,
      `curl -X POST "$RUN_URL" -d @b.json`,
      `curl -X GET "$RUN_URL?run_id=$ID"`,
    );
    expect(keys(scanText("mixed.sh", mixed))).toEqual([
      "1:legacy-base-url:error",
      "2:legacy-create-run:error",
      "3:legacy-get-run:error",
    ]);
  });

  it("marks a /run whose method cannot be known for review", () => {
    const found = scanText(".env", `COMFY_RUN_URL=${V1}/api/run`);
    expect(keys(found)).toEqual(["1:legacy-base-url:error", "1:legacy-create-run:error"]);
    expect(found.find((f) => f.ruleId === "legacy-create-run")!.fix).toBe("review");
  });

  it("skips the partner platform's /run even next to a legacy base", () => {
    const text = lines(
      `COMFY="${V1}/api"`,
      `curl -X POST "$RUNPOD_URL/run" -d @w.json`,
      `curl -X POST "https://api.runpod.ai/v2/$ID/run" -d @w.json`,
    );
    expect(keys(scanText("w.sh", text))).toEqual(["1:legacy-base-url:error"]);
  });
});

describe("other hosts", () => {
  it("reports /api/run with run_id, and POST /api/run with a deployment_id body", () => {
    const text = lines(
      `curl "https://comfy.acme.io/api/run?run_id=$ID"`,
      `curl -X POST https://comfy.acme.io/api/run \\`,
      `  -d '{"deployment_id": "x"}'`,
    );
    expect(keys(scanText("a.sh", text))).toEqual(["1:other-host-v1-shape:warning", "2:other-host-v1-shape:warning"]);
  });

  it("does not report a generic /api/run, the app's own host, placeholders or look-alike paths", () => {
    const text = lines(
      `curl -X POST https://jobs.example.com/api/run -d '{"job": 1}'`,
      `curl https://jobs.example.com/api/run`,
      `curl "http://localhost:3000/api/run?run_id=1"`,
      `curl "https://\${HOST}/api/run?run_id=1"`,
      `curl "https://jobs.example.com/api/runs?run_id=1"`,
      `curl "https://api.comfydeploy.com/api/run/1"`,
    );
    expect(scanText("b.sh", text)).toEqual([]);
  });

  it("reports the V1 paths on the V2 host, and neither the V2 paths nor the host alone", () => {
    const text = lines(
      `curl -X POST https://api.comfydeploy.com/api/run -d '{"deployment_id": "d"}'`,
      `curl "https://api.comfydeploy.com/api/run?run_id=1"`,
      `curl -X POST https://api.comfydeploy.com/api/run/deployment/queue -d '{"deployment_id": "d"}'`,
      `API=https://api.comfydeploy.com/api`,
    );
    expect(keys(scanText("v2.sh", text))).toEqual(["1:legacy-create-run:error", "2:legacy-get-run:error"]);
  });

  it("treats configured legacy hosts as V1 and never reports ignored hosts", () => {
    const hosts: HostSet = {
      ...DEFAULT_HOSTS,
      legacy: [...DEFAULT_HOSTS.legacy, "comfy.acme.io"],
      ignored: ["render.partner.dev"],
    };
    const text = lines(
      `curl "https://comfy.acme.io/api/run?run_id=$ID"`,
      `curl "https://render.partner.dev/api/run?run_id=$ID"`,
    );
    expect(keys(scanText("c.sh", text, hosts))).toEqual(["1:legacy-base-url:error", "1:legacy-get-run:error"]);
  });
});

describe("robustness", () => {
  const syntaxes = [
    "a.go",
    "a.cs",
    "a.php",
    "a.sh",
    "a.yaml",
    "a.toml",
    "a.ini",
    "a.properties",
    ".env",
    "a.json",
    "a.md",
    "a.sql",
    "a.bat",
    "a.weird",
  ];

  it("never throws on hostile input", () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = [
      V1,
      "/api",
      "/run",
      "?run_id=",
      '"',
      "'",
      "`",
      "/*",
      "*/",
      "//",
      "#",
      "<!--",
      "\\",
      "\n",
      "(",
      "[",
      "{",
      "}",
      "$x",
      "%s",
      "\ufffd",
      "POST",
      "curl -d",
      "\r\n",
      "run_id",
      "deployment_id",
      "https://x.io/api/run",
    ];
    for (const file of syntaxes) {
      for (let round = 0; round < 25; round++) {
        let text = "";
        for (let i = 0; i < 200; i++) text += pieces[Math.floor(random() * pieces.length)];
        expect(() => scanText(file, text)).not.toThrow();
      }
      expect(() => scanText(file, "")).not.toThrow();
    }
  });

  it("scans a minified line with many mentions quickly", () => {
    const line = `x="${V1}/api/run?run_id=1";y=(z[`.repeat(5000) + "a".repeat(500_000);
    const started = Date.now();
    const found = scanText("bundle.cfg", line);
    expect(found.filter((f) => f.ruleId === "legacy-get-run")).toHaveLength(1);
    expect(found.filter((f) => f.ruleId === "legacy-base-url")).toHaveLength(5000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("stays linear on one long word, long brace runs and long key names", () => {
    const started = Date.now();
    const base = `BASE = "${V1}/api"\nx = BASE + "/run"\n`;
    for (const run of ["a", "{", "query", "<a>", "$a"]) {
      expect(
        scanText("blob.go", `${base}${run.repeat(Math.ceil(200_000 / run.length))} ${V1}/api/run?run_id=1\n`).length,
      ).toBeGreaterThan(0);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("file syntax", () => {
  it("maps names to syntax families", () => {
    expect(textSyntaxOf("cmd/main.go")).toBe("c-like");
    expect(textSyntaxOf("Dockerfile.prod")).toBe("hash");
    expect(textSyntaxOf("api.Dockerfile")).toBe("hash");
    expect(textSyntaxOf(".github/workflows/ci.yml")).toBe("yaml");
    expect(textSyntaxOf(".env.local")).toBe("env");
    expect(textSyntaxOf("x.postman_collection.json")).toBe("json");
    expect(textSyntaxOf("README.md")).toBe("markup");
    expect(textSyntaxOf("notes")).toBe("unknown");
  });
});
