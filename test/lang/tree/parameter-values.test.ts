/**
 * Generated clients' requests on trees: a path kept in a local variable and
 * resolved against a server in its function (resolved-paths), what the
 * callers pass for that server across the repository (parameter-values), and
 * a base read from its nearest declaration (nearest-declarations).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { loadGrammarsFor } from "../../../src/lang/tree/grammars.js";
import { nearestDeclaredValue } from "../../../src/lang/tree/nearest-declarations.js";
import { PackageTrees } from "../../../src/lang/tree/package-trees.js";
import { knownValues, parameterValues } from "../../../src/lang/tree/parameter-values.js";
import { runExpressionsOf } from "../../../src/lang/tree/run-expressions.js";

const V1 = "https://www.comfydeploy.com/api";

const builder = (pkg: string): string => `package ${pkg}

type Client struct{ Server string }

func NewClient(server string) *Client {
	c := Client{Server: server}
	c.Server += "/"
	return &c
}

func (c *Client) PostRun(body io.Reader) (*http.Response, error) {
	req, _ := NewPostRunRequest(c.Server, body)
	return http.DefaultClient.Do(req)
}

func NewPostRunRequest(server string, body io.Reader) (*http.Request, error) {
	serverURL, err := url.Parse(server)
	if err != nil {
		return nil, err
	}
	operationPath := fmt.Sprintf("/run")
	queryURL, err := serverURL.Parse(operationPath)
	if err != nil {
		return nil, err
	}
	return http.NewRequest(http.MethodPost, queryURL.String(), body)
}
`;

function generatedRun(files: Record<string, string>, file: string) {
  const trees = new PackageTrees(Object.keys(files), (f) => files[f]);
  const source = trees.source(file)!;
  const [run] = runExpressionsOf(source, trees.values, trees.runConstants(source));
  return { trees, source, run: run! };
}

describe("generated clients on trees", () => {
  beforeAll(async () => {
    await loadGrammarsFor(["a.go", "a.java"]);
  });

  it("reads a path variable resolved against a server parameter as a request, with the constructor's method", () => {
    const { trees, run } = generatedRun({ "api/client.gen.go": builder("api") }, "api/client.gen.go");
    expect(run.position).toBe("request");
    expect(run.value).toBe(`${HOLE}/run`);
    expect(run.annotatedMethod).toBe("POST");
    expect(run.resolved?.parameter?.index).toBe(0);
    expect(run.node.startPosition.row + 1).toBe(
      builder("api")
        .split("\n")
        .findIndex((l) => l.includes('"/run"')) + 1,
    );
    trees.dispose();
  });

  it("follows the server parameter up through the client's field to the app's constructor call and its flag default", () => {
    const files = {
      "api/client.gen.go": builder("api"),
      "other/client.gen.go": builder("other"),
      "cmd/app/main.go": `package main\n\nfunc main() {\n\tbase := flag.String("api", "${V1}", "API base")\n\tc := api.NewClient(*base)\n\to := other.NewClient("https://api.other.dev")\n\t_, _ = c, o\n}\n`,
    };
    const { trees, source, run } = generatedRun(files, "api/client.gen.go");
    const passed = knownValues(parameterValues(run.resolved!.parameter!.function, 0, source, trees));
    // The `+= "/"` is not where the field is set; the other package's constructor call is not this package's.
    expect(passed).toEqual([{ value: V1, file: "cmd/app/main.go", line: 5 }]);
    trees.dispose();
  });

  it("takes a base from the declaration nearest to the file, and nothing from a local address", () => {
    const files = {
      "comfy/api/RunsApi.java": `package comfy.api;\nclass RunsApi { Call c() { String basePath = null; return null; } }\n`,
      "comfy/client/ApiClient.java": `package comfy.client;\nclass ApiClient { private String basePath = "${V1}"; }\n`,
      "other/client/ApiClient.java": `package other.client;\nclass ApiClient { private String basePath = "https://api.other.dev"; }\n`,
      "other/api/JobsApi.java": `package other.api;\nclass JobsApi { String basePath = null; }\n`,
      "local/client/ApiClient.java": `package local.client;\nclass ApiClient { private String basePath = "http://localhost"; }\n`,
      "local/api/LocalApi.java": `package local.api;\nclass LocalApi { String basePath = null; }\n`,
    };
    const trees = new PackageTrees([], (f) => files[f as keyof typeof files], Object.keys(files));
    const from = (file: string) => nearestDeclaredValue("basePath", trees.source(file)!, trees)?.value;
    expect(from("comfy/api/RunsApi.java")).toBe(V1);
    expect(from("other/api/JobsApi.java")).toBe("https://api.other.dev");
    // localhost says the app sets the base at run time: another package's base is not taken for it.
    expect(from("local/api/LocalApi.java")).toBeUndefined();
    trees.dispose();
  });
});
