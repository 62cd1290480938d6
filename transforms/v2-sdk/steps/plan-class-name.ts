/**
 * Step 1: decides the V2 class's local name before any site is rewritten:
 * the V1 specifier's alias, an existing V2 import, or `ComfyDeploy` when
 * that name is free in the file.
 */
import { isNameTaken } from "../sdk-bindings.js";
import { flaggedSpecifiers, type SdkContext, V1_CLASS, V2_CLASS } from "../context.js";

export function planClassName(context: SdkContext): void {
  const { j, root, bindings } = context;
  const existing = bindings.specifiers.find((s) => s.imported === V2_CLASS && !s.typeOnly);
  for (const spec of flaggedSpecifiers(context)) {
    if (spec.imported !== V1_CLASS) continue;
    const local =
      spec.local !== spec.imported
        ? spec.local
        : existing
          ? existing.local
          : isNameTaken(j, root, V2_CLASS)
            ? spec.local
            : V2_CLASS;
    context.renamedClassSpecifiers.set(spec, local);
    if (!spec.typeOnly) context.v2ClassName ??= local;
  }
  if (!context.v2ClassName && existing) context.v2ClassName = existing.local;
}
