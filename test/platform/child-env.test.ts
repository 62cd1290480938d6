/**
 * ripgrep runs with the scrubbed environment and without the user's rg config
 * file, whose flags would change what the prefilter matches.
 */
import { describe, expect, it } from "vitest";
import { ripgrepEnv } from "../../src/platform/child-env.js";

describe("ripgrep's environment", () => {
  it("holds no token and no RIPGREP_CONFIG_PATH", () => {
    const env = ripgrepEnv({
      PATH: "/usr/bin",
      GITHUB_TOKEN: "ghp_x",
      COMFYDEPLOY_API_KEY: "cd_x",
      RIPGREP_CONFIG_PATH: "/tmp/rg",
    });
    expect(env).toEqual({ PATH: "/usr/bin" });
  });
});
