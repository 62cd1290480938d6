/** scan --online settles unknown node pins through a (fake, local) GitHub compare API. */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runCliAsync } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-repo.js";

const AHEAD = "1111111111111111111111111111111111111111";
const BEHIND = "2222222222222222222222222222222222222222";

describe("scan --online", () => {
  it("drops pins GitHub says contain v2.1.0 and raises those behind it to errors", async () => {
    const calls: string[] = [];
    const server = createServer((req, res) => {
      calls.push(req.url ?? "");
      const status = req.url?.includes(AHEAD) ? "ahead" : "behind";
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status, ahead_by: 1, behind_by: 1 }));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const dir = tempDir("cdm-online-");
      writeFileSync(
        join(dir, "Dockerfile"),
        [
          "FROM python:3.11",
          `RUN git clone https://github.com/BennyKok/comfyui-deploy.git /n1 && cd /n1 && git reset --hard ${AHEAD}`,
          `RUN git clone https://github.com/BennyKok/comfyui-deploy.git /n2 && cd /n2 && git reset --hard ${BEHIND}`,
          "",
        ].join("\n"),
      );
      const offline = JSON.parse(runCli(["scan", dir, "--format", "json"]).stdout);
      expect(offline.findings.map((f: { severity: string }) => f.severity)).toEqual(["warning", "warning"]);

      const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { XDG_CACHE_HOME: tempDir("cdm-cache-"), GITHUB_TOKEN: "ghp_faketoken_for_tests_000" };
      const online = await runCliAsync(["scan", dir, "--format", "json", "--online", "--github-api-url", api], { env });
      const report = JSON.parse(online.stdout);
      expect(report.findings.map((f: { line: number; severity: string }) => [f.line, f.severity])).toEqual([
        [3, "error"],
      ]);
      expect(calls).toHaveLength(2);
      expect(online.stdout + online.stderr).not.toContain("ghp_faketoken_for_tests_000");
    } finally {
      server.close();
    }
  });
});
