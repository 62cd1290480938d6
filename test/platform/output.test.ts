/** Report paths that are not files to replace (a FIFO, /dev/stdout, a process substitution) are written to, and stay what they are. */
import { spawnSync } from "node:child_process";
import { createReadStream, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { colorEnabled, writeOutput } from "../../src/platform/output.js";
import { CLI } from "../helpers/cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const V1_APP = { "app.ts": 'fetch("https://www.comfydeploy.com/api/run", { method: "POST" });\n' };

describe("writeOutput to something other than a regular file", () => {
  it("writes into a FIFO, which stays a FIFO", { timeout: 10_000 }, async () => {
    const fifo = join(tempDir(), "report.pipe");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const received = new Promise<string>((done, fail) => {
      let text = "";
      createReadStream(fifo, "utf8")
        .on("data", (chunk) => (text += chunk))
        .on("end", () => done(text))
        .on("error", fail);
    });
    await writeOutput("the report\n", fifo);
    expect(await received).toBe("the report\n");
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("writes a new regular file, and replaces an existing one whole", async () => {
    const file = join(tempDir(), "sub", "report.json");
    await writeOutput("first\n", file);
    await writeOutput("second\n", file);
    expect(readFileSync(file, "utf8")).toBe("second\n");
  });

  it("scan -o /dev/stdout writes to the pipe that is stdout", () => {
    const repo = tempRepo(V1_APP);
    const result = spawnSync(process.execPath, [CLI, "scan", repo, "--format", "json", "-o", "/dev/stdout"], {
      encoding: "utf8",
      env: { ...process.env, GITHUB_ACTIONS: "" },
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).summary.total).toBeGreaterThan(0);
  });

  it("scan -o >(…) writes to the process substitution", () => {
    const repo = tempRepo(V1_APP);
    const out = join(tempDir(), "copied.json");
    const script = `"$0" "$1" scan "$2" --format json -o >(cat > "$3"); status=$?; wait; exit $status`;
    const result = spawnSync("bash", ["-c", script, process.execPath, CLI, repo, out], {
      encoding: "utf8",
      env: { ...process.env, GITHUB_ACTIONS: "" },
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(readFileSync(out, "utf8")).summary.total).toBeGreaterThan(0);
  });
});

describe("colorEnabled", () => {
  it("takes FORCE_COLOR=0 and FORCE_COLOR=false as off, as chalk and Node do", () => {
    expect(colorEnabled(undefined, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorEnabled(undefined, { FORCE_COLOR: "false" })).toBe(false);
  });

  it("lets --color and --no-color decide over the environment", () => {
    expect(colorEnabled(true, { FORCE_COLOR: "0" })).toBe(true);
    expect(colorEnabled(false, { FORCE_COLOR: "1" })).toBe(false);
  });
});
