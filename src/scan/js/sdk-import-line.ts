/**
 * Which rule a V1 name in an import gets when the import mixes types and
 * values on one line.
 */
import { ts } from "./typescript-api.cjs";
import { V1_EXPORT_NAMES } from "./v1-sdk.js";

/**
 * `import { parseWebhookDataSafe, type WebookRequestBody } from "comfydeploy"`:
 * an inline type specifier on the line of a V1 value it is imported with. The
 * line is one place to act, reported as the import (a specifier on a line of
 * its own keeps its type finding).
 */
export function besideV1Value(decl: ts.Node): boolean {
  if (!ts.isImportSpecifier(decl) || decl.parent.parent.isTypeOnly) return false;
  const file = decl.getSourceFile();
  const line = (node: ts.Node): number => file.getLineAndCharacterOfPosition(node.getStart(file)).line;
  return decl.parent.elements.some(
    (spec) =>
      !spec.isTypeOnly && V1_EXPORT_NAMES.has((spec.propertyName ?? spec.name).text) && line(spec) === line(decl),
  );
}
