/** sdk-dependency: what it rewrites and what it marks in package.json and Python manifests. */
import { JS_SDK, PYTHON_SDK } from "../../src/knowledge/migration.js";
import type { TransformMeta } from "../types.js";

const [ZOD_NAME, ZOD_RANGE] = Object.entries(JS_SDK.v2PeerDependencies)[0]!;

export const meta = {
  id: "sdk-dependency",
  title: "SDK dependency to V2 (package.json and Python manifests)",
  rules: ["v1-sdk-dependency"],
  rewrites: [
    `package.json: a V1 ${JS_SDK.packageName} entry → exactly ${JS_SDK.v2Pin} (npm: aliases keep their form), plus ${ZOD_NAME}@${ZOD_RANGE} in dependencies when no dependency field has it; only once every V1 SDK call in the package was rewritten`,
    `requirements/constraints files, pyproject.toml (PEP 621, Poetry), Pipfile: a V1 ${PYTHON_SDK.packageName} spec → ${PYTHON_SDK.v2Version} with its operator (==, ===, >=, ~=, ^, ~; other ranges → ${PYTHON_SDK.recommendedRange}), extras and markers kept`,
  ],
  marks: [
    "requirements with --hash options (the hashes would no longer match); setup.cfg and setup.py",
    "lockfiles are never edited: regenerate them with the package manager's install command",
  ],
} as const satisfies TransformMeta;
