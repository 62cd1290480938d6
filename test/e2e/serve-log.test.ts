/** `serve` logs one line per request, as dev servers do; --no-log keeps stdout to the banner. */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exited;
  }
});

async function serve(args: string[]): Promise<{ baseUrl: string; output: () => string }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--host", "127.0.0.1", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  return { baseUrl, output: () => out };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((done) => setTimeout(done, 20));
}

describe("serve's request log", () => {
  it("prints method, path, status and milliseconds per request", async () => {
    const { baseUrl, output } = await serve([]);
    await fetch(`${baseUrl}/run/00000000-0000-4000-8000-000000000000`);
    await fetch(`${baseUrl}/run/deployment/queue`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    await fetch(`${baseUrl}/x%1b`);
    await until(() => output().split("\n").length > 5);
    expect(output()).toMatch(/^GET \/api\/run\/00000000-0000-4000-8000-000000000000 \d{3} \d+ms$/m);
    expect(output()).toMatch(/^POST \/api\/run\/deployment\/queue \d{3} \d+ms$/m);
    expect(output()).toMatch(/^GET \/api\/x%1b 404 \d+ms$/m);
  });

  it("is off with --no-log", async () => {
    const { baseUrl, output } = await serve(["--no-log"]);
    await fetch(`${baseUrl}/run/00000000-0000-4000-8000-000000000000`);
    await new Promise((done) => setTimeout(done, 200));
    expect(output()).not.toMatch(/^GET /m);
  });
});
