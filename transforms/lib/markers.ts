/**
 * Review markers for jscodeshift transforms: a `// TODO(comfydeploy-migrate): ...`
 * line comment attached to the enclosing statement, added once.
 */
import type { ASTPath, JSCodeshift } from "jscodeshift";
import { MARKER_TAG, markerText } from "../../src/core/marker.js";
import type { RuleId } from "../../src/rules/catalog.js";

type CommentNode = { type: string; value: string; leading?: boolean; trailing?: boolean };

/** The statement (or class member) a marker for this node belongs above. */
export function statementOf(path: ASTPath): ASTPath {
  let current: ASTPath | null = path;
  while (current) {
    const type = (current.node as { type: string }).type;
    const parentType = (current.parent?.node as { type?: string } | undefined)?.type;
    const isStatement = /Statement$|Declaration$/.test(type) && type !== "VariableDeclarator";
    const isMember = /^(ClassProperty|ClassMethod|PropertyDefinition|MethodDefinition|TSPropertySignature)$/.test(type);
    if (
      (isStatement || isMember) &&
      parentType !== "ExportNamedDeclaration" &&
      parentType !== "ExportDefaultDeclaration"
    )
      return current;
    current = current.parent as ASTPath | null;
  }
  return path;
}

/**
 * Adds `// TODO(comfydeploy-migrate): <ruleId>: <advice>` above the statement
 * holding `path`. Returns false when the same rule's marker is already there.
 */
export function addMarker(j: JSCodeshift, path: ASTPath, ruleId: RuleId, advice: string): boolean {
  const statement = statementOf(path).node as { comments?: CommentNode[] };
  const prefix = `${MARKER_TAG}: ${ruleId}:`;
  const comments = statement.comments ?? [];
  if (comments.some((c) => c.leading !== false && c.value.includes(prefix))) return false;
  const comment = j.commentLine(` ${markerText(ruleId, advice)}`, true, false) as unknown as CommentNode;
  statement.comments = [
    ...comments.filter((c) => c.leading !== false),
    comment,
    ...comments.filter((c) => c.leading === false),
  ];
  return true;
}
