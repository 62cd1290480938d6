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

/** An oapi-codegen package: request builders resolving `/run` against a server parameter, and the client that holds it. */
function generatedClient(pkg: string): string {
  return `// Code generated by github.com/oapi-codegen/oapi-codegen/v2 DO NOT EDIT.
package ${pkg}

type Client struct {
	Server string
}

func NewClient(server string) (*Client, error) {
	client := Client{
		Server: server,
	}
	if !strings.HasSuffix(client.Server, "/") {
		client.Server += "/"
	}
	return &client, nil
}

func (c *Client) PostRun(ctx context.Context, body io.Reader) (*http.Response, error) {
	req, err := NewPostRunRequest(c.Server, body)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func (c *Client) GetRun(ctx context.Context, params *GetRunParams) (*http.Response, error) {
	req, err := NewGetRunRequest(c.Server, params)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func NewPostRunRequest(server string, body io.Reader) (*http.Request, error) {
	serverURL, err := url.Parse(server)
	if err != nil {
		return nil, err
	}
	operationPath := fmt.Sprintf("/run")
	if operationPath[0] == '/' {
		operationPath = "." + operationPath
	}
	queryURL, err := serverURL.Parse(operationPath)
	if err != nil {
		return nil, err
	}
	return http.NewRequest("POST", queryURL.String(), body)
}

func NewGetRunRequest(server string, params *GetRunParams) (*http.Request, error) {
	serverURL, err := url.Parse(server)
	if err != nil {
		return nil, err
	}
	operationPath := fmt.Sprintf("/run")
	if operationPath[0] == '/' {
		operationPath = "." + operationPath
	}
	queryURL, err := serverURL.Parse(operationPath)
	if err != nil {
		return nil, err
	}
	if params != nil {
		queryValues := queryURL.Query()

		if queryFrag, err := runtime.StyleParamWithLocation("form", true, "run_id", runtime.ParamLocationQuery, params.RunId); err != nil {
			return nil, err
		} else if parsed, err := url.ParseQuery(queryFrag); err != nil {
			return nil, err
		} else {
			for k, v := range parsed {
				for _, v2 := range v {
					queryValues.Add(k, v2)
				}
			}
		}
		queryURL.RawQuery = queryValues.Encode()
	}
	return http.NewRequest("GET", queryURL.String(), nil)
}
`;
}

function lineOf(text: string, needle: string, nth = 1): number {
  const lines = text.split("\n");
  let seen = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(needle) && ++seen === nth) return i + 1;
  throw new Error(`no ${needle}`);
}

