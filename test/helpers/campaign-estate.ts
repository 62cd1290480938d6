/**
 * A small estate of real git repositories for campaign tests, built in a
 * temp directory: each has a bare origin on disk (what the campaign clones)
 * and a work tree to commit more from. Their content is copied at test time
 * from fixtures/demo-app and fixtures/rules/files, so each repository has a
 * different V1 shape; one has no V1 use, and "ghost" has no origin at all.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "./cli.js";
import { git } from "./git-repo.js";
import { tempDir } from "./temp-repo.js";

const FIXTURES = join(REPO_ROOT, "fixtures");

/** Files copied into each repository: [fixture directory, where it goes in the repository]. */
export const SHAPES: Record<string, Array<[string, string]>> = {
  // The JS/TS demo app: V1 SDK, V1 endpoints, an old SDK in package.json.
  "web-app": [["demo-app", ""]],
  // A worker image build: an outdated ComfyUI node pin and a floating worker image.
  "comfy-worker": [
    ["rules/files/node-pins/dockerfile-reset-outdated", ""],
    ["rules/files/worker-image/from-latest", "images"],
  ],
  // A Python service calling the V1 endpoints over HTTP.
  "py-service": [["rules/files/python/code-http", ""]],
  // A monorepo: a Go client at the root, the Python bot under packages/bot (the campaign scans only the latter).
  bots: [
    ["rules/files/other-languages/go-client", ""],
    ["rules/files/python/code-bearer-auth-unpinned", "packages/bot"],
  ],
};

export const CLEAN = "clean-api";
export const GHOST = "ghost";

export interface Estate {
  dir: string;
  /** Bare origin of each repository (ghost's does not exist). */
  origin(name: string): string;
  work(name: string): string;
  /** Commits files (path → content) in a repository's work tree and pushes them to its origin. */
  commit(name: string, files: Record<string, string>, message?: string): string;
  /** Writes a campaign file in the estate's directory and returns its path. */
  campaignFile(yaml: string, fileName?: string): string;
  remove(): void;
}

function copyFixture(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry === "expected.json") continue; // the fixture's own expectations are not part of the app
    cpSync(join(from, entry), join(to, entry), { recursive: true });
  }
}

export function createEstate(names: readonly string[] = [...Object.keys(SHAPES), CLEAN]): Estate {
  // Removed by remove(), and after the test file in any case (also when building the estate fails).
  const dir = tempDir("cdm-campaign-");
  const origin = (name: string): string => join(dir, "origins", `${name}.git`);
  const work = (name: string): string => join(dir, "work", name);
  const estate: Estate = {
    dir,
    origin,
    work,
    commit(name, files, message = "change") {
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(work(name), file)), { recursive: true });
        writeFileSync(join(work(name), file), content);
      }
      git(work(name), "add", "-A");
      git(work(name), "commit", "-qm", message);
      git(work(name), "push", "-q", "origin", "HEAD:main");
      return git(work(name), "rev-parse", "HEAD");
    },
    campaignFile(yaml, fileName = "campaign.yml") {
      const path = join(dir, fileName);
      writeFileSync(path, yaml);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (const name of names) {
    mkdirSync(work(name), { recursive: true });
    if (name === CLEAN) {
      writeFileSync(
        join(work(name), "package.json"),
        `${JSON.stringify({ name: "clean-api", version: "1.0.0", dependencies: { express: "^4.19.2" } }, null, 2)}\n`,
      );
      writeFileSync(
        join(work(name), "src-index.ts"),
        "export function health(): { ok: boolean } {\n  return { ok: true };\n}\n",
      );
    } else {
      for (const [fixture, target] of SHAPES[name] ?? [])
        copyFixture(join(FIXTURES, fixture), join(work(name), target));
    }
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin(name)]);
    git(work(name), "init", "-q", "-b", "main");
    git(work(name), "add", "-A");
    git(work(name), "commit", "-qm", `${name}: first commit`);
    git(work(name), "remote", "add", "origin", origin(name));
    git(work(name), "push", "-q", "origin", "main");
  }
  return estate;
}
