/**
 * JSON files imported as modules (`import config from "../config.json"`,
 * `require("./config/default.json")`, `import { comfy } from "./settings.json"`):
 * the object literal the file holds, so a base kept in a JSON config is read
 * like one kept in code. A JSON file is read only when an import names it.
 */
import { ts } from "./typescript-api.cjs";
import type { FileContext } from "./file-context.js";
import type { JsProject } from "./project.js";

export type JsonValue = { context: FileContext; node: ts.Expression };

/** The value a JSON module gives an import of `name` ("default" or "*": the whole document). */
export function jsonModuleValue(project: JsProject, file: string, name: string): JsonValue | undefined {
  const root = jsonDocument(project, file);
  if (!root || name === "default" || name === "*") return root;
  if (!ts.isObjectLiteralExpression(root.node)) return undefined;
  for (const prop of root.node.properties) {
    if (ts.isPropertyAssignment(prop) && ts.isStringLiteral(prop.name) && prop.name.text === name)
      return { context: root.context, node: prop.initializer };
  }
  return undefined;
}

/** The top-level value of a repository JSON file (undefined when it cannot be read or parsed). */
export function jsonDocument(project: JsProject, file: string): JsonValue | undefined {
  const context = project.contextFor(file);
  const statement = context?.sourceFile.statements[0];
  if (!context || !statement || !ts.isExpressionStatement(statement)) return undefined;
  return { context, node: statement.expression };
}
