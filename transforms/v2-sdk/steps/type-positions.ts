/**
 * Types built from the V1 client. `ComfyDeployClient["getRun"]` names a V1
 * member V2 does not have: it becomes the compat module's `V1Client["getRun"]`,
 * the type the migrated code (a rewritten call, or the compat module) still
 * has, with a marker. A subclass of the V1 client overrides V1 methods and is
 * marked for a person.
 */
import type { ASTPath } from "jscodeshift";
import { V1_CLIENT_METHODS } from "../../../src/knowledge/migration.js";
import type { RuleId } from "../../../src/rules/catalog.js";
import {
  type AnyNode,
  CLIENT_PROPERTIES,
  lineOf,
  methodAdvice,
  type SdkContext,
  V1_CLASS,
  V2_CLASS,
} from "../context.js";
import { typeFrom } from "../snippets.js";

/** The compat module's interface of the V1 client's members. */
const V1_CLIENT_TYPE = "V1Client";

/**
 * A reference to the V1 class name: subclasses are marked, V1 member types
 * are replaced. True when the reference itself was replaced (nothing is left
 * to rename).
 */
export function checkClassTypeUse(context: SdkContext, ref: ASTPath): boolean {
  const parent = ref.parent?.node as AnyNode | undefined;
  if (parent?.type === "ClassDeclaration" || parent?.type === "ClassExpression") {
    if (ref.name === "superClass") {
      context.mark(
        ref,
        "v1-sdk-client",
        `a subclass of the V1 client: port its overrides and its calls of V1 methods (run, getRun, …) to ${V2_CLASS} by hand`,
      );
    }
    return false;
  }
  if (parent?.type === "TSTypeReference" || parent?.type === "TSTypeQuery")
    return replaceIndexedAccess(context, ref.parent as ASTPath);
  return false;
}

/** `ComfyDeployClient["getRun"]` (the class as a type, or `typeof` it) → `v1Compat.V1Client["getRun"]`. */
export function replaceIndexedAccess(context: SdkContext, typePath: ASTPath): boolean {
  let current: ASTPath | null = typePath;
  while (current && (current.node as AnyNode).type === "TSParenthesizedType") current = current.parent as ASTPath;
  const parentPath = current?.parent as ASTPath | undefined;
  const parent = parentPath?.node as AnyNode | undefined;
  if (!current || !parentPath || parent?.type !== "TSIndexedAccessType" || parent.objectType !== current.node)
    return false;
  const index = parent.indexType as AnyNode;
  const literal = index.type === "TSLiteralType" ? ((index.literal as AnyNode).value as string | undefined) : undefined;
  const name = literal ?? "member";
  const ruleId: RuleId = CLIENT_PROPERTIES.has(name) ? "v1-sdk-client" : "v1-sdk-call";
  const v2 = V1_CLIENT_METHODS.find((m) => m.v1 === name)?.v2;
  const known = literal !== undefined && (CLIENT_PROPERTIES.has(name) || V1_CLIENT_METHODS.some((m) => m.v1 === name));
  const what = v2
    ? `V2's ${v2} answers in camelCase and throws`
    : CLIENT_PROPERTIES.has(name)
      ? "the value is internal in V2"
      : methodAdvice(name);
  if (!known || !context.style.typescript) {
    context.mark(parentPath, ruleId, `the type of V1 ${V1_CLASS}["${name}"] has no V2 equivalent: ${what}`);
    return false;
  }
  const compat = context.compat("type");
  context.mark(
    parentPath,
    ruleId,
    `the type of V1 ${V1_CLASS}["${name}"] is now the compat module's ${V1_CLIENT_TYPE}["${name}"], what the migrated code still returns; ${what}`,
    false,
  );
  parent.objectType = typeFrom(context.j, `${compat}.${V1_CLIENT_TYPE}`);
  context.rewrite(
    ruleId,
    lineOf(parent),
    `${V1_CLASS}["${name}"] → ${compat}.${V1_CLIENT_TYPE}["${name}"] (a type V2 has not)`,
  );
  return true;
}
