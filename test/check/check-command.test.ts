/** `check` as a user runs it: a base URL that serves no queue endpoint is a usage error, one line, exit 2. */
import { afterEach, expect, it } from "vitest";
import { parseDeployment } from "../../src/serve/options.js";
import { runCliAsync } from "../helpers/cli.js";
import { startTestEmulator, TEST_TOKEN } from "../helpers/emulator.js";
import { closeAll, closers, DEPLOYMENT } from "../helpers/check-api.js";

afterEach(closeAll);

it("--base-url without /api exits 2 with one line that suggests the /api base", async () => {
  const e = await startTestEmulator({ deployments: [parseDeployment(DEPLOYMENT)] });
  closers.push(() => e.close());
  const origin = new URL(e.baseUrl).origin;
  const run = await runCliAsync(["check", "--deployment-id", DEPLOYMENT, "--base-url", origin], {
    env: { COMFYDEPLOY_API_KEY: TEST_TOKEN },
  });
  expect(run.status).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr.split("\n")[0]).toContain(`use --base-url ${origin}/api`);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).not.toContain(TEST_TOKEN);
  expect(e.store.size).toBe(0);
});
