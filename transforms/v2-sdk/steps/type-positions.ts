/**
 * Types built from the V1 client: `ComfyDeployClient["getRun"]` names a V1
 * signature V2 does not have, and a subclass of the V1 client overrides V1
 * methods. Both get a marker.
 */
import type { ASTPath } from "jscodeshift";
import { V1_CLIENT_METHODS } from "../../../src/knowledge/migration.js";
import type { RuleId } from "../../../src/rules/catalog.js";
import { type AnyNode, CLIENT_PROPERTIES, methodAdvice, type SdkContext, V1_CLASS, V2_CLASS } from "../context.js";

/** A reference to the V1 class name: subclasses and indexed-access types are marked. */
export function checkClassTypeUse(context: SdkContext, ref: ASTPath): void {
  const parent = ref.parent?.node as AnyNode | undefined;
  if (parent?.type === "ClassDeclaration" || parent?.type === "ClassExpression") {
    if (ref.name === "superClass") {
      context.mark(ref, "v1-sdk-client", `a subclass of the V1 client: port its overrides and its calls of V1 methods (run, getRun, …) to ${V2_CLASS} by hand`);
    }
    return;
  }
  if (parent?.type === "TSTypeReference" || parent?.type === "TSTypeQuery") markIndexedAccess(context, ref.parent as ASTPath);
}

/** `ComfyDeployClient["getRun"]` and friends name V1 signatures that V2 does not have. */
export function markIndexedAccess(context: SdkContext, typePath: ASTPath): void {
  let current: ASTPath | null = typePath;
  while (current && (current.node as AnyNode).type === "TSParenthesizedType") current = current.parent as ASTPath;
  const parent = current?.parent?.node as AnyNode | undefined;
  if (!current || parent?.type !== "TSIndexedAccessType" || parent.objectType !== current.node) return;
  const index = parent.indexType as AnyNode;
  const literal = index.type === "TSLiteralType" ? ((index.literal as AnyNode).value as string | undefined) : undefined;
  const name = literal ?? "member";
  const ruleId: RuleId = CLIENT_PROPERTIES.has(name) ? "v1-sdk-client" : "v1-sdk-call";
  const v2 = V1_CLIENT_METHODS.find((m) => m.v1 === name)?.v2;
  const advice = v2
    ? `the type of V1 ${V1_CLASS}["${name}"] has no V2 equivalent: the migrated calls still resolve to the V1 result shape or null, so spell that type out (V2 method: ${v2})`
    : `the type of V1 ${V1_CLASS}["${name}"] has no V2 equivalent: ${CLIENT_PROPERTIES.has(name) ? "the value is internal in V2" : methodAdvice(name)}`;
  context.mark(current.parent as ASTPath, ruleId, advice);
}
