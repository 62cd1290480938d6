/** `serve` as a user runs it: options that cannot work are usage errors, and each request is logged on stderr without secrets. */
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";

const TOKEN = "cd_live_serve_log_token_7e6d5c";
const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Starts `serve`; resolves with its base URL, what it printed on stderr so far, and a stop that waits for its exit. */
async function serve(args: string[]) {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const baseUrl = await new Promise<string | undefined>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => resolve(undefined));
  });
  return {
    baseUrl,
    stderr: () => stderr,
    exited,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

describe("usage errors", () => {
  it.each([
    [["--max-body", "-1"], "--max-body"],
    [["--step-ms", "-100"], "--step-ms"],
    [["--max-store-bytes", "0"], "--max-store-bytes"],
    [["--latency", "-5"], "--latency"],
  ])("serve %j exits 2 with one line naming the option", async (args, option) => {
    const run = await serve(args);
    const code = await Promise.race([
      run.exited,
      new Promise((done) => setTimeout(() => done("still running"), 10_000)),
    ]);
    expect(run.baseUrl).toBeUndefined();
    expect(code).toBe(2);
    expect(run.stderr().split("\n")[0]).toContain(option);
    expect(run.stderr()).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe("request log", () => {
  it("one line per request on stderr: method, path, status, time; never the token, query secrets masked", async () => {
    const run = await serve(["--token", TOKEN, "--step-ms", "60000"]);
    const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    const queued = await request(`${run.baseUrl}/run/deployment/queue`, {
      method: "POST",
      headers,
      body: JSON.stringify({ deployment_id: DEPLOYMENT }),
    });
    const { run_id } = (await queued.body.json()) as { run_id: string };
    await (await request(`${run.baseUrl}/run/${run_id}?token=${TOKEN}&view=full`, { headers })).body.dump();
    await (await request(`${run.baseUrl}/nothing`, { headers })).body.dump();
    expect(await run.stop()).toBe(0);

    const lines = run.stderr().trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^POST \/api\/run\/deployment\/queue 200 \d+ ms$/);
    expect(lines[1]).toMatch(new RegExp(`^GET /api/run/${run_id}\\?token=\\*\\*\\*&view=full 200 \\d+ ms$`));
    expect(lines[2]).toMatch(/^GET \/api\/nothing 404 \d+ ms$/);
    expect(run.stderr()).not.toContain(TOKEN);
  });

  it("--quiet logs nothing", async () => {
    const run = await serve(["--quiet"]);
    await (await request(`${run.baseUrl}/nothing`, { headers: { authorization: "Bearer t" } })).body.dump();
    expect(await run.stop()).toBe(0);
    expect(run.stderr()).toBe("");
  });
});
