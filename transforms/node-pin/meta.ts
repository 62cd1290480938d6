/** node-pin: what it rewrites and what it marks where machines pin the ComfyUI node or use the worker image. */
import { NODE_COMPONENT, WORKER_IMAGE } from "../../src/knowledge/migration.js";
import type { TransformMeta } from "../types.js";

export const meta = {
  id: "node-pin",
  title: `ComfyUI node pins (${NODE_COMPONENT.repository}) to v${NODE_COMPONENT.minimumVersion} or the chosen --node-ref`,
  rules: ["node-component-pin", "worker-image"],
  rewrites: [
    "Dockerfiles, shell scripts, YAML, Markdown code blocks: an outdated commit (git reset/checkout), tag or registry version → the target's full commit, tag or version",
    "snapshot and workflow JSON: an outdated hash (and the commit_url's SHA on that line) and cnr_custom_nodes versions",
  ],
  marks: [
    ".gitmodules and vendored copies (pyproject.toml): update the checkout and commit it",
    "pins that are missing, floating or not a known release: pin the target commit (no guess is written)",
    `${WORKER_IMAGE.image}: use ${WORKER_IMAGE.firstReadyTag} or newer, or rebuild with the node at v${NODE_COMPONENT.minimumVersion}`,
  ],
} as const satisfies TransformMeta;
