import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { repositoryWebUrl, TOOL } from "../../src/platform/tool-info.js";

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { repository: { url: string } };

describe("links point at the repository, not at a registry page", () => {
  it("reads the repository's web address from package.json", () => {
    expect(repositoryWebUrl("git+https://github.com/acme/tool.git")).toBe("https://github.com/acme/tool");
    expect(TOOL.repository).toBe(repositoryWebUrl(pkg.repository.url));
  });

  it("--help's Docs link and every schema's $id", () => {
    expect(runCli(["--help"]).stdout).toContain(`Docs: ${TOOL.repository}#readme`);
    const schemas = readdirSync(join(REPO_ROOT, "schema")).filter((f) => f.endsWith(".json"));
    expect(schemas.length).toBeGreaterThan(3);
    for (const file of schemas) {
      const { $id } = JSON.parse(readFileSync(join(REPO_ROOT, "schema", file), "utf8")) as { $id: string };
      expect($id, file).toBe(`${TOOL.repository}/raw/main/schema/${file}`);
    }
  });
});
