/**
 * The base of the client a relative request is sent on: Guzzle's base_uri,
 * dio's BaseOptions(baseUrl:), found where the client is built in the same file.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { clientBaseOf } from "../../../src/lang/tree/client-bases.js";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

const V1 = "https://www.comfydeploy.com/api";

function bases(files: Record<string, string>, file: string): Array<string | undefined> {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  const out = runExpressionsOf(source, trees.values, trees.runConstants(source)).map((e) =>
    clientBaseOf(e.node, source, trees.values),
  );
  trees.dispose();
  return out;
}

describe("client bases", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.php", "a.dart"]);
  });

  it("Guzzle: post('run') and request('GET', 'run') on a client built with a base_uri constant", () => {
    const files = {
      "plugin.php": `<?php\ndefine('API', '${V1}/');\n`,
      "includes/api.php": `<?php
class Api {
  public function __construct() { $this->http = new Client(['base_uri' => API, 'timeout' => 20]); }
  public function queue() { return $this->http->post('run', ['json' => []]); }
  public function status($id) { return $this->http->request('GET', 'run', ['query' => ['run_id' => $id]]); }
}
`,
    };
    expect(bases(files, "includes/api.php")).toEqual([`${V1}/`, `${V1}/`]);
  });

  it("dio: a client built on another service's base, and a client built in another file, which is not followed", () => {
    const files = {
      "lib/upscale.dart": `class Upscale {\n  Upscale(String id) : _dio = Dio(BaseOptions(baseUrl: 'https://api.runpod.ai/v2/$id'));\n  final Dio _dio;\n  Future<void> run() => _dio.post('/run', data: {});\n}\n`,
      "lib/other.dart": `class Other {\n  Other(this._dio);\n  final Dio _dio;\n  Future<void> run() => _dio.post('/run', data: {});\n}\n`,
    };
    expect(bases(files, "lib/upscale.dart")[0]).toMatch(/^https:\/\/api\.runpod\.ai\/v2\//);
    expect(bases(files, "lib/other.dart")).toEqual([undefined]);
  });
});
