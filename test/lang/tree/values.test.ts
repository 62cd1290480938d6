/**
 * The tree value resolver, language by language: what the URL expression
 * around a `/run` literal evaluates to through constants, members, methods,
 * settings defaults, interpolation, format calls and concatenation, within a
 * file and across the files given as its package.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { loadedGrammars, loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

const V1 = "https://www.comfydeploy.com/api";

/** The values and positions of the `/run` expressions of `file`, with `files` as its package. */
function runValues(
  files: Record<string, string>,
  file: string,
): Array<{ value: string; position: string; line: number }> {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  expect(source).toBeDefined();
  const out = runExpressionsOf(source, trees.values, trees.runConstants(source)).map((e) => ({
    value: e.value,
    position: e.position,
    line: e.node.startPosition.row + 1,
  }));
  trees.dispose();
  return out.sort((a, b) => a.line - b.line);
}

describe("grammars", () => {
  it("loads only the grammars of the files it is given", async () => {
    await loadGrammarsFor(["main.go", "README.md", "app.ts"]);
    expect(loadedGrammars()).toContain("go");
    expect(loadedGrammars()).not.toContain("dart");
  });
});

describe("tree values", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.go", "a.php", "a.cs", "a.rb", "a.java", "a.kt", "a.dart", "a.py"]);
  });

  it("Go: a package constant in another file, through a struct field and fmt.Sprintf", () => {
    const files = {
      "render/defaults.go": `package render\nconst DefaultBase = "${V1}"\n`,
      "render/client.go": `package render\ntype C struct{ base string }\nfunc New() *C { return &C{base: DefaultBase} }\nfunc (c *C) Q() { http.Post(fmt.Sprintf("%s/run", c.base), "", nil) }\n`,
    };
    expect(runValues(files, "render/client.go")).toEqual([{ value: `${V1}/run`, position: "request", line: 4 }]);
  });

  it("PHP: a method returning an env read with a default, and a class constant", () => {
    const files = {
      "src/Client.php": `<?php\nclass Client {\n  const PATH = '/run';\n  public function resolveBaseUrl(): string { return getenv('BASE') ?: '${V1}'; }\n  public function go($id) { return $this->resolveBaseUrl() . self::PATH . "?run_id={$id}"; }\n}\n`,
    };
    expect(runValues(files, "src/Client.php")).toEqual([
      { value: "/run", position: "definition", line: 3 },
      { value: `${V1}/run?run_id=${HOLE}`, position: "request", line: 5 },
    ]);
  });

  it("C#: an options property default read through a field, with TrimEnd and interpolation; an attribute route is a route", () => {
    const files = {
      "Options/O.cs": `public class O { public string BaseUrl { get; set; } = "${V1}"; }\n`,
      "Clients/C.cs": `public class C {\n  private readonly O _o;\n  public Task Get(string id) => _http.GetStringAsync($"{_o.BaseUrl.TrimEnd('/')}/run?run_id={id}");\n  [HttpPost("api/run")] public IActionResult Run() => Ok();\n}\n`,
    };
    expect(runValues(files, "Clients/C.cs")).toEqual([
      { value: `${V1}/run?run_id=${HOLE}`, position: "request", line: 3 },
      { value: "api/run", position: "route", line: 4 },
    ]);
  });

  it("Ruby: a method returning a constant list's first entry is unknown, but an instance default is followed", () => {
    const files = {
      "lib/a.rb": `class A\n  def base_url\n    @base_url || "${V1}"\n  end\n  def create\n    conn.post("#{base_url}/run", {})\n  end\nend\n`,
    };
    expect(runValues(files, "lib/a.rb")).toEqual([{ value: `${V1}/run`, position: "request", line: 6 }]);
  });

  it("Ruby: a frozen module constant in another file of the package", () => {
    const files = {
      "lib/comfy/config.rb": `module Comfy\n  BASE_URL = "${V1}".freeze\nend\n`,
      "lib/comfy/runs.rb": `module Comfy\n  def self.get(id)\n    Net::HTTP.get(URI("#{BASE_URL}/run?run_id=#{id}"))\n  end\nend\n`,
    };
    expect(runValues(files, "lib/comfy/runs.rb")).toEqual([
      { value: `${V1}/run?run_id=${HOLE}`, position: "request", line: 3 },
    ]);
  });

  it("Java: Spring @Value defaults and a constants class read through its name", () => {
    const files = {
      "src/K.java": `public final class K { public static final String RUN = "/run"; }\n`,
      "src/C.java": `public class C {\n  public C(@Value("\${render.base:${V1}}") String base) { this.base = base; }\n  void q() { rest.postForObject(base + K.RUN, body, Map.class); }\n}\n`,
    };
    expect(runValues(files, "src/C.java")).toEqual([{ value: `${V1}/run`, position: "request", line: 3 }]);
  });

  it("Kotlin: string templates over an object constant; Retrofit's annotation is a request", () => {
    const files = {
      "net/Api.kt": `object Api { const val BASE = "${V1}" }\n`,
      "net/S.kt": `interface S {\n  @POST("run")\n  suspend fun q(): String\n}\nfun url() = "\${Api.BASE}/run"\n`,
    };
    expect(runValues(files, "net/S.kt")).toEqual([
      { value: "run", position: "request", line: 2 },
      { value: `${V1}/run`, position: "request", line: 5 },
    ]);
  });

  it("Kotlin: a bare $NAME template reads the name without its sigil", () => {
    const files = {
      "net/Probe.kt": `object Probe {\n  private const val BASE = "${V1}"\n  fun u(id: String) = "$BASE/run?run_id=$id"\n}\n`,
    };
    expect(runValues(files, "net/Probe.kt")).toEqual([
      { value: `${V1}/run?run_id=${HOLE}`, position: "request", line: 3 },
    ]);
  });

  it("a verb called on nothing with a handler block is a route; on a client, with a request block, a request", () => {
    const ruby = {
      "app.rb": `post "/api/run" do\n  json ok: true\nend\nconn.post("/run") do |req|\n  req.body = "{}"\nend\n`,
    };
    expect(runValues(ruby, "app.rb").map((e) => e.position)).toEqual(["route", "request"]);
    const kotlin = {
      "R.kt": `fun Application.m() { routing { post("/api/run") { call.respond("ok") } } }\nsuspend fun q() = http.post("run") { setBody("{}") }\n`,
    };
    expect(runValues(kotlin, "R.kt").map((e) => e.position)).toEqual(["route", "request"]);
  });

  it("Kotlin: `$NAME` and `${NAME}` templates read the constant without the sigil", () => {
    const files = {
      "comfy/Config.kt": `package comfy\nconst val BASE_URL = "${V1}"\n`,
      "comfy/Runs.kt": `package comfy\nfun q(id: String) {\n  Request.Builder().url("$BASE_URL/run").post(body).build()\n  Request.Builder().url("\${BASE_URL}/run?run_id=$id").get().build()\n}\n`,
    };
    expect(runValues(files, "comfy/Runs.kt")).toEqual([
      { value: `${V1}/run`, position: "request", line: 3 },
      { value: `${V1}/run?run_id=${HOLE}`, position: "request", line: 4 },
    ]);
  });

  it("Dart: a constructor default through ?? and a template", () => {
    const files = {
      "lib/c.dart": `class C {\n  C({String? base}) : _base = base ?? _default;\n  static const _default = '${V1}';\n  final String _base;\n  f() => http.post(Uri.parse('$_base/run'));\n}\n`,
    };
    expect(runValues(files, "lib/c.dart")).toEqual([{ value: `${V1}/run`, position: "request", line: 5 }]);
  });

  it("Python: os.getenv with a default, an f-string and str.format", () => {
    const files = {
      "app/c.py": `import os\nBASE = os.getenv("BASE", "${V1}")\nA = f"{BASE}/run"\nrequests.get("{}/run?run_id={}".format(BASE, rid))\n`,
    };
    expect(runValues(files, "app/c.py").map((e) => e.value)).toEqual([`${V1}/run`, `${V1}/run?run_id=${HOLE}`]);
  });

  it("path joins: Flurl's AppendPathSegment, Url.Combine and Go's url.JoinPath add one slash each", () => {
    const files = {
      "Api/Client.cs": `class Client {
  const string Base = "${V1}/";
  Task A() => Base.AppendPathSegment("/run").PostJsonAsync(body);
  string B() => Url.Combine(Base, "run");
}
`,
      "c/c.go": `package c
const base = "${V1}"
func f() { u, _ := url.JoinPath(base, "run"); http.Post(u, "", nil) }
`,
    };
    expect(runValues(files, "Api/Client.cs").map((e) => e.value)).toEqual([`${V1}/run`, `${V1}/run`]);
    expect(runValues(files, "c/c.go").map((e) => e.value)).toEqual([`${V1}/run`]);
  });

  it("Dart: a field bound to another class's path constant is a path constant too", () => {
    const files = {
      "lib/paths.dart": `abstract final class Paths {
  static const base = '${V1}';
  static const run = '/run';
}
`,
      "lib/api.dart": `class Api {
  final _base = Paths.base;
  final _run = Paths.run;
  f() => http.post(Uri.parse('$_base$_run'));
}
`,
    };
    expect(runValues(files, "lib/api.dart")).toEqual([
      { value: "/run", position: "definition", line: 3 },
      { value: `${V1}/run`, position: "request", line: 4 },
    ]);
  });

  it("a name whose declarations disagree is unknown only where nothing is known", () => {
    const files = { "x/a.go": `package x\nvar base string\nfunc f(u string) { base = u; http.Get(base + "/run") }\n` };
    expect(runValues(files, "x/a.go")[0]!.value).toBe(`${HOLE}/run`);
  });
});
