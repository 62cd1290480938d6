/**
 * Paths in every report start at the repository root (the git top level),
 * whichever directory or files were scanned; SARIF says which repository and
 * commit they belong to, without the credentials an origin URL may carry.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutCredentials } from "../../src/files/repo-root.js";
import { runCli } from "../helpers/cli.js";

/** The part of a SARIF result these tests read. */
type SarifResult = { locations: [{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }] };

const V1 = 'export const u = "https://www.comfydeploy.com/api";\n';
const TOKEN = "ghp_s3cretToken0123456789";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "cdm-paths-")));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@invalid", ...args], {
    cwd,
    encoding: "utf8",
    stdio: "pipe",
  }).trim();
}

const MONOREPO = {
  "packages/web/src/a.ts": V1,
  "packages/web/lib/b.ts": V1,
  "packages/web/other/c.ts": V1,
  "packages/api/d.ts": V1,
};

interface JsonReport {
  root: string;
  findings: Array<{ file: string; fingerprint: string }>;
}

describe("scan of a directory inside a git repository", () => {
  let repo: string;
  let head: string;
  beforeAll(() => {
    repo = tree(MONOREPO);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "remote", "add", "origin", `https://x-access-token:${TOKEN}@github.com/acme/mono.git`);
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    head = git(repo, "rev-parse", "HEAD");
  });

  it("writes JSON files and root relative to the git top level", () => {
    const run = runCli(["scan", "packages/web", "--format", "json", "--fail-on", "none"], { cwd: repo });
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.root).toBe(repo);
    expect(report.findings.map((f) => f.file)).toEqual([
      "packages/web/lib/b.ts",
      "packages/web/other/c.ts",
      "packages/web/src/a.ts",
    ]);
  });

  it("gives a finding the same fingerprint whether the repository or the directory was scanned", () => {
    const sub = JSON.parse(runCli(["scan", "packages/web", "--format", "json"], { cwd: repo }).stdout) as JsonReport;
    const whole = JSON.parse(runCli(["scan", ".", "--format", "json"], { cwd: repo }).stdout) as JsonReport;
    const fingerprints = new Map(whole.findings.map((f) => [f.file, f.fingerprint]));
    for (const f of sub.findings) expect(f.fingerprint).toBe(fingerprints.get(f.file));
  });

  it("writes SARIF URIs under %SRCROOT% = the top level, with the repository's provenance and no credentials", () => {
    const run = runCli(["scan", join(repo, "packages", "web"), "--format", "sarif"]);
    expect(run.stdout).not.toContain(TOKEN);
    const sarif = JSON.parse(run.stdout);
    const [sarifRun] = sarif.runs;
    expect(sarifRun.originalUriBaseIds["%SRCROOT%"].uri).toBe(pathToFileURL(`${repo}/`).href);
    expect(sarifRun.versionControlProvenance).toEqual([
      {
        repositoryUri: "https://github.com/acme/mono.git",
        revisionId: head,
        branch: "main",
        mappedTo: { uriBaseId: "%SRCROOT%" },
      },
    ]);
    const uris = sarifRun.results.map((r: SarifResult) => r.locations[0].physicalLocation.artifactLocation);
    expect(uris).toContainEqual({ uri: "packages/web/src/a.ts", uriBaseId: "%SRCROOT%" });
  });

  it("links Markdown lines and prints text headers from the top level", () => {
    const md = runCli(["scan", "packages/web", "--format", "markdown", "--repo-url", "https://github.com/acme/mono"], {
      cwd: repo,
      env: { GITHUB_SHA: head },
    }).stdout;
    expect(md).toContain(`(https://github.com/acme/mono/blob/${head}/packages/web/src/a.ts#L1)`);
    expect(md).toContain("<code>packages/web/src/a.ts</code>");
    const text = runCli(["scan", "web"], { cwd: join(repo, "packages") }).stdout;
    expect(text).toMatch(/^packages\/web\/lib\/b\.ts$/m);
    expect(text).not.toMatch(/^lib\/b\.ts$/m);
  });

  it("scans several paths and single files in one run, each reported from the top level", () => {
    const run = runCli(
      ["scan", "packages/web/src/a.ts", "packages/web/lib/", "packages/api/d.ts", "--format", "json"],
      { cwd: repo },
    );
    expect(run.status).toBe(1);
    const files = (JSON.parse(run.stdout) as JsonReport).findings.map((f) => f.file);
    expect(files).toEqual(["packages/api/d.ts", "packages/web/lib/b.ts", "packages/web/src/a.ts"]);
  });

  it("says so when a named file is ignored, and scans the rest", () => {
    const run = runCli(
      ["scan", "packages/web/src/a.ts", "packages/api/d.ts", "--exclude", "**/d.ts", "--format", "json"],
      { cwd: repo },
    );
    expect(run.stderr).toBe(
      "comfydeploy-migrate: packages/api/d.ts is ignored (.gitignore, --include or --exclude): not scanned\n",
    );
    expect((JSON.parse(run.stdout) as JsonReport).findings.map((f) => f.file)).toEqual(["packages/web/src/a.ts"]);
  });

  it("answers a path that does not exist with one line and exit 2", () => {
    const run = runCli(["scan", "packages/web", "packages/nope"], { cwd: repo });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")[0]).toBe("comfydeploy-migrate: path not found: packages/nope");
  });
});

describe("outside git", () => {
  it("makes paths relative to the scanned directory and writes no provenance", () => {
    const dir = tree(MONOREPO);
    const sarif = JSON.parse(runCli(["scan", join(dir, "packages", "web"), "--format", "sarif"]).stdout);
    expect(sarif.runs[0].versionControlProvenance).toBeUndefined();
    const uris = sarif.runs[0].results.map((r: SarifResult) => r.locations[0].physicalLocation.artifactLocation.uri);
    expect(uris.sort()).toEqual(["lib/b.ts", "other/c.ts", "src/a.ts"]);
  });

  it("still resolves several paths against their common directory", () => {
    const dir = tree(MONOREPO);
    const run = runCli(["scan", "packages/web/src/a.ts", "packages/api", "--format", "json"], { cwd: dir });
    expect((JSON.parse(run.stdout) as JsonReport).findings.map((f) => f.file)).toEqual(["api/d.ts", "web/src/a.ts"]);
  });
});

describe("remote URLs in reports", () => {
  it.each([
    [`https://x-access-token:${TOKEN}@github.com/acme/app.git`, "https://github.com/acme/app.git"],
    ["https://user@github.example.com/acme/app", "https://github.example.com/acme/app"],
    [`https://github.example.com/acme/app.git?access_token=${TOKEN}`, "https://github.example.com/acme/app.git"],
    [`ssh://git:${TOKEN}@github.com/acme/app.git`, "ssh://github.com/acme/app.git"],
    ["git@github.com:acme/app.git", "ssh://github.com/acme/app.git"],
    ["/srv/git/app.git", "file:///srv/git/app.git"],
  ])("%s becomes %s", (remote, uri) => {
    expect(withoutCredentials(remote)).toBe(uri);
  });
});
