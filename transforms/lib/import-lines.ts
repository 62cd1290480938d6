/**
 * New import lines, placed as text after recast has printed a file: after
 * the file's last top-level import or require (else at the top, below its
 * directives and header comment). recast prints two new statements on one
 * line, and reprints directives ("use strict";;) once a program's body
 * changes; text placement avoids both.
 */
import { loadTypeScript, scriptKindOf, type TypeScript } from "../../src/platform/typescript.js";

export function insertImportLines(source: string, lines: readonly string[], file: string): string {
  if (lines.length === 0) return source;
  const ts = loadTypeScript();
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, scriptKindOf(file, ts));
  let end: number | undefined;
  let firstCode: number | undefined;
  for (const statement of parsed.statements) {
    const isDirective = ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression);
    if (isDirective) {
      end = statement.getEnd();
      continue;
    }
    if (ts.isImportDeclaration(statement) || isRequire(ts, statement)) end = statement.getEnd();
    else firstCode ??= statement.getStart(parsed);
  }
  const block = lines.join("\n");
  if (end !== undefined) return `${source.slice(0, end)}\n${block}${source.slice(end)}`;
  // No imports: above the first statement, below the file's header comment.
  const at = firstCode ?? source.length;
  return `${source.slice(0, at)}${block}\n\n${source.slice(at)}`;
}

/** `const x = require("…")` at the top level. */
function isRequire(ts: TypeScript, statement: import("ts-morph").ts.Statement): boolean {
  if (!ts.isVariableStatement(statement)) return false;
  const init = statement.declarationList.declarations[0]?.initializer;
  return !!init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === "require";
}
