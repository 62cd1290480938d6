/**
 * URLs written as parts (a scheme and host, a path, a query): the constructor
 * stands for the whole URL, whose value is its parts resolved like any value.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

/** The values of the `/run` expressions of `file` and the lines they are reported on. */
function runValues(files: Record<string, string>, file: string): Array<{ value: string; line: number }> {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  const text = files[file]!;
  const out = runExpressionsOf(source, trees.values, trees.runConstants(source)).map((e) => ({
    value: e.value.replaceAll(HOLE, "?"),
    line: text.slice(0, e.reportStart ?? e.node.startIndex).split("\n").length,
  }));
  trees.dispose();
  return out.sort((a, b) => a.line - b.line);
}

describe("URLs built from parts", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.dart", "a.go", "a.cs", "a.kt"]);
  });

  it("Dart: Uri.https, Uri(scheme:, host:, path:) and replace(path:) on a host kept in another file", () => {
    const files = {
      "lib/hosts.dart":
        "class Hosts {\n  static const comfy = 'www.comfydeploy.com';\n  static const base = 'https://api.comfydeploy.com/api';\n}\n",
      "lib/api.dart": [
        "Future<void> a() => http.post(Uri.https(Hosts.comfy, '/api/run'));",
        "Future<void> b(String id) => http.get(Uri.http(Hosts.comfy, '/api/run', {'run_id': id}));",
        "Future<void> c(String id) async {",
        "  final u = Uri(",
        "    scheme: 'https',",
        "    host: Hosts.comfy,",
        "    path: '/api/run',",
        "  );",
        "  final v = Uri.parse(Hosts.base).replace(path: '/api/run', queryParameters: {'run_id': id});",
        "}",
        "",
      ].join("\n"),
    };
    expect(runValues(files, "lib/api.dart")).toEqual([
      { value: "https://www.comfydeploy.com/api/run", line: 1 },
      { value: "http://www.comfydeploy.com/api/run", line: 2 },
      { value: "https://www.comfydeploy.com/api/run", line: 7 },
      { value: "https://api.comfydeploy.com/api/run", line: 9 },
    ]);
  });

  it("Go: url.URL{Scheme, Host, Path} on a host constant; a Host read from the request stays unknown", () => {
    const files = {
      "c/c.go": `package c\nconst apiHost = "www.comfydeploy.com"\nfunc (c *C) Q() {\n\tu := &url.URL{Scheme: "https", Host: apiHost, Path: "/api/run"}\n\t_ = u\n}\nfunc own(r *http.Request) string {\n\tu := url.URL{\n\t\tHost: r.Host,\n\t\tPath: "/api/run",\n\t}\n\treturn u.String()\n}\n`,
    };
    expect(runValues(files, "c/c.go")).toEqual([
      { value: "https://www.comfydeploy.com/api/run", line: 4 },
      { value: "https://?/api/run", line: 10 },
    ]);
  });

  it("C#: UriBuilder initializers and constructor arguments, and new Uri(new Uri(base), relative)", () => {
    const files = {
      "Comfy.cs": [
        "class Comfy {",
        '  const string Host = "www.comfydeploy.com";',
        '  const string Base = "https://www.comfydeploy.com/api/";',
        "  void A() {",
        '    var b = new UriBuilder { Scheme = Uri.UriSchemeHttps, Host = Host, Path = "/api/run" };',
        '    var c = new UriBuilder("https", Host) {',
        '      Path = "/api/run",',
        "    };",
        '    var d = new Uri(new Uri(Base, UriKind.Absolute), "run");',
        "  }",
        "}",
        "",
      ].join("\n"),
    };
    expect(runValues(files, "Comfy.cs")).toEqual([
      { value: "https://www.comfydeploy.com/api/run", line: 5 },
      { value: "https://www.comfydeploy.com/api/run", line: 7 },
      { value: "https://www.comfydeploy.com/api/run", line: 9 },
    ]);
  });

  it("Kotlin: OkHttp's HttpUrl.Builder().scheme().host() and base.toHttpUrl().newBuilder() take path segments", () => {
    const files = {
      "Api.kt": [
        'const val HOST = "www.comfydeploy.com"',
        'const val BASE = "https://www.comfydeploy.com/api"',
        "fun a() = HttpUrl.Builder()",
        '    .scheme("https")',
        "    .host(HOST)",
        '    .addPathSegments("api/run")',
        "    .build()",
        'fun b() = BASE.toHttpUrl().newBuilder().addPathSegment("run").build()',
        "",
      ].join("\n"),
    };
    expect(runValues(files, "Api.kt")).toEqual([
      { value: "https://www.comfydeploy.com/api/run", line: 6 },
      { value: "https://www.comfydeploy.com/api/run", line: 8 },
    ]);
  });
});
