/**
 * urlunparse and urlunsplit: a URL built from a tuple of parts is worth its
 * parts put together, each resolved like any other value.
 */
import { describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { PyModule } from "../../../src/lang/python/module.js";
import { PyValues } from "../../../src/lang/python/values.js";

function stringValueOf(source: string, name: string): string {
  const module = new PyModule(source);
  const assignment = module.assignments.get(name)!.at(-1)!;
  return new PyValues(module).stringOf(assignment.value);
}

describe("URLs built from parts in Python", () => {
  const head = 'import os\nfrom urllib import parse\nHOST = os.getenv("COMFY_HOST", "www.comfydeploy.com")\n';

  it("urlunparse puts scheme, host, path and an urlencoded query together", () => {
    expect(stringValueOf(`${head}U = urlunparse(("https", HOST, "/api/run", "", "", ""))\n`, "U")).toBe(
      "https://www.comfydeploy.com/api/run",
    );
    expect(
      stringValueOf(
        `${head}U = parse.urlunparse(("https", HOST, "/api/run", "", urlencode({"run_id": rid}), ""))\n`,
        "U",
      ),
    ).toBe(`https://www.comfydeploy.com/api/run?run_id=${HOLE}`);
  });

  it("urlunsplit takes its query one place earlier", () => {
    expect(
      stringValueOf(
        `${head}U = urllib.parse.urlunsplit(("https", HOST, "/api/run", urlencode({"run_id": rid}), ""))\n`,
        "U",
      ),
    ).toBe(`https://www.comfydeploy.com/api/run?run_id=${HOLE}`);
  });

  it("an unknown host stays unknown", () => {
    expect(stringValueOf(`U = urlunparse((scheme, netloc, "/run", "", "", ""))\n`, "U")).toBe(`${HOLE}://${HOLE}/run`);
  });
});
