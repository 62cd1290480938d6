/** The pieces of `pr` that need no git or network: repository resolution, identities, the body's budget. */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/core/finding.js";
import { renderPrBody } from "../../src/pr/body.js";
import { BOT_IDENTITY, parseIdentity } from "../../src/pr/identity.js";
import { parseRemoteUrl, resolveRepository } from "../../src/pr/repository.js";
import { buildReport } from "../../src/report/model.js";

describe("repository resolution", () => {
  it.each([
    ["https://github.com/acme/app.git", { owner: "acme", name: "app", serverUrl: "https://github.com" }],
    [
      "https://x-access-token:ghs_secret@github.com/acme/app",
      { owner: "acme", name: "app", serverUrl: "https://github.com" },
    ],
    ["git@github.com:acme/app.git", { owner: "acme", name: "app", serverUrl: "https://github.com" }],
    [
      "ssh://git@ghe.example.com:2222/acme/app.git",
      { owner: "acme", name: "app", serverUrl: "https://ghe.example.com" },
    ],
  ])("parses %s", (url, expected) => {
    expect(parseRemoteUrl(url)).toEqual(expected);
  });

  it.each(["/tmp/origin.git", "file:///tmp/origin.git", "https://github.com/acme"])("does not guess from %s", (url) => {
    expect(parseRemoteUrl(url)).toBeUndefined();
  });

  it("prefers --repo, then GITHUB_REPOSITORY, then origin; empty variables count as unset", () => {
    const env = { GITHUB_REPOSITORY: "from/env", GITHUB_SERVER_URL: "", GITHUB_API_URL: "" };
    const origin = "git@github.com:from/origin.git";
    expect(resolveRepository({ repo: "from/flag", originUrl: origin, env })).toMatchObject({
      owner: "from",
      name: "flag",
      apiUrl: "https://api.github.com",
    });
    expect(resolveRepository({ originUrl: origin, env })).toMatchObject({
      owner: "from",
      name: "env",
      serverUrl: "https://github.com",
    });
    expect(resolveRepository({ originUrl: origin, env: {} })).toMatchObject({ owner: "from", name: "origin" });
    expect(resolveRepository({ originUrl: "/tmp/x.git", env: {} })).toBeUndefined();
  });

  it("takes GitHub Enterprise URLs from Actions' environment", () => {
    const repo = resolveRepository({
      env: {
        GITHUB_REPOSITORY: "a/b",
        GITHUB_SERVER_URL: "https://ghe.example.com",
        GITHUB_API_URL: "https://ghe.example.com/api/v3",
      },
    });
    expect(repo).toMatchObject({ serverUrl: "https://ghe.example.com", apiUrl: "https://ghe.example.com/api/v3" });
  });

  it("rejects a malformed --repo and an --api-url with credentials", () => {
    expect(() => resolveRepository({ repo: "just-a-name", env: {} })).toThrow(/owner\/name/);
    expect(() => resolveRepository({ repo: "a/b", apiUrl: "https://u:p@api.github.com", env: {} })).toThrow(
      /credentials/,
    );
  });
});

describe("commit identity", () => {
  it("parses Name <email> and refuses anything else", () => {
    expect(parseIdentity("Jane Doe <jane@example.com>", "--author")).toEqual({
      name: "Jane Doe",
      email: "jane@example.com",
    });
    expect(parseIdentity(undefined, "--author")).toBeUndefined();
    expect(() => parseIdentity("jane@example.com", "--author")).toThrow(/Name <email/);
    expect(BOT_IDENTITY.email).toMatch(/@users\.noreply\.github\.com$/);
  });
});

describe("pull request body", () => {
  const finding = (file: string, line: number): Finding => ({
    ruleId: "legacy-base-url",
    severity: "error",
    file,
    line,
    column: 1,
    endLine: line,
    endColumn: 10,
    message: "V1 API host https://www.comfydeploy.com/api: use https://api.comfydeploy.com/api",
    fix: "auto",
    excerpt: 'const BASE = "https://www.comfydeploy.com/api";',
  });

  it("stays under GitHub's 65,536-character limit however much there is to say", () => {
    const files = Array.from({ length: 4000 }, (_, i) => `packages/pkg-${i}/src/services/comfy-client-${i}.ts`);
    const remaining = buildReport(
      {
        root: "/r",
        findings: files.flatMap((f) => [finding(f, 3), finding(f, 9)]),
        skipped: [],
        stats: { listed: 9000, candidates: 4000, analysed: 4000, textOnly: 0, listing: "git" },
      },
      {
        command: "npx comfydeploy-migrate scan .",
        repo: { url: "https://github.com/acme/app", commit: "0123456789abcdef0123456789abcdef01234567" },
      },
    );
    const body = renderPrBody({
      changes: files.map((file) => ({
        file,
        events: [
          {
            kind: "rewrite",
            ruleId: "legacy-create-run",
            line: 12,
            message: "POST {base}/run -> POST {base}/run/deployment/queue",
          },
          { kind: "marker", ruleId: "v1-sdk-call", line: 30, message: "runSync has no V2 equivalent" },
        ],
      })),
      reviewItems: files.map((file) => ({
        file,
        line: 31,
        text: "v1-sdk-call: runSync has no V2 equivalent: queue, then poll run.get",
      })),
      remaining,
      command: "npx comfydeploy-migrate pr . --labels migration",
      tool: { name: "comfydeploy-migrate", version: "9.9.9" },
    });
    expect(body.length).toBeLessThan(65_536);
    for (const part of [
      "## What changed",
      "**4000 files changed**",
      "## Needs review",
      "more marker",
      "## Remaining findings after the fix",
      "Created by comfydeploy-migrate 9.9.9",
    ]) {
      expect(body).toContain(part);
    }
    expect(body.trimEnd().endsWith("```")).toBe(true);
    expect(body).toContain(
      "https://github.com/acme/app/blob/0123456789abcdef0123456789abcdef01234567/packages/pkg-0/src/services/comfy-client-0.ts#L31",
    );
  });

  it("shows HTML-looking text instead of letting GitHub swallow it", () => {
    const remaining = buildReport(
      {
        root: "/r",
        findings: [],
        skipped: [],
        stats: { listed: 1, candidates: 0, analysed: 0, textOnly: 0, listing: "git" },
      },
      { command: "x" },
    );
    const body = renderPrBody({
      changes: [
        {
          file: "a.ts",
          events: [
            {
              kind: "rewrite",
              ruleId: "legacy-get-run",
              line: 1,
              message: "GET {base}/run?run_id=<id> -> GET {base}/run/{run_id}",
            },
          ],
        },
      ],
      reviewItems: [],
      remaining,
      command: "npx comfydeploy-migrate pr",
      tool: { name: "comfydeploy-migrate", version: "1.0.0" },
    });
    expect(body).toContain("run_id=&lt;id&gt;");
    expect(body).toContain("No review markers");
  });
});
