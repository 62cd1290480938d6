/**
 * Requests judged on syntax trees: the method of a URL parsed into a variable
 * and sent on a later line, run_id mentions that read a response rather than
 * build a query, and a DSL route declared with a handler block.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { loadGrammarsFor } from "../../../../src/lang/tree/grammars.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { legacyUrlScanner } from "../../../../src/scan/scanners/text/legacy-urls.js";

const V1 = "https://www.comfydeploy.com/api";

function scan(file: string, files: Record<string, string>, legacyBase = { file: "lib/client.rb", line: 2 }): string[] {
  const names = Object.keys(files).sort();
  const repo: RepoFacts = {
    files: names,
    candidates: names,
    root: "/repo",
    sdkImportingPackages: new Set(),
    read: (f) => files[f],
    legacyBaseHeld: true,
    legacyBase,
  };
  const text = files[file]!;
  return legacyUrlScanner
    .scan({ file, text, bytes: Buffer.from(text), kind: fileKind(file), hosts: DEFAULT_HOSTS, repo })
    .map((f) => `${f.line}:${f.ruleId}`)
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}

const client = `class Client
  DEFAULT = "${V1}".freeze
  def initialize(api: DEFAULT) = @api = api

  def queue(id)
    uri = URI("#{@api}/run")
    request = Net::HTTP::Post.new(uri, headers)
    request.body = { deployment_id: id }.to_json
    JSON.parse(send_request(uri, request)).fetch("run_id")
  end

  def status(run_id)
    uri = URI("#{@api}/run")
    uri.query = URI.encode_www_form(run_id: run_id)
    JSON.parse(send_request(uri, Net::HTTP::Get.new(uri, headers)))
  end
end
`;

describe("tree requests", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.rb", "a.go"]);
  });

  it("takes the method from the request built on the parsed URL, and ignores a run_id read from the response", () => {
    expect(scan("lib/client.rb", { "lib/client.rb": client })).toEqual([
      "2:legacy-base-url",
      "6:legacy-create-run",
      "14:legacy-get-run",
    ]);
  });

  it("follows a Go url.Parse result to the request that sends it", () => {
    const go = `package c\nfunc (c *C) Q(b []byte) {\n\tu, _ := url.Parse(c.base + "/run")\n\treq, _ := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(b))\n\t_ = req\n}\n`;
    expect(scan("c/c.go", { "c/c.go": go }, { file: "c/d.go", line: 1 })).toEqual(["3:legacy-create-run"]);
  });

  it("leaves a Sinatra route, and the run_id variable its handler assigns, quiet", () => {
    const app = `post "/api/run" do\n  run_id = client.queue(params["id"])\n  json run_id: run_id\nend\n`;
    expect(scan("app.rb", { "app.rb": app, "lib/client.rb": client })).toEqual([]);
  });
});

describe("paths kept apart from their base", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.cs", "a.dart", "a.java"]);
  });

  const refit = `using Refit;

namespace Renders.Clients;

public record Queued(string run_id);

public interface IRenderApi
{
    [Post("/run")]
    Task<Queued> QueueAsync([Body] QueueRequest request);

    [Get("/run")]
    Task<RunStatus> GetRunAsync([AliasAs("run_id")] string runId);
}
`;

  it("reads Refit's [Post] and [Get] on an interface as requests on the configured base", () => {
    const files = { "Api/IRenderApi.cs": refit, "Program.cs": `var b = "${V1}";\n` };
    expect(scan("Api/IRenderApi.cs", files, { file: "Program.cs", line: 1 })).toEqual([
      "9:legacy-create-run",
      "13:legacy-get-run",
    ]);
  });

  it("leaves a controller class's [HttpPost] and a class's [Post] route quiet", () => {
    const controller = `[ApiController]\npublic class RunController : ControllerBase\n{\n    [HttpPost("/run")]\n    public IActionResult Create() => Ok();\n\n    [Post("/run")]\n    public IActionResult Other() => Ok();\n}\n`;
    expect(scan("RunController.cs", { "RunController.cs": controller }, { file: "Program.cs", line: 1 })).toEqual([]);
  });

  const settings = `public sealed class ComfySettings\n{\n    public string Endpoint { get; set; } = "${V1}";\n}\n`;
  const worker = `using Flurl;
using Flurl.Http;

public sealed class Worker
{
    private readonly ComfySettings _settings;
    private string Endpoint => _settings.Endpoint;

    public async Task<Queued> Queue(string id) =>
        await Endpoint.AppendPathSegment("run").PostJsonAsync(new { deployment_id = id }).ReceiveJson<Queued>();

    public async Task<RunStatus> Status(string id) =>
        await Endpoint
            .AppendPathSegment("run")
            .SetQueryParam("run_id", id)
            .GetJsonAsync<RunStatus>();
}
`;

  it("resolves a Flurl path segment appended to a settings base, and the Flurl verbs", () => {
    const files = { "Worker.cs": worker, "ComfySettings.cs": settings };
    expect(scan("Worker.cs", files, { file: "ComfySettings.cs", line: 3 })).toEqual([
      "10:legacy-create-run",
      "15:legacy-get-run",
    ]);
  });

  const endpoints = `class Endpoints {\n  static const String base = '${V1}';\n  static const String run = '/run';\n}\n`;
  const repository = `import '../config/endpoints.dart';

class RenderRepository {
  final String _base = Endpoints.base;
  final String _runPath = Endpoints.run;

  Future<http.Response> status(String id) =>
      _client.get(Uri.parse('$_base$_runPath?run_id=$id'));

  Future<http.Response> again(String id) =>
      _client.get(Uri.parse('\${Endpoints.base}\${Endpoints.run}?run_id=$id'));

  Future<http.Response> queue(String body) =>
      _client.post(Uri.parse('$_base$_runPath'), body: body);
}
`;

  it("resolves a Dart path constant interpolated beside the base, directly or through a field", () => {
    const files = { "lib/data/render_repository.dart": repository, "lib/config/endpoints.dart": endpoints };
    expect(scan("lib/data/render_repository.dart", files, { file: "lib/config/endpoints.dart", line: 2 })).toEqual([
      "8:legacy-get-run",
      "11:legacy-get-run",
      "14:legacy-create-run",
    ]);
    expect(scan("lib/config/endpoints.dart", files, { file: "lib/config/endpoints.dart", line: 2 })).toEqual([
      "2:legacy-base-url",
    ]);
  });

  it("does not take a local variable named like the path constant for it", () => {
    const controller = `class Controller {
  Future<void> save(Map<String, dynamic> run) async {
    await _client.post(Uri.parse(_historyUrl), body: jsonEncode(run));
  }
}
`;
    const files = { "lib/controller.dart": controller, "lib/config/endpoints.dart": endpoints };
    expect(scan("lib/controller.dart", files, { file: "lib/config/endpoints.dart", line: 2 })).toEqual([]);
  });

  it("keeps a path constant beside another service's base quiet", () => {
    const runpod = `class RunpodClient {\n  static const String run = '/run';\n  final String _base = 'https://api.runpod.ai/v2/abc';\n  Future<void> go() => _client.post(Uri.parse('$_base\${RunpodClient.run}'), body: '{}');\n}\n`;
    const files = { "lib/runpod.dart": runpod, "lib/config/endpoints.dart": endpoints };
    expect(scan("lib/runpod.dart", files, { file: "lib/config/endpoints.dart", line: 2 })).toEqual([]);
  });
});
