/**
 * Laravel's config('file.key.path'): the value under that key path in config/<file>.php.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

const V1 = "https://www.comfydeploy.com/api";

const services = `<?php\nreturn [\n  'fal' => ['url' => 'https://queue.fal.run'],\n  'comfydeploy' => [\n    'url' => env('COMFY_URL', '${V1}'),\n  ],\n];\n`;

function runValues(files: Record<string, string>, file: string): string[] {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  const out = runExpressionsOf(source, trees.values, trees.runConstants(source)).map((e) => e.value);
  trees.dispose();
  return out;
}

describe("Laravel config", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.php"]);
  });

  it("config('services.comfydeploy.url') is the env default under that key path, not another service's url", () => {
    const files = {
      "config/services.php": services,
      "app/Jobs/Render.php": `<?php\nclass Render {\n  public function handle() { Http::post(config('services.comfydeploy.url') . '/run', []); }\n}\n`,
    };
    expect(runValues(files, "app/Jobs/Render.php")).toEqual([`${V1}/run`]);
  });

  it("a key path the file does not hold is unknown", () => {
    const files = {
      "config/services.php": services,
      "app/Jobs/Render.php": `<?php\nclass Render {\n  public function handle() { Http::post(config('services.comfy.url') . '/run', []); }\n}\n`,
    };
    expect(runValues(files, "app/Jobs/Render.php")).toEqual([`${HOLE}/run`]);
  });
});
