/**
 * Chopper services: the class path and the method's path joined, reported at
 * the method's annotation with its method.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { chopperRequestsOf } from "../../../src/lang/tree/chopper.js";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";

function requests(text: string): Array<{ line: number; value: string; method: string | undefined }> {
  const trees = new PackageTrees(["lib/service.dart"], () => text);
  const source = trees.source("lib/service.dart")!;
  const out = chopperRequestsOf(source, trees.values).map((e) => ({
    line: e.node.startPosition.row + 1,
    value: e.value,
    method: e.annotatedMethod,
  }));
  trees.dispose();
  return out;
}

describe("Chopper services", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.dart"]);
  });

  it("a bare @Post() and @Get() on a service whose class path is /run", () => {
    const text = `@ChopperApi(baseUrl: '/run')
abstract class RunService extends ChopperService {
  @Post()
  Future<Response> queue(@Body() Map<String, dynamic> body);

  @Get()
  Future<Response> status(@Query('run_id') String id);

  @Delete(path: '/{id}')
  Future<Response> cancel(@Path() String id);
}
`;
    expect(requests(text)).toEqual([
      { line: 3, value: "/run", method: "POST" },
      { line: 6, value: "/run", method: "GET" },
    ]);
  });

  it("the method's path joins the class path, and a class without @ChopperApi is not a service", () => {
    const text = `@ChopperApi(baseUrl: '/comfyui-deploy')
abstract class Desktop extends ChopperService {
  @Post(path: '/run')
  Future<Response> run(@Body() Map<String, dynamic> body);
}

abstract class Other {
  @Post(path: '/run')
  Future<Response> run();
}
`;
    expect(requests(text)).toEqual([{ line: 3, value: "/comfyui-deploy/run", method: "POST" }]);
  });
});
