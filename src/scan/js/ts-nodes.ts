/**
 * Small questions about TypeScript nodes that the file model and the rules
 * ask: scopes, `require`/`import()` calls, wrappers to look through, and
 * which class a `this` belongs to.
 */
import { ts } from "./typescript-api.cjs";

export function isFunctionLike(node: ts.Node): boolean {
  switch (node.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ArrowFunction:
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.Constructor:
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
      return true;
    default:
      return false;
  }
}

export function isScopeNode(node: ts.Node): boolean {
  switch (node.kind) {
    case ts.SyntaxKind.SourceFile:
    case ts.SyntaxKind.Block:
    case ts.SyntaxKind.ModuleBlock:
    case ts.SyntaxKind.CaseBlock:
    case ts.SyntaxKind.ForStatement:
    case ts.SyntaxKind.ForInStatement:
    case ts.SyntaxKind.ForOfStatement:
    case ts.SyntaxKind.CatchClause:
      return true;
    default:
      return isFunctionLike(node);
  }
}

export function enclosingScope(node: ts.Node, functionScoped: boolean): ts.Node {
  let current: ts.Node | undefined = node;
  while (current) {
    if (
      functionScoped
        ? isFunctionLike(current) || ts.isSourceFile(current) || ts.isModuleBlock(current)
        : isScopeNode(current)
    ) {
      return current;
    }
    current = current.parent;
  }
  return node.getSourceFile();
}

/** The string module name of `require("x")` or `import("x")` (awaited or not), if the expression is one. */
export function requiredModule(expr: ts.Expression | undefined): string | undefined {
  let e = expr;
  while (e && (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e))) e = e.expression;
  if (!e || !ts.isCallExpression(e) || e.arguments.length < 1) return undefined;
  const arg = e.arguments[0]!;
  if (!ts.isStringLiteralLike(arg)) return undefined;
  const isRequire = ts.isIdentifier(e.expression) && e.expression.text === "require";
  const isDynamicImport = e.expression.kind === ts.SyntaxKind.ImportKeyword;
  return isRequire || isDynamicImport ? arg.text : undefined;
}

export function unwrap(expr: ts.Expression): ts.Expression {
  let e = expr;
  for (;;) {
    if (
      ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isTypeAssertionExpression(e)
    ) {
      e = e.expression;
    } else {
      return e;
    }
  }
}

export function isStringish(node: ts.Node): boolean {
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
  );
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

export function identifierAt(name: ts.ModuleExportName): ts.Expression {
  return name as ts.Expression;
}

/** `constructor(private client: X)` declares a class member too. */
export function isParameterProperty(node: ts.Node): node is ts.ParameterDeclaration {
  return (
    ts.isParameter(node) &&
    ts.isConstructorDeclaration(node.parent) &&
    ts.isIdentifier(node.name) &&
    (ts.getModifiers(node) ?? []).length > 0
  );
}

export function isUrlConstruction(node: ts.Node): boolean {
  return ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL";
}

/** The class whose `this` a node sees, looking through arrow functions. */
export function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isClassDeclaration(p) || ts.isClassExpression(p)) return p;
    if (ts.isFunctionDeclaration(p) || ts.isFunctionExpression(p)) return undefined;
  }
  return undefined;
}
