/**
 * The node pin decision, the pin scanners (node component and worker image)
 * and the online resolver against a local fake of the GitHub compare API.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../../../../src/core/finding.js";
import { NODE_COMPONENT } from "../../../../src/knowledge/migration.js";
import {
  decideCommit,
  decideGitRef,
  decideRegistryVersion,
  NODE_REF_TARGET,
  verdictFromComparison,
} from "../../../../src/knowledge/node-ref.js";
import { defaultCompareCacheFile } from "../../../../src/pins/compare-cache.js";
import { resolveUnknownNodePins } from "../../../../src/pins/github-compare.js";
import { readDockerfile } from "../../../../src/lang/shell/dockerfile.js";
import { scanNodePins } from "../../../../src/scan/scanners/machine/node-pins.js";
import { submodulePins } from "../../../../src/scan/scanners/machine/node-pin-submodules.js";
import { isNodeRepositoryUrl, nodeSourceOf } from "../../../../src/scan/scanners/machine/node-source-url.js";
import { readShell } from "../../../../src/lang/shell/words.js";
import { decideWorkerTag, scanWorkerImages } from "../../../../src/scan/scanners/machine/worker-image.js";
import { factsOf, type NodePinFormat } from "../../../../src/core/facts.js";

const V210 = "62f8e388bb5217bb0472cb14bd7bf2d417225017";
const V233 = "7d65d23f84d7ec3e9772d00f62146cbe36e3d267";
const V200 = "7e640a0da474d8d8a788ff20dda9eee100dd69a2";
const OLD = "73853a60ff48a83fff1f71c6f7b26104ca75123d";
const UNKNOWN = "c0ffee5ab1e2d3c4f5a6b7c8d9e0f1a2b3c4d5e6";
const UNKNOWN_2 = "deadbeefcafe0123456789abcdef0123456789ab";

function pins(file: string, text: string): Finding[] {
  return scanNodePins({
    file,
    text,
    repo: { root: tmpdir(), files: [], sdkImportingPackages: new Set(), read: () => undefined },
  });
}

function brief(
  findings: Finding[],
): Array<{ line: number; column: number; verdict?: string | undefined; ref?: string | undefined }> {
  return findings.map((f) => ({
    line: f.line,
    column: f.column,
    verdict: pinFacts(f)?.verdict,
    ref: pinFacts(f)?.ref,
  }));
}

const pinFacts = (finding: Finding) => factsOf(finding, "node-pin");

describe("node ref decision", () => {
  it("decides commits from the tag table by prefix, the known-outdated list, and nothing else", () => {
    expect(decideCommit(V200)).toMatchObject({ verdict: "outdated", refKind: "sha", release: "v2.0.0" });
    expect(decideCommit(V210)).toMatchObject({ verdict: "ok", release: "v2.1.0" });
    expect(decideCommit(V233.slice(0, 7))).toMatchObject({ verdict: "ok", release: "v2.3.3" });
    expect(decideCommit(OLD.toUpperCase())).toMatchObject({ verdict: "outdated" });
    expect(decideCommit(OLD.slice(0, 8))).toMatchObject({ verdict: "outdated" });
    expect(decideCommit(UNKNOWN)).toMatchObject({ verdict: "unknown", doubt: "unknown-commit" });
  });

  it("calls a prefix matching several known commits ambiguous", () => {
    const known = {
      tags: [{ tag: "v2.3.3", commit: `abcdef1${"0".repeat(33)}` }],
      knownOutdatedCommits: [`abcdef1${"1".repeat(33)}`],
    };
    expect(decideCommit("abcdef1", known)).toMatchObject({ verdict: "unknown", doubt: "ambiguous" });
    expect(decideCommit("abcdef10", known)).toMatchObject({ verdict: "ok", release: "v2.3.3" });
  });

  it("decides tags, branches and moving refs", () => {
    expect(decideGitRef("v2.0.0")).toMatchObject({ verdict: "outdated", refKind: "tag" });
    expect(decideGitRef("refs/tags/v0.1.3")).toMatchObject({ verdict: "outdated", refKind: "tag", release: "v0.1.3" });
    expect(decideGitRef("v2.1.0")).toMatchObject({ verdict: "ok" });
    expect(decideGitRef("v2.3.10")).toMatchObject({ verdict: "ok" });
    // Not in the table: decided by the version in its name.
    expect(decideGitRef("v2.4.0")).toMatchObject({ verdict: "ok", refKind: "tag" });
    expect(decideGitRef("v1.9.0")).toMatchObject({ verdict: "outdated", refKind: "tag" });
    for (const ref of ["main", "HEAD", "origin/main", "refs/heads/v2.3.3", "", undefined]) {
      expect(decideGitRef(ref)).toMatchObject({ verdict: "unpinned", refKind: "none" });
    }
    expect(decideGitRef("abc12")).toMatchObject({ verdict: "unknown", doubt: "too-short" });
  });

  it("compares registry versions with 2.1.0", () => {
    expect(decideRegistryVersion("2.0.0")).toMatchObject({ verdict: "outdated", refKind: "version" });
    expect(decideRegistryVersion("1.1.0")).toMatchObject({ verdict: "outdated" });
    expect(decideRegistryVersion("v2.0.0")).toMatchObject({ verdict: "outdated" });
    expect(decideRegistryVersion("2.1.0")).toMatchObject({ verdict: "ok" });
    expect(decideRegistryVersion("2.3.1")).toMatchObject({ verdict: "ok" });
    expect(decideRegistryVersion("latest")).toMatchObject({ verdict: "unpinned" });
    expect(decideRegistryVersion(undefined)).toMatchObject({ verdict: "unpinned" });
    expect(decideRegistryVersion("banana")).toMatchObject({ verdict: "unknown", doubt: "not-a-version" });
  });

  it("maps compare statuses and names the fix targets from the migration data", () => {
    expect(verdictFromComparison("ahead")).toBe("ok");
    expect(verdictFromComparison("identical")).toBe("ok");
    expect(verdictFromComparison("behind")).toBe("outdated");
    expect(verdictFromComparison("diverged")).toBe("outdated");
    expect(verdictFromComparison("weird")).toBe("unknown");
    expect(NODE_REF_TARGET).toEqual({ sha: NODE_COMPONENT.minimumCommit, tag: "v2.1.0", version: "2.1.0" });
  });
});

describe("node repository URLs", () => {
  it("recognises the repository in any spelling and the ref an URL carries", () => {
    for (const url of [
      "https://github.com/BennyKok/comfyui-deploy",
      "https://github.com/BennyKok/comfyui-deploy.git",
      "https://GitHub.com/bennykok/ComfyUI-Deploy/",
      "git@github.com:BennyKok/comfyui-deploy.git",
      "ssh://git@github.com/BennyKok/comfyui-deploy",
      "http://www.github.com/BennyKok/comfyui-deploy",
    ]) {
      expect(isNodeRepositoryUrl(url), url).toBe(true);
    }
    expect(nodeSourceOf(`https://codeload.github.com/BennyKok/comfyui-deploy/tar.gz/${OLD}`)).toMatchObject({
      kind: "archive",
      ref: { text: OLD },
    });
    expect(nodeSourceOf("https://github.com/BennyKok/comfyui-deploy/archive/refs/tags/v2.0.0.tar.gz")).toMatchObject({
      ref: { text: "refs/tags/v2.0.0" },
    });
    expect(nodeSourceOf(`https://github.com/BennyKok/comfyui-deploy/archive/${OLD}.zip`)).toMatchObject({
      kind: "archive",
      ref: { text: OLD },
    });
    expect(nodeSourceOf("https://github.com/BennyKok/comfyui-deploy.git#v2.0.0")).toMatchObject({
      kind: "repository",
      ref: { text: "v2.0.0" },
    });
    expect(nodeSourceOf("git+https://github.com/BennyKok/comfyui-deploy.git@v2.0.0")).toMatchObject({
      ref: { text: "v2.0.0" },
    });
    const url = `https://github.com/BennyKok/comfyui-deploy/archive/${OLD}.tar.gz`;
    const source = nodeSourceOf(url);
    expect(url.slice(source!.ref!.index, source!.ref!.index + OLD.length)).toBe(OLD);
  });

  it("does not take forks, other owners or web pages for the repository", () => {
    expect(nodeSourceOf("https://github.com/BennyKok/comfyui-deploy-fork")).toBeUndefined();
    expect(nodeSourceOf("https://github.com/someone/comfyui-deploy")).toBeUndefined();
    expect(nodeSourceOf("https://github.com/BennyKok/comfy-deploy-runpod-worker")).toBeUndefined();
    expect(nodeSourceOf("https://github.com/BennyKok/comfyui-deploy/tree/main")).toBeUndefined();
    expect(isNodeRepositoryUrl("https://github.com/BennyKok/comfyui-deploy/archive/main.zip")).toBe(false);
  });
});

describe("shell and Dockerfile reading", () => {
  it("splits chains, joins continuations, drops comments and redirections, keeps offsets", () => {
    const text = 'cd "/opt/my dir" && git clone x \\\n  y 2>&1 >/dev/null; echo ${{ env.A }} # note\nls';
    const commands = readShell(text).map((c) => c.words.map((w) => w.value));
    expect(commands).toEqual([["cd", "/opt/my dir"], ["git", "clone", "x", "y"], ["echo", "${{ env.A }}"], ["ls"]]);
    const y = readShell(text)[1]!.words[3]!;
    expect(text.slice(y.start, y.end)).toBe("y");
  });

  it("joins Dockerfile continuations over comment lines and keeps heredoc bodies", () => {
    const text = "FROM x\nRUN a && \\\n# a comment\n    b\nRUN <<EOF\ncd /x\ngit status\nEOF\nWORKDIR /w\n";
    const instructions = readDockerfile(text);
    expect(instructions.map((i) => i.keyword)).toEqual(["FROM", "RUN", "RUN", "WORKDIR"]);
    expect(readShell(instructions[1]!.args).map((c) => c.words.map((w) => w.value))).toEqual([["a"], ["b"]]);
    const b = readShell(instructions[1]!.args)[1]!.words[0]!;
    expect(text[instructions[1]!.argsStart + b.start]).toBe("b");
    expect(instructions[2]!.heredocs.map((h) => h.text)).toEqual(["cd /x\ngit status\n"]);
  });
});

describe("node pins in commands", () => {
  it("reports an outdated reset at the SHA with the data a fixer needs", () => {
    const text = `FROM python:3.11\nRUN git clone https://github.com/BennyKok/comfyui-deploy.git && \\\n    cd comfyui-deploy && git reset --hard ${OLD}\n`;
    const [finding, ...rest] = pins("Dockerfile", text);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      ruleId: "node-component-pin",
      severity: "error",
      fix: "auto",
      line: 3,
      column: 43,
      endColumn: 83,
    });
    expect(finding!.facts).toEqual({
      kind: "node-pin",
      ref: OLD,
      refKind: "sha",
      verdict: "outdated",
      format: "dockerfile",
    });
    expect(finding!.message).toContain(`v2.1.0 (${V210})`);
  });

  it("attributes each reset to the repository whose directory it runs in", () => {
    const text = [
      "#!/bin/bash",
      "git clone https://github.com/comfyanonymous/ComfyUI.git /c",
      "pushd /c/custom_nodes",
      "git clone https://github.com/BennyKok/comfyui-deploy.git",
      "popd",
      `git -C /c reset --hard ${UNKNOWN}`,
      `(cd /c/custom_nodes/comfyui-deploy && git checkout ${V233})`,
    ].join("\n");
    expect(pins("setup.sh", text)).toEqual([]);
  });

  it("gives a pin in a directory named like the node to a clone reached by another path", () => {
    const text = `cd /workspace/ComfyUI/custom_nodes\ngit clone https://github.com/BennyKok/comfyui-deploy.git\ncd "$COMFY/custom_nodes/comfyui-deploy" && git checkout ${OLD}\n`;
    expect(brief(pins("setup.sh", text))).toEqual([{ line: 3, column: 57, verdict: "outdated", ref: OLD }]);
  });

  it("reports the unknown SHA as a warning that names the online check", () => {
    const [finding] = pins(
      "run.sh",
      `git clone https://github.com/BennyKok/comfyui-deploy x && git -C x checkout ${UNKNOWN}`,
    );
    expect(finding).toMatchObject({
      severity: "warning",
      fix: "review",
      facts: { kind: "node-pin", verdict: "unknown", refKind: "sha", ref: UNKNOWN },
    });
    expect(finding!.message).toContain("comfydeploy-migrate scan --online");
  });

  it("ignores file restores and follows FETCH_HEAD, nested shells and heredocs", () => {
    const restore = `git clone https://github.com/BennyKok/comfyui-deploy d\ncd d && git checkout ${OLD} -- web/\n`;
    expect(brief(pins("a.sh", restore))).toEqual([{ line: 1, column: 11, verdict: "unpinned", ref: "" }]);
    const nested = `RUN sh -c "git clone https://github.com/BennyKok/comfyui-deploy /n && cd /n && git reset --hard ${OLD}"\n`;
    expect(brief(pins("Dockerfile", nested))).toEqual([{ line: 1, column: 97, verdict: "outdated", ref: OLD }]);
    const heredoc = `FROM x\nRUN <<EOF\ngit clone https://github.com/BennyKok/comfyui-deploy /n\ncd /n\ngit checkout v2.0.0\nEOF\n`;
    expect(brief(pins("Dockerfile", heredoc))).toEqual([{ line: 5, column: 14, verdict: "outdated", ref: "v2.0.0" }]);
  });

  it("reads pins behind variables where the value is written", () => {
    const text = `#!/bin/sh\nexport NODE_COMMIT="${OLD}"\ngit clone https://github.com/BennyKok/comfyui-deploy n\ngit -C n reset --hard "\${NODE_COMMIT}"\n`;
    expect(brief(pins("x.sh", text))).toEqual([{ line: 2, column: 21, verdict: "outdated", ref: OLD }]);
  });

  it("reads comfy node install with and without a version", () => {
    const text =
      "comfy node install comfyui-deploy@1.0.0\ncomfy node install comfyui-deploy\ncomfy node install comfyui-deploy@2.3.3\n";
    const findings = pins("install.sh", text);
    expect(findings.map((f) => [f.line, pinFacts(f)?.verdict, pinFacts(f)?.format])).toEqual([
      [1, "outdated", "cli"],
      [2, "unpinned", "cli"],
    ]);
  });

  it("skips files that never name the node and extensionless files without a shebang", () => {
    expect(pins("Dockerfile", `FROM x\nRUN git reset --hard ${OLD}\n`)).toEqual([]);
    expect(pins("NOTES", "git clone https://github.com/BennyKok/comfyui-deploy\n")).toEqual([]);
    expect(pins("install", "#!/usr/bin/env bash\ngit clone https://github.com/BennyKok/comfyui-deploy\n")).toHaveLength(
      1,
    );
  });
});

describe("node pins in documents", () => {
  it("reads Manager snapshots written as YAML", () => {
    const text = `git_custom_nodes:\n  https://github.com/BennyKok/comfyui-deploy:\n    hash: ${OLD}\ncnr_custom_nodes:\n  comfyui-deploy: 2.3.1\n`;
    expect(brief(pins("snapshot.yaml", text))).toEqual([{ line: 3, column: 11, verdict: "outdated", ref: OLD }]);
  });

  it("reports one unreadable-file finding for broken JSON and YAML", () => {
    expect(pins("s.json", '{"cnr_custom_nodes": {"comfyui-deploy": "2.0.0",}}x').map((f) => f.ruleId)).toEqual([
      "unreadable-file",
    ]);
    expect(
      pins("a.yml", "run: git clone https://github.com/BennyKok/comfyui-deploy\nsteps: [unclosed\n").map(
        (f) => f.ruleId,
      ),
    ).toEqual(["unreadable-file"]);
  });

  it("maps commands in YAML block scalars back to their file position", () => {
    const text = `jobs:\n  x:\n    steps:\n      - run: |\n          git clone https://github.com/BennyKok/comfyui-deploy n\n          cd n && git checkout ${OLD}\n`;
    expect(brief(pins("ci.yml", text))).toEqual([{ line: 6, column: 32, verdict: "outdated", ref: OLD }]);
  });
});

describe("node as a submodule", () => {
  const gitmodules =
    '[submodule "node"]\n\tpath = custom_nodes/comfyui-deploy\n\turl = https://github.com/BennyKok/comfyui-deploy.git\n';
  let repo: string;

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), "node-pins-submodule-"));
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, ".gitmodules"), gitmodules);
    execFileSync("git", [
      "-C",
      repo,
      "update-index",
      "--add",
      "--cacheinfo",
      `160000,${OLD},custom_nodes/comfyui-deploy`,
    ]);
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it("reads the gitlink from the index and decides it", () => {
    const [site] = submodulePins(gitmodules, ".gitmodules", repo);
    expect(site).toMatchObject({ decision: { ref: OLD, verdict: "outdated" }, format: "gitmodules" });
    expect(gitmodules.slice(site!.start, site!.end)).toBe("custom_nodes/comfyui-deploy");
  });

  it("calls a submodule without a readable gitlink unknown, not unpinned", () => {
    const [site] = submodulePins(gitmodules, ".gitmodules", repo, () => undefined);
    expect(site).toMatchObject({ decision: { verdict: "unknown", refKind: "none" }, note: "no-gitlink" });
    const outdated = submodulePins(gitmodules, ".gitmodules", repo, () => V200);
    expect(outdated[0]!.decision).toMatchObject({ verdict: "outdated", release: "v2.0.0" });
  });
});

describe("worker image", () => {
  it("compares release tags with v2.2.10 as versions", () => {
    expect(decideWorkerTag("v2.2.10")).toBe("ok");
    expect(decideWorkerTag("v2.3.0")).toBe("ok");
    expect(decideWorkerTag("2.2.10")).toBe("ok");
    expect(decideWorkerTag("v2.2.9")).toBe("outdated");
    expect(decideWorkerTag("v2.1.0")).toBe("outdated");
    expect(decideWorkerTag("1.0.0")).toBe("outdated");
    expect(decideWorkerTag("latest")).toBe("floating");
    expect(decideWorkerTag("dev")).toBe("floating");
    expect(decideWorkerTag(undefined)).toBe("untagged");
    expect(decideWorkerTag(undefined, `sha256:${"a".repeat(64)}`)).toBe("digest");
    expect(decideWorkerTag("cuda12")).toBe("unknown");
  });

  it("explains that the worker's v2.1.0 is not the node's v2.1.0", () => {
    const [finding] = scanWorkerImages("Dockerfile", "FROM bennykok/comfydeploy-runpod-worker:v2.1.0\n");
    expect(finding).toMatchObject({ ruleId: "worker-image", severity: "warning", fix: "review", line: 1, column: 6 });
    expect(finding!.facts).toEqual({
      kind: "worker-image",
      image: "bennykok/comfydeploy-runpod-worker",
      tag: "v2.1.0",
      verdict: "outdated",
    });
    expect(finding!.message).toContain("unrelated to the node's v2.1.0");
  });

  it("resolves tags from ARG values and ignores prose, links and other images", () => {
    const dockerfile = "ARG TAG=v2.2.9\nFROM bennykok/comfydeploy-runpod-worker:${TAG}\n";
    expect(scanWorkerImages("Dockerfile", dockerfile).map((f) => factsOf(f, "worker-image")?.tag)).toEqual(["v2.2.9"]);
    const [unset] = scanWorkerImages("docker-compose.yml", "image: bennykok/comfydeploy-runpod-worker:${WORKER_TAG}\n");
    expect(unset).toMatchObject({ facts: { kind: "worker-image", verdict: "unknown", tag: "${WORKER_TAG}" } });
    expect(unset!.message).toContain("variable this file does not set");
    const prose = [
      "We used bennykok/comfydeploy-runpod-worker before.",
      "See https://hub.docker.com/r/bennykok/comfydeploy-runpod-worker/tags",
      "FROM bennykok/comfydeploy-runpod-worker-gpu:1.0.0",
      "FROM runpod/worker-comfyui:5.1.0",
    ].join("\n");
    expect(scanWorkerImages("README.md", prose)).toEqual([]);
  });
});

describe("online resolution with the GitHub compare API", () => {
  interface Seen {
    path: string;
    authorization: string | undefined;
  }
  let server: Server;
  let apiUrl: string;
  let seen: Seen[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  let cacheDir: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? "", authorization: req.headers.authorization });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterEach(() => {
    seen = [];
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  const freshCache = (): string => {
    cacheDir = mkdtempSync(join(tmpdir(), "github-compare-"));
    return join(cacheDir, "github-compare.json");
  };
  const answer = (statuses: Record<string, number | string>) => (req: IncomingMessage, res: ServerResponse) => {
    const sha = /\.\.\.([0-9a-f]+)/.exec(req.url ?? "")?.[1] ?? "";
    const status = statuses[sha] ?? 404;
    if (typeof status === "number") {
      res.writeHead(status, { "content-type": "application/json" }).end('{"message":"Not Found"}');
    } else
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status, ahead_by: 1, behind_by: 0 }));
  };
  const unknownFinding = (ref: string, format: NodePinFormat = "dockerfile"): Finding => ({
    ruleId: "node-component-pin",
    severity: "warning",
    fix: "review",
    file: "Dockerfile",
    line: 3,
    column: 1,
    endLine: 3,
    endColumn: 2,
    message: "unknown",
    facts: { kind: "node-pin", ref, refKind: "sha", verdict: "unknown", format },
  });

  it("drops commits ahead of v2.1.0, raises commits behind it, keeps commits GitHub does not know", async () => {
    handler = answer({ [UNKNOWN]: "ahead", [UNKNOWN_2]: "behind", abcdef12: 404 });
    const other: Finding = {
      ...unknownFinding("main"),
      facts: { kind: "node-pin", ref: "$REF", refKind: "none", verdict: "unknown", format: "dockerfile" },
    };
    const input = [
      unknownFinding(UNKNOWN),
      unknownFinding(UNKNOWN_2),
      unknownFinding("abcdef12"),
      other,
      unknownFinding(UNKNOWN_2, "gitmodules"),
    ];
    const result = await resolveUnknownNodePins(input, { apiUrl, cacheFile: freshCache(), token: "" });
    expect(result.problems).toEqual([]);
    expect(result.settled).toBe(2);
    expect(seen.map((s) => s.path)).toEqual(
      [UNKNOWN, UNKNOWN_2, "abcdef12"].map(
        (sha) => `/repos/BennyKok/comfyui-deploy/compare/${V210}...${sha}?per_page=1`,
      ),
    );
    expect(result.findings.map((f) => [pinFacts(f)?.ref, pinFacts(f)?.verdict, f.severity, f.fix])).toEqual([
      [UNKNOWN_2, "outdated", "error", "auto"],
      ["abcdef12", "unknown", "warning", "review"],
      ["$REF", "unknown", "warning", "review"],
      [UNKNOWN_2, "outdated", "error", "review"],
    ]);
    expect(result.findings[0]!.message).toContain(`bump it to v2.1.0 (${V210})`);
    expect(result.findings[0]!.message).toContain("GitHub compare: behind");
  });

  it("answers a second run from the cache without any request", async () => {
    handler = answer({ [UNKNOWN]: "identical", [UNKNOWN_2]: "diverged" });
    const cacheFile = freshCache();
    const input = [unknownFinding(UNKNOWN), unknownFinding(UNKNOWN_2)];
    const first = await resolveUnknownNodePins(input, { apiUrl, cacheFile, token: "" });
    expect(seen).toHaveLength(2);
    expect(JSON.parse(readFileSync(cacheFile, "utf8")).entries).toBeTypeOf("object");
    seen = [];
    const second = await resolveUnknownNodePins(input, { apiUrl, cacheFile, token: "" });
    expect(seen).toEqual([]);
    expect(second.findings).toEqual(first.findings);
    expect(second.findings.map((f) => pinFacts(f)?.verdict)).toEqual(["outdated"]);
  });

  it("stops at the rate limit with a one-line message saying when it resets", async () => {
    const reset = Math.floor(Date.parse("2030-01-01T12:34:56Z") / 1000);
    handler = (_req, res) => {
      res
        .writeHead(403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) })
        .end('{"message":"API rate limit exceeded"}');
    };
    const input = [unknownFinding(UNKNOWN), unknownFinding(UNKNOWN_2)];
    const result = await resolveUnknownNodePins(input, {
      apiUrl,
      cacheFile: freshCache(),
      token: "",
      now: () => reset * 1000 - 30 * 60_000,
    });
    expect(seen).toHaveLength(1);
    expect(result.findings).toEqual(input);
    expect(result.problems).toEqual([
      "GitHub API rate limit reached; it resets at 12:34:56 UTC (in 30 min). Set GITHUB_TOKEN to raise the limit.",
    ]);
  });

  it("gives up on a server that does not answer in time", async () => {
    handler = () => undefined; // never answers
    const input = [unknownFinding(UNKNOWN)];
    const result = await resolveUnknownNodePins(input, { apiUrl, cacheFile: freshCache(), token: "", timeoutMs: 200 });
    expect(result.findings).toEqual(input);
    expect(result.problems).toEqual([`GitHub API did not answer within 200 ms (${apiUrl})`]);
  });

  it("sends the token but never prints it", async () => {
    const token = "ghp_secretTokenValue1234567890";
    handler = (_req, res) => res.writeHead(401).end(`{"message":"Bad credentials ${token}"}`);
    const result = await resolveUnknownNodePins([unknownFinding(UNKNOWN)], { apiUrl, cacheFile: freshCache(), token });
    expect(seen[0]!.authorization).toBe(`Bearer ${token}`);
    expect(result.problems).toHaveLength(1);
    expect(result.problems.join("\n")).not.toContain(token);
    expect(result.problems[0]).toContain("401");
  });

  it("keeps its cache under XDG_CACHE_HOME", () => {
    expect(defaultCompareCacheFile({ XDG_CACHE_HOME: "/var/cache/me" })).toBe(
      "/var/cache/me/comfydeploy-migrate/github-compare.json",
    );
    expect(defaultCompareCacheFile({})).toMatch(/\.cache\/comfydeploy-migrate\/github-compare\.json$/);
  });
});
