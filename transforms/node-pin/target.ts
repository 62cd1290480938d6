/** The ComfyUI node version `fix` pins to: v2.1.0 by default, or a `--node-ref` from the tag table. */
import { UsageError } from "../../src/core/errors.js";
import { NODE_COMPONENT } from "../../src/knowledge/migration.js";
import type { NodeRefTarget } from "../types.js";

export const DEFAULT_NODE_REF: NodeRefTarget = {
  commit: NODE_COMPONENT.minimumCommit,
  tag: `v${NODE_COMPONENT.minimumVersion}`,
  version: NODE_COMPONENT.minimumVersion,
};

/** Accepts a tag (`v2.3.3` or `2.3.3`) or a full commit SHA from the tag table, at v2.1.0 or later. */
export function nodeRefTarget(ref: string | undefined): NodeRefTarget {
  if (ref === undefined) return DEFAULT_NODE_REF;
  const wanted = ref.trim().toLowerCase();
  const tags = NODE_COMPONENT.tags;
  const minimumIndex = tags.findIndex((t) => t.commit === NODE_COMPONENT.minimumCommit);
  const index = tags.findIndex(
    (t) => t.tag === wanted || t.tag === `v${wanted}` || (wanted.length === 40 && t.commit === wanted),
  );
  if (index < 0) {
    throw new UsageError(
      `--node-ref ${ref} is not in the tag table; use one of ${tags
        .slice(minimumIndex)
        .map((t) => t.tag)
        .join(", ")}`,
    );
  }
  if (index < minimumIndex)
    throw new UsageError(`--node-ref ${ref} is older than v${NODE_COMPONENT.minimumVersion}, which V2 requires`);
  const tag = tags[index]!;
  return { commit: tag.commit, tag: tag.tag, version: tag.tag.replace(/^v/, "") };
}
