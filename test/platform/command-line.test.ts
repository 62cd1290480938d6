import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandLine, invocation } from "../../src/platform/command-line.js";
import { tempRepo } from "../helpers/temp-repo.js";

describe("invocation: commands printed as the tool was started", () => {
  it("a bin on PATH is its name", () => {
    expect(
      invocation({ script: "/usr/local/bin/comfydeploy-migrate", cwd: "/home/u/app", path: "/usr/bin:/usr/local/bin" }),
    ).toBe("comfydeploy-migrate");
  });

  it("a local install's bin (node_modules/.bin, not on PATH) runs through npx, which finds that copy", () => {
    const app = tempRepo({ "node_modules/.bin/comfydeploy-migrate": "#!/bin/sh\n" });
    const script = join(app, "node_modules", ".bin", "comfydeploy-migrate");
    expect(invocation({ script, cwd: app, path: "/usr/bin" })).toBe("npx comfydeploy-migrate");
  });

  it("npx of a tarball or a git URL names what npx installed, never the registry name", () => {
    const cache = tempRepo({
      "_npx/abc123/package.json": JSON.stringify({
        dependencies: { "comfydeploy-migrate": "file:/home/u/app/comfydeploy-migrate-0.1.0.tgz" },
      }),
      "_npx/def456/package.json": JSON.stringify({
        dependencies: { "comfydeploy-migrate": "github:acme/comfydeploy-migrate#v1" },
      }),
      "_npx/0a1b2c/package.json": JSON.stringify({
        dependencies: { "comfydeploy-migrate": "file:../../app/comfydeploy-migrate-0.1.0.tgz" },
      }),
    });
    const bin = (hash: string): string => join(cache, "_npx", hash, "node_modules", ".bin", "comfydeploy-migrate");
    const cwd = "/home/u/app";
    expect(invocation({ script: bin("abc123"), cwd, path: "" })).toBe("npx ./comfydeploy-migrate-0.1.0.tgz");
    expect(invocation({ script: bin("def456"), cwd, path: "" })).toBe("npx 'github:acme/comfydeploy-migrate#v1'");
    // npx writes a relative tarball path from its own directory.
    expect(invocation({ script: bin("0a1b2c"), cwd: join(cache, "app"), path: "" })).toBe(
      "npx ./comfydeploy-migrate-0.1.0.tgz",
    );
  });

  it("node and a script path is that, relative to the working directory when below it", () => {
    expect(invocation({ script: "/src/cdm/dist/src/cli.js", cwd: "/src/cdm", path: "" })).toBe("node dist/src/cli.js");
    expect(invocation({ script: "/src/cdm/dist/src/cli.js", cwd: "/elsewhere", path: "" })).toBe(
      "node /src/cdm/dist/src/cli.js",
    );
  });

  it("a reproduce line quotes each argument for a POSIX shell", () => {
    expect(commandLine(["scan", "my dir", "--exclude", "it's"])).toBe(
      `${invocation()} scan 'my dir' --exclude 'it'\\''s'`,
    );
  });
});
