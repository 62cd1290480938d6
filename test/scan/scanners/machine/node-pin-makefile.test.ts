/**
 * Node pins in Makefiles: recipe lines read as shell commands, make
 * variables followed to the line that sets them.
 */
import { describe, expect, it } from "vitest";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { scanNodePins } from "../../../../src/scan/scanners/machine/node-pins.js";

const repo: RepoFacts = { files: [], root: "/repo", sdkImportingPackages: new Set(), read: () => undefined };
const pins = (file: string, text: string): string[] =>
  scanNodePins({ file, text, repo }).map(
    (f) => `${f.line}:${f.column}:${f.facts?.kind === "node-pin" ? f.facts.verdict : ""}`,
  );

const OLD = "eb5e2f36cd862b7d6fbc64386fa4c105aa9d2483"; // v0.1.3
const NEW = "62f8e388bb5217bb0472cb14bd7bf2d417225017"; // v2.1.0

describe("node pins in Makefiles", () => {
  it("reports a SHA kept in a make variable where the variable is set", () => {
    const makefile = [
      `COMFY_DEPLOY_SHA ?= ${OLD}`,
      "NODES_DIR := build/custom_nodes",
      "",
      "nodes:",
      "\tgit clone https://github.com/BennyKok/comfyui-deploy $(NODES_DIR)/comfyui-deploy",
      "\t@git -C ${NODES_DIR}/comfyui-deploy checkout $(COMFY_DEPLOY_SHA)",
      "",
    ].join("\n");
    expect(pins("Makefile", makefile)).toEqual([`1:21:outdated`]);
    expect(pins("build/nodes.mk", makefile)).toEqual([`1:21:outdated`]);
    expect(pins("Makefile", makefile.replace(OLD, NEW))).toEqual([]);
  });

  it("follows a recipe's cd and continuation lines: the last ref checked out decides", () => {
    const makefile = [
      "override REF = v2.0.0",
      "nodes:",
      "\tcd vendor && \\",
      "\t  git clone --branch $(REF) https://github.com/bennykok/ComfyUI-Deploy.git",
      "\tgit -C vendor/ComfyUI-Deploy reset --hard 7ec3e1c0c8393366f5273f39ccca5e01d271bc74",
      "",
    ].join("\n");
    expect(pins("GNUmakefile", makefile)).toEqual(["5:44:outdated"]);
    expect(pins("GNUmakefile", makefile.split("\n").slice(0, 4).join("\n"))).toEqual(["1:16:outdated"]);
  });

  it("leaves other repositories' refs and unrelated variables alone", () => {
    const makefile = [
      `COMFY_SHA := ${OLD}`,
      "comfy:",
      "\tgit clone https://github.com/comfyanonymous/ComfyUI && git -C ComfyUI checkout $(COMFY_SHA)",
      "\techo comfyui-deploy is installed by the machine image",
      "",
    ].join("\n");
    expect(pins("Makefile", makefile)).toEqual([]);
  });
});
