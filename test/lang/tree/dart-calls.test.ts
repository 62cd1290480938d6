/**
 * Dart's flat calls: settings read with a default (`String.fromEnvironment`,
 * flutter_dotenv's `dotenv.get`), `Uri.parse`, and getters written with `=>`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

const V1 = "https://www.comfydeploy.com/api";

function runValues(files: Record<string, string>, file: string): string[] {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  const out = runExpressionsOf(source, trees.values, trees.runConstants(source)).map((e) => e.value);
  trees.dispose();
  return out;
}

describe("Dart calls", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.dart"]);
  });

  it("a String.fromEnvironment constant in another file is worth its defaultValue", () => {
    const files = {
      "lib/core/constants.dart": `class AppConstants {\n  static const String api = String.fromEnvironment('API', defaultValue: '${V1}');\n}\n`,
      "lib/api.dart": `Future<void> go() => http.post(Uri.parse('\${AppConstants.api}/run'));\n`,
    };
    expect(runValues(files, "lib/api.dart")).toEqual([`${V1}/run`]);
  });

  it("a getter over dotenv.get with a fallback, read in a template", () => {
    const files = {
      "lib/client.dart": `class C {\n  String get _base => dotenv.get('COMFY_URL', fallback: '${V1}');\n  Future<void> go() => http.post(Uri.parse('$_base/run'));\n}\n`,
    };
    expect(runValues(files, "lib/client.dart")).toEqual([`${V1}/run`]);
  });
});