describe("generated clients: a path resolved against a server parameter", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.go", "a.java", "a.php", "a.rb"]);
  });

  const comfy = generatedClient("comfy");
  const post = `${lineOf(comfy, 'Sprintf("/run")')}:legacy-create-run`;
  const get = `${lineOf(comfy, '"run_id", runtime')}:legacy-get-run`;
  const main = (construct: string): string =>
    `package main\n\nfunc main() {\n\tapiBase := flag.String("comfy-api", "${V1}", "API base")\n\tflag.Parse()\n\t${construct}\n}\n`;

  it("reports the POST at its path and the GET at its run_id line when the app constructs the client on the V1 base", () => {
    const files = {
      "internal/comfy/client.gen.go": comfy,
      "cmd/worker/main.go": main("api, _ := comfy.NewClient(*apiBase)\n\t_ = api"),
    };
    expect(scan("internal/comfy/client.gen.go", files)).toEqual([post, get]);
  });

  it("keeps a generated client for another API quiet when the app constructs it on that API's base", () => {
    const files = {
      "internal/comfy/client.gen.go": comfy,
      "internal/upscale/client.gen.go": generatedClient("upscale"),
      "cmd/worker/main.go": main(
        'api, _ := comfy.NewClient(*apiBase)\n\tup, _ := upscale.NewClient("https://api.upscale.cloud/v2")\n\t_, _ = api, up',
      ),
    };
    expect(scan("internal/upscale/client.gen.go", files)).toEqual([]);
    expect(scan("internal/comfy/client.gen.go", files)).toEqual([post, get]);
  });

  it("takes the repository's V1 base as evidence when no caller shows the server", () => {
    const files = {
      "internal/comfy/client.gen.go": comfy,
      "cmd/worker/main.go":
        'package main\n\nfunc main() {\n\tapi, _ := comfy.NewClient(os.Getenv("API_BASE"))\n\t_ = api\n}\n',
    };
    expect(scan("internal/comfy/client.gen.go", files)).toEqual([post, get]);
  });
  /** openapi-generator's Java API class: the path in `localVarPath`, the method and base in `buildCall`. */
  const api = (pkg: string): string => `package com.acme.${pkg}.api;

public class DefaultApi {
    private ApiClient localVarApiClient;
    private String localCustomBaseUrl;

    public okhttp3.Call postRunCall(RunRequest runRequest, final ApiCallback _callback) throws ApiException {
        String basePath = null;
        if (localCustomBaseUrl != null) {
            basePath = localCustomBaseUrl;
        } else {
            basePath = null;
        }
        Object localVarPostBody = runRequest;

        // create path and map variables
        String localVarPath = "/run";

        List<Pair> localVarQueryParams = new ArrayList<Pair>();
        return localVarApiClient.buildCall(basePath, localVarPath, "POST", localVarQueryParams, localVarPostBody, _callback);
    }

    public okhttp3.Call getRunCall(String runId, final ApiCallback _callback) throws ApiException {
        String basePath = null;
        if (localCustomBaseUrl != null) {
            basePath = localCustomBaseUrl;
        }

        // create path and map variables
        String localVarPath = "/run";

        List<Pair> localVarQueryParams = new ArrayList<Pair>();
        if (runId != null) {
            localVarQueryParams.addAll(localVarApiClient.parameterToPair("run_id", runId));
        }

        return localVarApiClient.buildCall(basePath, localVarPath, "GET", localVarQueryParams, null, _callback);
    }
}
`;
  const apiClient = (pkg: string, base: string): string =>
    `package com.acme.${pkg}.client;\n\npublic class ApiClient {\n    private String basePath = "${base}";\n\n    public ApiClient setBasePath(String basePath) {\n        this.basePath = basePath;\n        return this;\n    }\n}\n`;

  it("reads a Java generated API's base from its own package's ApiClient, and tells two generated clients apart", () => {
    const comfyApi = api("comfy");
    const files = {
      "src/main/java/com/acme/comfy/api/DefaultApi.java": comfyApi,
      "src/main/java/com/acme/comfy/client/ApiClient.java": apiClient("comfy", V1),
      "src/main/java/com/acme/upscale/api/DefaultApi.java": api("upscale"),
      "src/main/java/com/acme/upscale/client/ApiClient.java": apiClient("upscale", "https://api.upscale.cloud"),
    };
    expect(scan("src/main/java/com/acme/comfy/api/DefaultApi.java", files)).toEqual([
      `${lineOf(comfyApi, '"/run"')}:legacy-create-run`,
      `${lineOf(comfyApi, '"run_id"')}:legacy-get-run`,
    ]);
    expect(scan("src/main/java/com/acme/upscale/api/DefaultApi.java", files)).toEqual([]);
  });

  /** openapi-generator's PHP request builder: `$resourcePath` appended to the configured host in `new Request(…)`. */
  const phpApi = `<?php
namespace Acme\\Client\\Api;

class RunsApi
{
    public function createRunRequest($run_request)
    {
        $resourcePath = '/run';
        $queryParams = [];
        $operationHost = $this->config->getHost();
        $query = ObjectSerializer::buildQuery($queryParams);
        return new Request(
            'POST',
            $operationHost . $resourcePath . ($query ? "?{$query}" : ''),
            $headers,
            $httpBody
        );
    }

    public function getRunRequest($run_id)
    {
        $resourcePath = '/run';
        $queryParams = [];
        $queryParams = array_merge($queryParams, ObjectSerializer::toQueryValue(
            $run_id,
            'run_id', // param base name
            'string'
        ) ?? []);
        $operationHost = $this->config->getHost();
        $query = ObjectSerializer::buildQuery($queryParams);
        return new Request(
            'GET',
            $operationHost . $resourcePath . ($query ? "?{$query}" : ''),
            $headers,
            $httpBody
        );
    }
}
`;
  const phpConfiguration = (host: string): string =>
    `<?php\nnamespace Acme\\Client;\n\nclass Configuration\n{\n    protected $host = '${host}';\n\n    public function getHost()\n    {\n        return $this->host;\n    }\n}\n`;

  it("reports a PHP generated request once, at its path or its run_id line, on the configured host", () => {
    const files = { "lib/Api/RunsApi.php": phpApi, "lib/Configuration.php": phpConfiguration(V1) };
    expect(scan("lib/Api/RunsApi.php", files)).toEqual([
      `${lineOf(phpApi, "'/run'")}:legacy-create-run`,
      `${lineOf(phpApi, "'run_id'")}:legacy-get-run`,
    ]);
    const other = {
      "lib/Api/RunsApi.php": phpApi,
      "lib/Configuration.php": phpConfiguration("https://api.upscale.cloud"),
    };
    expect(scan("lib/Api/RunsApi.php", other)).toEqual([]);
  });

  it("reports a Ruby generated request once, its method a symbol, on the repository's V1 base", () => {
    const rb = `module Acme\n  class RunsApi\n    def get_run_with_http_info(run_id, opts = {})\n      local_var_path = '/run'\n      query_params = opts[:query_params] || {}\n      query_params[:'run_id'] = run_id\n      header_params = opts[:header_params] || {}\n      header_params['Accept'] = @api_client.select_header_accept(['application/json'])\n      form_params = opts[:form_params] || {}\n      post_body = opts[:debug_body]\n      return_type = opts[:debug_return_type] || 'RunStatus'\n      auth_names = opts[:debug_auth_names] || ['bearerAuth']\n      new_options = opts.merge(:query_params => query_params, :return_type => return_type)\n      data, status_code, headers = @api_client.call_api(:GET, local_var_path, new_options)\n      return data, status_code, headers\n    end\n  end\nend\n`;
    expect(scan("lib/acme/api/runs_api.rb", { "lib/acme/api/runs_api.rb": rb })).toEqual(["6:legacy-get-run"]);
  });
});

