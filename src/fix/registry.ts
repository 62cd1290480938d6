/**
 * Every transform `fix` can run, by id. An id groups the implementations for
 * each kind of file (a jscodeshift codemod for JS/TS, targeted text edits for
 * the rest), so `--transform v2-endpoints` covers code, config and docs alike.
 */
import * as v2Endpoints from "../../transforms/v2-endpoints.js";
import * as v2Sdk from "../../transforms/v2-sdk.js";
import { nodePinFixer } from "./fixers/node-pin.js";
import { pythonSdkFixer } from "./fixers/python-sdk.js";
import { sdkDependencyFixer } from "./fixers/sdk-dependency.js";
import { textEndpointsFixer } from "./fixers/text-endpoints.js";
import { jsTransform, type TransformModule } from "./js-transform.js";
import type { Transform, TransformId } from "./types.js";

export const TRANSFORMS: readonly Transform[] = [
  jsTransform(v2Endpoints as unknown as TransformModule),
  textEndpointsFixer,
  jsTransform(v2Sdk as unknown as TransformModule),
  pythonSdkFixer,
  sdkDependencyFixer,
  nodePinFixer,
];

export interface TransformSummary {
  id: TransformId;
  title: string;
  rewrites: string[];
  marks: string[];
}

/** One entry per id, merging what its implementations rewrite and mark. */
export function transformCatalog(): TransformSummary[] {
  const byId = new Map<TransformId, TransformSummary>();
  for (const t of TRANSFORMS) {
    const entry = byId.get(t.id) ?? { id: t.id, title: t.title, rewrites: [], marks: [] };
    entry.rewrites.push(...t.rewrites);
    entry.marks.push(...t.marks);
    byId.set(t.id, entry);
  }
  return [...byId.values()];
}
