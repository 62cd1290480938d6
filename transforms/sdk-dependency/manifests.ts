/**
 * sdk-dependency: the SDK's dependency declarations move to V2, in npm
 * manifests and catalogs (npm.ts) and Python manifests (python.ts).
 * Lockfiles are never edited: regenerating them is the package manager's job.
 */
import { posix } from "node:path";
import { factsOf } from "../../src/core/facts.js";
import { mayBeIncludedRequirements, pythonManifestKindOf } from "../../src/lang/python/manifest-names.js";
import type { TransformPart } from "../types.js";
import { fixPackageJson, fixPnpmWorkspace } from "./npm.js";
import { fixPythonManifest } from "./python.js";

const PY_LOCKFILES = new Set(["pipfile-lock", "poetry-lock", "uv-lock"]);

/** The part of the transform for these files. */
export const part: TransformPart = {
  appliesTo: (file) => {
    const base = posix.basename(file);
    if (base === "package.json" || base === "pnpm-workspace.yaml") return true;
    const kind = pythonManifestKindOf(file);
    if (kind) return !PY_LOCKFILES.has(kind);
    return mayBeIncludedRequirements(file);
  },
  apply: (text, context) => {
    // What fix claims (auto, review), and unused npm entries for --remove-unused.
    const findings = context.findings.filter(
      (f) => f.ruleId === "v1-sdk-dependency" && (f.fix !== "manual" || factsOf(f, "npm-dependency")?.unused === true),
    );
    if (findings.length === 0) return { text, events: [] };
    const base = posix.basename(context.file);
    if (base === "package.json") return fixPackageJson(text, context, findings);
    if (base === "pnpm-workspace.yaml") return fixPnpmWorkspace(text, context, findings);
    return fixPythonManifest(text, context, findings);
  },
};
