/**
 * Node pins in JS/TS code that writes a Dockerfile or runs git: constants,
 * object constants, env defaults and arrays of lines are followed, and a
 * SHA kept in a constant is reported where the constant is written.
 */
import { describe, expect, it } from "vitest";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { nodePinScanner, scanNodePins } from "../../../../src/scan/scanners/machine/node-pins.js";

const repo: RepoFacts = { files: [], root: "/repo", sdkImportingPackages: new Set(), read: () => undefined };
const pins = (file: string, text: string): string[] =>
  scanNodePins({ file, text, repo }).map(
    (f) => `${f.line}:${f.column}:${f.facts?.kind === "node-pin" ? f.facts.verdict : ""}`,
  );

const OLD = "7ec3e1c0c8393366f5273f39ccca5e01d271bc74"; // worker v2.2.7's pin
const NEW = "62f8e388bb5217bb0472cb14bd7bf2d417225017"; // v2.1.0

describe("node pins in JS/TS code", () => {
  it("follows a SHA constant into a generated Dockerfile line", () => {
    const script = [
      'import { writeFileSync } from "node:fs";',
      "",
      `const DEPLOY_SHA = "${OLD}";`,
      'const NODES = "/comfyui/custom_nodes";',
      "",
      "const dockerfile = `FROM python:3.11-slim",
      "RUN git clone https://github.com/BennyKok/comfyui-deploy ${NODES}/comfyui-deploy",
      "RUN git -C ${NODES}/comfyui-deploy reset --hard ${DEPLOY_SHA}",
      "`;",
      'writeFileSync("Dockerfile", dockerfile);',
      "",
    ].join("\n");
    expect(pins("tools/gen-dockerfile.ts", script)).toEqual(["3:21:outdated"]);
    expect(pins("tools/gen-dockerfile.mjs", script.replace(OLD, NEW))).toEqual([]);
  });

  it("reads arrays of lines, + chains, object constants and env defaults", () => {
    const script = [
      "const PINS = {",
      `  comfyDeploy: process.env.COMFY_DEPLOY_SHA ?? "${OLD}",`,
      "} as const;",
      "const lines = [",
      '  "FROM runpod/base:0.6.2",',
      '  "RUN git clone https://github.com/bennykok/ComfyUI-Deploy.git /nodes/deploy",',
      '  "RUN cd /nodes/deploy && git checkout " + PINS.comfyDeploy,',
      "];",
      'export const dockerfile = lines.join("\\n");',
      "",
    ].join("\n");
    expect(pins("scripts/build.js", script)).toEqual(["2:49:outdated"]);
  });

  it("runs commands given to execSync, and leaves other repositories and the node's own routes alone", () => {
    const code = [
      'import { execSync } from "node:child_process";',
      `const COMFY_SHA = "${OLD}";`,
      'execSync("git clone https://github.com/comfyanonymous/ComfyUI && git -C ComfyUI checkout " + COMFY_SHA);',
      'const route = "http://127.0.0.1:8188/comfyui-deploy/run";',
      "",
    ].join("\n");
    expect(pins("src/setup.ts", code)).toEqual([]);
    const unpinned = "execSync(`git clone https://github.com/BennyKok/comfyui-deploy ${dir}`);\n";
    expect(pins("src/setup.ts", unpinned)).toEqual(["1:21:unpinned"]);
  });

  it("is asked to read only JS/TS sources that name the node", () => {
    expect(nodePinScanner.readsJsSource?.("a.ts", "git clone https://github.com/BennyKok/comfyui-deploy")).toBe(true);
    expect(nodePinScanner.readsJsSource?.("a.ts", 'fetch("https://www.comfydeploy.com/api/run")')).toBe(false);
    expect(nodePinScanner.readsJsSource?.("Dockerfile", "comfyui-deploy")).toBe(false);
  });
});
