/**
 * The hints at the end of scan and fix lead somewhere: the command they
 * suggest does what they say, with the options that shaped the run, and a
 * fix that exits 1 names what is left.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { git } from "../helpers/git-repo.js";
import { tempRepo } from "../helpers/temp-repo.js";

const lastLine = (out: string): string => out.trimEnd().split("\n").pop()!;
/** The command as the tests start it (`node …/cli.js`), which is how hints print it back. */
const INVOKED = String.raw`(?:comfydeploy-migrate|node \S*cli\.js)`;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A committed repository, so fix runs without --allow-dirty. */
function repo(files: Record<string, string>): string {
  const dir = tempRepo(files);
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "app");
  return dir;
}

const UNUSED_DEPENDENCY = {
  "package.json": '{ "name": "app", "dependencies": { "comfydeploy": "^0.0.19" } }\n',
  "index.js": "console.log(1);\n",
};

const MARKED_REQUEST = {
  "runs.js": [
    'const apiBase = "https://www.comfydeploy.com/api";',
    "export async function queue(prompt, trace) {",
    "  const url = `${apiBase}/run`;",
    "  trace(url);",
    '  return fetch(url, { method: "POST", body: JSON.stringify({ deployment_id: "d", inputs: { prompt } }) });',
    "}",
    "",
  ].join("\n"),
};

describe("fix --dry-run", () => {
  it("suggests applying it with the options that shaped the preview", () => {
    const dir = repo(UNUSED_DEPENDENCY);
    const dry = runCli(["fix", dir, "--remove-unused", "--dry-run"]);
    expect(dry.stdout).toContain("would change 1 file");
    const next = new RegExp(`^Next: apply it with \`${INVOKED} (fix .*)\`$`).exec(lastLine(dry.stdout));
    expect(next?.[1]).toBe(`fix ${dir} --remove-unused`);
    // The suggested command makes the change the preview showed.
    expect(runCli(next![1]!.split(" ")).status).toBe(0);
    expect(readFileSync(join(dir, "package.json"), "utf8")).not.toContain("comfydeploy");
  });
});

describe("scan after fix", () => {
  it("leads to the markers, not to a fix --dry-run that would change nothing", () => {
    const dir = repo(MARKED_REQUEST);
    runCli(["fix", dir]);
    const next = lastLine(runCli(["scan", dir]).stdout);
    expect(next).not.toContain("fix");
    expect(next).toMatch(
      new RegExp(`^Next: resolve the 1 review marker: \`${INVOKED} scan .* --rule review-marker\`$`),
    );
    expect(runCli(["fix", dir, "--dry-run"]).stdout).toContain("would change 0 files");
  });
});

describe("fix exiting 1", () => {
  it("names the findings left, with file:line and rule, and where the full list is", () => {
    const dir = repo(UNUSED_DEPENDENCY);
    const fixed = runCli(["fix", dir]);
    expect(fixed.status).toBe(1);
    expect(fixed.stdout).toMatch(
      new RegExp(
        `1 finding left at --fail-on error: package\\.json:1 v1-sdk-dependency\\. All of them: \`${INVOKED} scan ${escapeRegExp(dir)}\``,
      ),
    );
    const dry = runCli(["fix", dir, "--dry-run"]);
    expect(dry.status).toBe(1);
    expect(dry.stdout).toContain("1 finding left at --fail-on error: package.json:1 v1-sdk-dependency.");
  });

  it("names the first five and counts the rest", () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 7; i++) files[`pkg${i}/package.json`] = UNUSED_DEPENDENCY["package.json"];
    const fixed = runCli(["fix", repo(files)]);
    expect(fixed.status).toBe(1);
    expect(fixed.stdout).toMatch(
      /7 findings left at --fail-on error: pkg1\/package\.json:\d+ v1-sdk-dependency, (.*?, ){3}pkg5\/package\.json:\d+ v1-sdk-dependency, and 2 more\./,
    );
  });
});
