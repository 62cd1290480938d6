/**
 * URL helpers: a `/run` literal passed to a function that returns the base
 * joined with its parameter is part of the URL the helper returns, and the
 * call is worth that URL, with the parameters bound to the call's arguments.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

const V1 = "https://www.comfydeploy.com/api";

function runValues(files: Record<string, string>, file: string): Array<{ value: string; line: number; text: string }> {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  const out = runExpressionsOf(source, trees.values, trees.runConstants(source)).map((e) => ({
    value: e.value,
    line: e.node.startPosition.row + 1,
    text: e.node.text,
  }));
  trees.dispose();
  return out.sort((a, b) => a.line - b.line);
}

describe("URL helper calls", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.php", "a.go", "a.dart"]);
  });

  it("PHP: $this->endpoint('/run') returns the option whose default is a class constant, trimmed by a function", () => {
    const files = {
      "includes/class-client.php": `<?php
class Client {
  const DEFAULT_API = '${V1}';
  private $base;
  public function __construct() { $this->base = untrailingslashit(get_option('api_url', self::DEFAULT_API)); }
  private function endpoint($path) { return $this->base . $path; }
  public function create() { return wp_remote_post($this->endpoint('/run'), []); }
  public function status($id) { return wp_remote_get(add_query_arg(['run_id' => $id], $this->endpoint('/run'))); }
}
`,
    };
    expect(runValues(files, "includes/class-client.php")).toEqual([
      { value: `${V1}/run`, line: 7, text: "$this->endpoint('/run')" },
      { value: `${V1}/run`, line: 8, text: "$this->endpoint('/run')" },
    ]);
  });

  it("a free function that trims its argument keeps it; the default of a WordPress option is what ships", () => {
    const files = {
      "cli.php": `<?php\nconst API = '${V1}';\nfunction status($id) {\n  $base = rtrim(get_option('api_url', API), '/');\n  curl_setopt($ch, CURLOPT_URL, $base . '/run?run_id=' . urlencode($id));\n}\n`,
    };
    expect(runValues(files, "cli.php").map((e) => e.value)).toEqual([`${V1}/run?run_id=${HOLE}`]);
  });

  it("Go: a method joining the client's base and its path parameter", () => {
    const files = {
      "client.go": `package comfy\nconst DefaultBase = "${V1}"\ntype Client struct{ base string }\nfunc New() *Client { return &Client{base: DefaultBase} }\nfunc (c *Client) url(path string) string { return c.base + path }\nfunc (c *Client) Queue() { http.Post(c.url("/run"), "application/json", nil) }\n`,
    };
    expect(runValues(files, "client.go")).toEqual([{ value: `${V1}/run`, line: 6, text: 'c.url("/run")' }]);
  });

  it("a wrapper that sends the request, rather than building its URL, leaves the literal alone", () => {
    const files = {
      "api.php": `<?php\nfunction comfy_post($path, $body) { return wp_remote_post(COMFY_API . $path, ['body' => $body]); }\nfunction queue() { return comfy_post('/run', []); }\n`,
    };
    expect(runValues(files, "api.php")).toEqual([{ value: "/run", line: 3, text: "'/run'" }]);
  });

  it("Dart: a private helper over Uri.parse and replace(queryParameters:), in a class that also calls another host", () => {
    const files = {
      "lib/core/constants.dart": `const String kApi = String.fromEnvironment(\n  'COMFY_API',\n  defaultValue: '${V1}',\n);\n`,
      "lib/services/images.dart": `class Images {
  Uri _comfy(String path, [Map<String, String>? query]) =>
      Uri.parse('$kApi$path').replace(queryParameters: query);

  Future<void> render() => _client.post(_comfy('/run'), body: '{}');
  Future<void> status(String id) => _client.get(_comfy('/run', {'run_id': id}));
  Future<void> upscale() => _client.post(Uri.parse('https://queue.fal.run/fal-ai/upscaler'));
}
`,
    };
    expect(runValues(files, "lib/services/images.dart")).toEqual([
      { value: `${V1}/run`, line: 5, text: "('/run')" },
      { value: `${V1}/run`, line: 6, text: "('/run', {'run_id': id})" },
    ]);
  });
});
