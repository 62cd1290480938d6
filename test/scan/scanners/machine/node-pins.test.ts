/**
 * Node pins in spellings beyond the snapshot's `hash`: a lock file's
 * repository entry with a `commit` (or `sha`, `rev`, `ref`) beside it, and the
 * `owner/repo@ref` shorthand written inside a shell script rather than a list file.
 */
import { describe, expect, it } from "vitest";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { scanNodePins } from "../../../../src/scan/scanners/machine/node-pins.js";

const repo: RepoFacts = { files: [], root: "/repo", sdkImportingPackages: new Set(), read: () => undefined };
const pins = (file: string, text: string): string[] =>
  scanNodePins({ file, text, repo }).map((f) => `${f.line}:${f.ruleId}`);

describe("node pins in other spellings", () => {
  it("reads a repository url with a sibling commit, sha or rev", () => {
    const lock = (key: string, url = "https://github.com/bennykok/comfyui-deploy.git") =>
      `{\n  "custom_nodes": [\n    {\n      "url": "${url}",\n      "${key}": "42aaf1acb9b4fe989f1725c08bf1937182ab7547"\n    }\n  ]\n}\n`;
    for (const key of ["commit", "sha", "rev"])
      expect(pins("nodes.lock.json", lock(key))).toEqual(["5:node-component-pin"]);
    expect(pins("nodes.lock.json", lock("commit", "https://github.com/cubiq/ComfyUI_essentials.git"))).toEqual([]);
  });

  it("reads owner/repo@ref in a shell array, and leaves the other nodes", () => {
    const script = [
      "#!/usr/bin/env bash",
      "NODES=(",
      '  "ltdrdata/ComfyUI-Manager@0f1f6f3"',
      '  "BennyKok/comfyui-deploy@eb5e2f3"',
      ")",
      "",
    ].join("\n");
    expect(pins("install.sh", script)).toEqual(["4:node-component-pin"]);
    expect(pins("bin/install", script)).toEqual(["4:node-component-pin"]);
  });
});
