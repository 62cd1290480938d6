/**
 * The git runner: a scanned repository's own configuration runs nothing
 * (fsmonitor, hooks), git sees no token it was not handed for a network
 * command, and the safe settings win over the repository's.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitCallEnv, runGit, streamGit, subcommandOf } from "../../src/platform/git.js";
import { runCli, runCliAsync } from "../helpers/cli.js";
import { FakeGitHub } from "../helpers/fake-github.js";
import { demoRepository, git } from "../helpers/git-repo.js";
import { tempDir } from "../helpers/temp-repo.js";

const TOKEN = "ghs_gitRunnerSentinel0123456789abcdef";

/** The config entries an environment hands git (GIT_CONFIG_COUNT/KEY/VALUE). */
function configOf(env: NodeJS.ProcessEnv): Array<[string, string]> {
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  return Array.from({ length: count }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`]!, env[`GIT_CONFIG_VALUE_${i}`]!]);
}

describe("gitCallEnv", () => {
  const saved = { ...process.env };
  beforeAll(() => {
    Object.assign(process.env, {
      GITHUB_TOKEN: TOKEN,
      GH_TOKEN: TOKEN,
      COMFYDEPLOY_API_KEY: TOKEN,
      GIT_ASKPASS: "/bin/askpass",
      MY_SERVICE_TOKEN: TOKEN,
    });
  });
  afterAll(() => {
    for (const key of ["GITHUB_TOKEN", "GH_TOKEN", "COMFYDEPLOY_API_KEY", "GIT_ASKPASS", "MY_SERVICE_TOKEN"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it("drops every token, and askpass programs from commands that reach no remote", () => {
    const env = gitCallEnv(["status"]);
    expect(Object.values(env)).not.toContain(TOKEN);
    expect(env.GIT_ASKPASS).toBeUndefined();
    expect(gitCallEnv(["fetch", "origin"]).GIT_ASKPASS).toBe("/bin/askpass");
  });

  it("turns fsmonitor, hooks and the ext transport off on every call", () => {
    const config = new Map(configOf(gitCallEnv(["-c", "core.quotepath=off", "ls-files"])));
    expect(config.get("core.fsmonitor")).toBe("false");
    expect(config.get("core.hooksPath")).toBe("/dev/null");
    expect(config.get("protocol.ext.allow")).toBe("never");
  });

  it("hands a credential to network commands only", () => {
    const credentials = [["http.https://github.com/.extraheader", `AUTHORIZATION: basic ${TOKEN}`]] as const;
    expect(Object.values(gitCallEnv(["status"], { credentials }))).not.toContain(`AUTHORIZATION: basic ${TOKEN}`);
    expect(configOf(gitCallEnv(["push", "origin"], { credentials }))).toContainEqual([...credentials[0]]);
    expect(subcommandOf(["-C", "dir", "-c", "a=b", "ls-remote", "x"])).toBe("ls-remote");
  });
});

describe("a repository whose .git/config names an fsmonitor and hooks", () => {
  const github = new FakeGitHub(TOKEN);
  github.addRepository({ owner: "acme", name: "demo", defaultBranch: "main" });
  let work = "";
  let spyLog = "";

  beforeAll(async () => {
    await github.start();
    const dir = tempDir("cdm-git-spy-");
    work = demoRepository(dir).work;
    spyLog = join(dir, "spy.log");
    const spy = join(dir, "spy.sh");
    writeFileSync(spy, `#!/bin/sh\necho "$0 $*" >> '${spyLog}'\nenv >> '${spyLog}'\n`);
    chmodSync(spy, 0o755);
    const hooks = join(dir, "hooks");
    mkdirSync(hooks);
    for (const hook of [
      "pre-commit",
      "post-checkout",
      "pre-push",
      "reference-transaction",
      "post-index-change",
      "post-commit",
    ]) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\n'${spy}' ${hook}\n`);
      chmodSync(join(hooks, hook), 0o755);
    }
    git(work, "config", "core.fsmonitor", spy);
    writeFileSync(
      join(work, ".git", "config"),
      `${readFileSync(join(work, ".git", "config"), "utf8")}[core]\n\thooksPath = ${hooks}\n`,
    );
  });
  afterAll(() => github.stop());

  it("the runner itself does not run them", async () => {
    expect((await runGit(work, ["status", "--porcelain"])).code).toBe(0);
    expect(existsSync(spyLog)).toBe(false);
  });

  it("the streaming call runs with the same safe settings and hands over the whole output", async () => {
    const chunks: Buffer[] = [];
    const result = await streamGit(work, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], (chunk) =>
      chunks.push(chunk),
    );
    expect(result.code).toBe(0);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(
      (await runGit(work, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])).stdout,
    );
    expect(chunks.length).toBeGreaterThan(0);
    const hooksPath: Buffer[] = [];
    await streamGit(work, ["config", "--get", "core.hooksPath"], (chunk) => hooksPath.push(chunk));
    expect(Buffer.concat(hooksPath).toString("utf8").trim()).toBe("/dev/null");
    expect(existsSync(spyLog)).toBe(false);
  });

  it("scan, pr and fix run neither", async () => {
    expect(runCli(["scan", "."], { cwd: work }).status).toBe(1);
    const pr = await runCliAsync(["pr", ".", "--repo", "acme/demo", "--api-url", github.url, "--no-verify"], {
      cwd: work,
      env: {
        GITHUB_TOKEN: TOKEN,
        GH_TOKEN: "",
        GITHUB_REPOSITORY: "",
        GITHUB_API_URL: "",
        GITHUB_OUTPUT: "",
        COMFYDEPLOY_API_KEY: "",
      },
    });
    expect(pr.status, pr.stderr).toBe(0);
    expect(runCli(["fix", "."], { cwd: work }).status).not.toBe(2);
    expect(existsSync(spyLog) ? readFileSync(spyLog, "utf8") : "").toBe("");
  });
});
