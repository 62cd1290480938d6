#!/usr/bin/env node
// The whole flow on the demo app, offline: scan → fix --dry-run → check against the local emulator.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const demo = "fixtures/demo-app";
const deployment = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
const token = "demo-local-token";

function step(title, args, env = {}) {
  process.stdout.write(`\n=== ${title}: comfydeploy-migrate ${args.join(" ")}\n`);
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  process.stdout.write(`=== exit ${run.status}\n`);
  return run.status;
}

const server = spawn(
  process.execPath,
  [cli, "serve", "--port", "0", "--token", token, "--step-ms", "200", "-d", `${deployment}:A100`],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const baseUrl = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (chunk) => {
    out += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  server.on("exit", (code) => reject(new Error(`serve exited with ${code}`)));
});

let failed = false;
try {
  step("1. scan", ["scan", demo, "--fail-on", "none"]);
  if (![0, 1].includes(step("2. fix (dry run)", ["fix", demo, "--dry-run", "--fail-on", "none"]))) failed = true;
  if (
    step(
      "3. live check against the emulator",
      ["check", "--deployment-id", deployment, "--base-url", baseUrl, "--wait", "30"],
      { COMFYDEPLOY_API_KEY: token },
    ) !== 0
  ) {
    failed = true;
  }
} finally {
  server.kill("SIGTERM");
}
process.exitCode = failed ? 1 : 0;