describe("URLs built from a host and a path part", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.dart", "a.go", "a.cs", "a.kt"]);
  });

  const dart = `const kComfyHost = 'www.comfydeploy.com';
const kOwnHost = 'renders.example-app.io';
Future<void> queue() => http.post(Uri.https(kComfyHost, '/api/run'), body: '{}');
Future<void> status(String id) => http.get(Uri.https(kComfyHost, '/api/run', {
      'run_id': id,
    }));
Future<void> own(String id) => http.post(Uri.https(kOwnHost, '/api/run', {'run_id': id}));
Future<void> pod(String ep) => http.post(Uri.https('api.runpod.ai', '/v2/$ep/run'));
`;

  it("Dart: Uri.https on a V1 host constant is a V1 request, the GET on its run_id line; other hosts stay quiet", () => {
    expect(scan("lib/api.dart", { "lib/api.dart": dart }, { file: "lib/api.dart", line: 1 })).toEqual([
      "1:legacy-base-url",
      "3:legacy-create-run",
      "5:legacy-get-run",
    ]);
  });

  it("Go: a url.URL whose Host is the incoming request's is the app's own link, even beside a V1 base", () => {
    const go = `package web\nfunc link(r *http.Request, id string) string {\n\tu := url.URL{\n\t\tScheme: "https",\n\t\tHost:   r.Host,\n\t\tPath:   "/api/run",\n\t}\n\tq := u.Query()\n\tq.Set("run_id", id)\n\tu.RawQuery = q.Encode()\n\treturn u.String()\n}\n`;
    expect(scan("web/link.go", { "web/link.go": go }, { file: "comfy/base.go", line: 3 })).toEqual([]);
  });

  it("C#: a UriBuilder on the V1 host is reported on its Path line; one on the app's own address stays quiet", () => {
    const cs = `class C {
  const string ComfyHost = "www.comfydeploy.com";
  Task Queue(HttpClient http) {
    var b = new UriBuilder {
      Scheme = "https",
      Host = ComfyHost,
      Path = "/api/run",
    };
    return http.PostAsync(b.Uri, null);
  }
  string Status(WebApplication app, string id) =>
    new UriBuilder(app.Urls.First()) { Path = "/api/run", Query = $"run_id={id}" }.Uri.ToString();
}
`;
    expect(scan("C.cs", { "C.cs": cs }, { file: "Settings.cs", line: 4 })).toEqual([
      "2:legacy-base-url",
      "7:legacy-create-run",
    ]);
  });

  it("Kotlin: an HttpUrl builder on the V1 host reads its method from the request that sends it", () => {
    const kt = `const val HOST = "www.comfydeploy.com"
class Api(private val client: OkHttpClient) {
    fun queue(body: RequestBody) {
        val url = HttpUrl.Builder()
            .scheme("https")
            .host(HOST)
            .addPathSegments("api/run")
            .build()
        client.newCall(Request.Builder().url(url).post(body).build()).execute()
    }
}
`;
    expect(scan("Api.kt", { "Api.kt": kt }, { file: "Api.kt", line: 1 })).toEqual([
      "1:legacy-base-url",
      "7:legacy-create-run",
    ]);
  });
});
