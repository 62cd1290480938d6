/** check and serve as a user runs them: exit codes per verdict, dry runs, secrets, usage errors. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliAsync, type ServeProcess, startServe } from "../helpers/cli.js";

const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const FAILING = "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const TOKEN = "cd_live_e2e_token_9a8b7c";

let server: ServeProcess;
let baseUrl = "";

beforeAll(async () => {
  server = await startServe(["--token", TOKEN, "--step-ms", "20", "-d", DEPLOYMENT, "-d", `${FAILING}:failed`]);
  baseUrl = server.baseUrl;
});

afterAll(() => server?.stop());

describe("serve as a child process", () => {
  it("prints its base URL and stops gracefully on SIGTERM", () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
  });
});

describe("check exit codes", () => {
  it("READY exits 0", () => {
    const run = runCli(["check", "--deployment-id", DEPLOYMENT, "--base-url", baseUrl, "--format", "json"], {
      env: { COMFYDEPLOY_API_KEY: TOKEN },
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).verdict).toBe("READY");
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it("NOT READY exits 1 and names live_status", () => {
    const run = runCli(["check", "--deployment-id", FAILING, "--base-url", baseUrl], {
      env: { COMFYDEPLOY_API_KEY: TOKEN },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("NOT READY: run");
    expect(run.stdout).toContain("KSampler");
  });

  it("a bad token is NOT READY, and the token given is never echoed", () => {
    const run = runCli([
      "check",
      "--deployment-id",
      DEPLOYMENT,
      "--base-url",
      baseUrl,
      "--token",
      "wrong_token_value_42",
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).not.toContain("wrong_token_value_42");
  });

  it("ERROR exits 3 when nothing listens", () => {
    const run = runCli(
      ["check", "--deployment-id", DEPLOYMENT, "--base-url", "http://127.0.0.1:9/api", "--timeout", "2"],
      {
        env: { COMFYDEPLOY_API_KEY: TOKEN },
      },
    );
    expect(run.status).toBe(3);
    expect(run.stdout).toContain("ERROR");
  });

  it("--dry-run prints the request with the token redacted and sends nothing", () => {
    const run = runCli(["check", "--deployment-id", DEPLOYMENT, "--dry-run"], { env: { COMFYDEPLOY_API_KEY: TOKEN } });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("POST https://api.comfydeploy.com/api/run/deployment/queue");
    expect(run.stdout).toContain("Authorization: Bearer ***");
    expect(run.stdout).toContain('"partner_v2"');
    expect(run.stdout).not.toContain(TOKEN);
  });

  it("warns on stderr that a real check is a billed run (0.0.0.0 is local, but not a loopback name)", () => {
    const run = runCli(
      ["check", "--deployment-id", DEPLOYMENT, "--base-url", "http://0.0.0.0:9/api", "--timeout", "1", "--wait", "0"],
      {
        env: { COMFYDEPLOY_API_KEY: TOKEN },
      },
    );
    expect(run.stderr).toContain("GPU time is billed");
  });
});

describe("check usage errors", () => {
  it.each([
    [["check"], /--deployment-id is required/],
    [["check", "--deployment-id", "nope"], /must be a uuid/],
    [["check", "--deployment-id", DEPLOYMENT, "--base-url", "ftp://x"], /must be http/],
    [["check", "--deployment-id", DEPLOYMENT, "--base-url", "https://user:secret@x/api"], /must not carry credentials/],
  ])("%j exits 2", (args, message) => {
    const run = runCli(args, { env: { COMFYDEPLOY_API_KEY: TOKEN } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain("secret");
  });

  it("a missing token exits 2 with a hint", () => {
    const run = runCli(["check", "--deployment-id", DEPLOYMENT], { env: { COMFYDEPLOY_API_KEY: "" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("set COMFYDEPLOY_API_KEY");
  });
});

const fakes: Server[] = [];
afterEach(async () => {
  for (const server of fakes.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});

async function fakeApi(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  fakes.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

describe("check under hostile answers", () => {
  it("429 with Retry-After: 86400 and --wait 2 ends long before the Retry-After: UNKNOWN, exit 4, with the reason", async () => {
    const baseUrl = await fakeApi((req, res) => {
      req.resume();
      res
        .writeHead(429, { "retry-after": "86400", "content-type": "application/json" })
        .end('{"detail":"Too Many Requests"}');
    });
    const started = Date.now();
    const run = await runCliAsync(
      ["check", "--deployment-id", DEPLOYMENT, "--base-url", baseUrl, "--wait", "2", "--format", "json"],
      {
        env: { COMFYDEPLOY_API_KEY: TOKEN },
      },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(run.status, run.stderr).toBe(4);
    const report = JSON.parse(run.stdout) as { verdict: string; reason: string; httpStatus: number };
    expect([report.verdict, report.httpStatus]).toEqual(["UNKNOWN", 429]);
    expect(report.reason).toContain("Retry-After");
    // Bounded by --wait (2 s) plus start-up, nowhere near the 30 s back-off cap or the day asked for.
    expect(seconds).toBeLessThan(15);
  }, 60_000);

  it.each(["k", "Q7", "z9x"])("a %j token is masked even when the server echoes it", async (token) => {
    const baseUrl = await fakeApi((req, res) => {
      req.resume();
      const sent = /^Bearer (.*)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      res.writeHead(200, { "content-type": "application/json" }).end(`{"error": "token ${sent} is not allowed here"}`);
    });
    const run = await runCliAsync(["check", "--deployment-id", DEPLOYMENT, "--base-url", baseUrl, "--token", token], {
      env: { COMFYDEPLOY_API_KEY: "" },
    });
    expect(run.status).toBe(3);
    expect(run.stdout).toContain("token *** is not allowed");
    const echoed = new RegExp(`(^|[^A-Za-z0-9])${token}([^A-Za-z0-9]|$)`);
    expect(run.stdout + run.stderr).not.toMatch(echoed);
  });
});

describe("serve usage errors", () => {
  it.each([["0"], ["-5"], ["1.5"], ["many"]])("--max-runs %s exits 2", (value) => {
    const run = runCli(["serve", "--port", "0", "--max-runs", value]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--max-runs");
  });
});
