/**
 * The registry of transforms: every transform `fix` can run, by id, in the
 * order they run on a file. A transform is a folder (`transforms/<id>/`)
 * with its meta and one part per kind of file: a jscodeshift codemod for
 * JS/TS (`js.ts`), targeted text edits for the rest (`text.ts`, `python.ts`,
 * manifests). The metas are cheap; the parts (and jscodeshift, Babel) load
 * only when something is to be fixed.
 */
import { meta as nodePin } from "./node-pin/meta.js";
import { meta as sdkDependency } from "./sdk-dependency/meta.js";
import { jscodeshiftPart } from "./lib/jscodeshift-part.js";
import type { Transform } from "./types.js";
import { meta as v2Endpoints } from "./v2-endpoints/meta.js";
import { meta as v2Sdk } from "./v2-sdk/meta.js";

export const TRANSFORM_METAS = [v2Endpoints, v2Sdk, sdkDependency, nodePin] as const;

export const TRANSFORM_IDS = TRANSFORM_METAS.map((meta) => meta.id);

/** Every transform with its parts, in the order they run on a file. */
export async function loadTransforms(): Promise<readonly Transform[]> {
  const [endpointsJs, endpointsText, sdkJs, sdkPython, dependencyManifests, pinText] = await Promise.all([
    import("./v2-endpoints/js.js"),
    import("./v2-endpoints/text.js"),
    import("./v2-sdk/js.js"),
    import("./v2-sdk/python.js"),
    import("./sdk-dependency/manifests.js"),
    import("./node-pin/text.js"),
  ]);
  return [
    { ...v2Endpoints, parts: [jscodeshiftPart(endpointsJs.default, v2Endpoints.rules), endpointsText.part] },
    { ...v2Sdk, parts: [jscodeshiftPart(sdkJs.default, v2Sdk.rules), sdkPython.part] },
    { ...sdkDependency, parts: [dependencyManifests.part] },
    { ...nodePin, parts: [pinText.part] },
  ];
}
