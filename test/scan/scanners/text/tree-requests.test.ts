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
