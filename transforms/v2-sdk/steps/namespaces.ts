/**
 * The SDK reached through a namespace: `cd.ComfyDeployClient` in values and
 * types, and `import("comfydeploy").ComfyDeployClient` types.
 */
import type { ASTPath } from "jscodeshift";
import { schemaAdvice } from "../advice.js";
import { type AnyNode, lineOf, type SdkContext, V1_CLASS, V2_CLASS } from "../context.js";
import { COMPAT_NAMES, moveNamespaceMember } from "./compat-names.js";
import { replaceIndexedAccess } from "./type-positions.js";
import { findPaths } from "../../lib/node-paths.js";

export function renameNamespaceMember(context: SdkContext, path: ASTPath): void {
  const node = path.node as AnyNode;
  const property = node.property as AnyNode;
  const name = property.name as string;
  if (name === V1_CLASS) {
    node.property = context.j.identifier(V2_CLASS);
    context.rewrite("v1-sdk-import", lineOf(node), `${V1_CLASS} → ${V2_CLASS}`);
    return;
  }
  if (COMPAT_NAMES.has(name)) return moveNamespaceMember(context, path);
  context.mark(path, "v1-sdk-import", schemaAdvice(name));
}

export function renameImportType(context: SdkContext, path: ASTPath): void {
  const node = path.node as AnyNode;
  const qualifier = node.qualifier as AnyNode | undefined;
  if (qualifier?.type === "Identifier" && qualifier.name === V1_CLASS) {
    node.qualifier = context.j.identifier(V2_CLASS);
    context.rewrite("v1-sdk-import", lineOf(node), `import("comfydeploy").${V1_CLASS} → ${V2_CLASS}`);
    replaceIndexedAccess(context, path);
    return;
  }
  context.mark(path, "v1-sdk-import", schemaAdvice((qualifier?.name as string | undefined) ?? "this name"));
}

/** `ns.ComfyDeployClient` in type positions: the scan reports values only, so types follow the namespace import. */
export function renameNamespaceTypes(context: SdkContext): void {
  const { j, root, bindings } = context;
  if (bindings.namespaces.size === 0) return;
  findPaths(j, root, "TSQualifiedName").forEach((path) => {
    const node = path.node as unknown as AnyNode;
    const left = node.left as AnyNode;
    const right = node.right as AnyNode;
    if (left.type !== "Identifier" || !bindings.namespaces.has(left.name as string) || right.name !== V1_CLASS) return;
    node.right = j.identifier(V2_CLASS);
    context.rewrite(
      "v1-sdk-import",
      lineOf(node),
      `${left.name as string}.${V1_CLASS} → ${left.name as string}.${V2_CLASS} (type)`,
    );
    replaceIndexedAccess(context, path.parent as ASTPath);
  });
}
