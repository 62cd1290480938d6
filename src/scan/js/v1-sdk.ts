/**
 * Tracks the V1 JS SDK through a program: which names are V1 exports (through
 * aliases, namespaces, require and re-exports) and which expressions hold a V1
 * client instance (variables, class fields, module singletons, factories).
 */
import { ts } from "ts-morph";
import { V1_SDK_EXPORTS } from "../../knowledge/migration.js";
import { isSdkModule } from "../../lang/js/sdk-module.js";
import { enclosingClass, type FileContext, requiredModule, unwrap } from "./file-context.js";
import type { Definition, Values } from "./values.js";

export const V1_EXPORT_NAMES: ReadonlySet<string> = new Set(V1_SDK_EXPORTS.map((e) => e.v1));
export const V1_CLIENT_CLASS = "ComfyDeployClient";
const MAX_DEPTH = 16;


export class V1Sdk {
  private readonly clientMemo = new Map<ts.Node, boolean>();

  constructor(private readonly values: Values) {}

  /** True when an expression is the SDK module object itself (namespace import, require, dynamic import). */
  isSdkNamespace(expr: ts.Expression, context: FileContext): boolean {
    const e = unwrap(expr);
    const module = requiredModule(e);
    if (module !== undefined) return isSdkModule(module);
    if (!ts.isIdentifier(e)) return false;
    const def = this.values.definitionOf(e, context);
    return def?.kind === "external" && isSdkModule(def.module) && (def.name === "*" || def.name === "default");
  }

  /** The V1 export an expression names, if any. */
  v1ExportOf(expr: ts.Expression, context: FileContext, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = unwrap(expr);
    if (ts.isIdentifier(e)) return this.v1ExportOfDefinition(this.values.definitionOf(e, context), depth);
    if (ts.isPropertyAccessExpression(e) && V1_EXPORT_NAMES.has(e.name.text) && this.isSdkNamespace(e.expression, context)) {
      return e.name.text;
    }
    return undefined;
  }

  private v1ExportOfDefinition(def: Definition | undefined, depth: number): string | undefined {
    if (!def) return undefined;
    if (def.kind === "external") return isSdkModule(def.module) && V1_EXPORT_NAMES.has(def.name) ? def.name : undefined;
    const value = this.values.valueOf(def);
    return value && this.v1ExportOf(value.expr, value.context, depth + 1);
  }

  /** A type annotation that names the V1 client class (also inside unions). */
  isClientType(type: ts.TypeNode | undefined, context: FileContext): boolean {
    if (!type) return false;
    if (ts.isUnionTypeNode(type)) return type.types.some((t) => this.isClientType(t, context));
    if (ts.isParenthesizedTypeNode(type)) return this.isClientType(type.type, context);
    if (ts.isImportTypeNode(type)) {
      const arg = type.argument;
      const module = ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal) ? arg.literal.text : undefined;
      return module !== undefined && isSdkModule(module) && qualifiedRight(type.qualifier) === V1_CLIENT_CLASS;
    }
    if (!ts.isTypeReferenceNode(type)) return false;
    const name = type.typeName;
    if (ts.isIdentifier(name)) return this.v1ExportOfDefinition(this.values.definitionOf(name, context), 0) === V1_CLIENT_CLASS;
    return name.right.text === V1_CLIENT_CLASS && ts.isIdentifier(name.left) && this.isSdkNamespace(name.left, context);
  }

  /** True when an expression evaluates to a V1 client instance. */
  isClient(expr: ts.Expression, context: FileContext, depth = 0): boolean {
    if (depth > MAX_DEPTH) return false;
    const e = unwrap(expr);
    const memo = this.clientMemo.get(e);
    if (memo !== undefined) return memo;
    this.clientMemo.set(e, false); // cycle guard
    const result = this.computeIsClient(e, context, depth);
    this.clientMemo.set(e, result);
    return result;
  }

  private computeIsClient(e: ts.Expression, context: FileContext, depth: number): boolean {
    if (ts.isNewExpression(e)) return this.v1ExportOf(e.expression, context, depth + 1) === V1_CLIENT_CLASS;
    if (ts.isAwaitExpression(e)) return this.isClient(e.expression, context, depth + 1);
    if (ts.isConditionalExpression(e)) {
      return this.isClient(e.whenTrue, context, depth + 1) || this.isClient(e.whenFalse, context, depth + 1);
    }
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
        return this.isClient(e.left, context, depth + 1) || this.isClient(e.right, context, depth + 1);
      }
      if (op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.QuestionQuestionEqualsToken) {
        return this.isClient(e.right, context, depth + 1);
      }
      return false;
    }
    if (ts.isIdentifier(e)) return this.definitionHoldsClient(this.values.definitionOf(e, context), depth);
    if (ts.isCallExpression(e)) return this.returnsClient(e.expression, context, depth);
    if (ts.isPropertyAccessExpression(e)) {
      if (e.expression.kind === ts.SyntaxKind.ThisKeyword) return this.memberHoldsClient(e, context, depth);
      const owner = unwrap(e.expression);
      if (ts.isIdentifier(owner)) {
        const def = this.values.definitionOf(owner, context);
        if (def?.kind === "module") return this.definitionHoldsClient(this.values.exportDefinition(def.file, e.name.text), depth);
      }
      const object = this.values.objectLiteral(owner, context);
      const prop = this.values.property(object, e.name.text);
      return prop ? this.isClient(prop.expr, prop.context, depth + 1) : false;
    }
    return false;
  }

  private definitionHoldsClient(def: Definition | undefined, depth: number): boolean {
    if (!def || def.kind !== "node") return false;
    const { node, context } = def;
    if (ts.isVariableDeclaration(node)) {
      if (this.isClientType(node.type, context)) return true;
      if (node.initializer && this.isClient(node.initializer, context, depth + 1)) return true;
      return (context.assignments.get(node) ?? []).some((rhs) => this.isClient(rhs, context, depth + 1));
    }
    if (ts.isParameter(node)) return this.isClientType(node.type, context);
    if (ts.isExpression(node)) return this.isClient(node, context, depth + 1);
    return false;
  }

  private memberHoldsClient(access: ts.PropertyAccessExpression, context: FileContext, depth: number): boolean {
    const cls = enclosingClass(access);
    const evidence = cls ? context.classMembers.get(cls)?.get(access.name.text) : undefined;
    for (const node of evidence ?? []) {
      if (ts.isPropertyDeclaration(node) || ts.isParameter(node)) {
        if (this.isClientType(node.type, context)) return true;
        if (node.initializer && this.isClient(node.initializer, context, depth + 1)) return true;
      } else if (ts.isExpression(node) && this.isClient(node, context, depth + 1)) {
        return true;
      }
    }
    return false;
  }

  /** True when calling the callee yields a client: `getClient()`, `await makeClient()`. */
  returnsClient(callee: ts.Expression, context: FileContext, depth: number): boolean {
    const e = unwrap(callee);
    let def: Definition | undefined;
    if (ts.isIdentifier(e)) def = this.values.definitionOf(e, context);
    else if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression)) {
      const owner = this.values.definitionOf(e.expression, context);
      if (owner?.kind === "module") def = this.values.exportDefinition(owner.file, e.name.text);
    }
    if (!def || def.kind !== "node") return false;
    let fn: ts.Node = def.node;
    if (ts.isVariableDeclaration(fn) && fn.initializer) fn = unwrap(fn.initializer);
    if (!(ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isArrowFunction(fn))) return false;
    if (fn.type && this.isClientType(unwrapPromiseType(fn.type), def.context)) return true;
    if (!fn.body) return false;
    if (!ts.isBlock(fn.body)) return this.isClient(fn.body, def.context, depth + 1);
    return returnExpressions(fn.body).some((r) => this.isClient(r, def.context, depth + 1));
  }

  /** Does any export of this module hold a client or return one? (Its importers then need a look.) */
  exportsClient(context: FileContext): boolean {
    for (const name of context.exports.keys()) {
      const def = this.values.exportDefinition(context.file, name);
      if (this.definitionHoldsClient(def, 0)) return true;
      if (def?.kind === "node") {
        const node = def.node;
        const fnName = ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node) ? node.name : undefined;
        if (fnName && ts.isIdentifier(fnName) && this.returnsClient(fnName, def.context, 0)) return true;
      }
    }
    return false;
  }
}

function qualifiedRight(name: ts.EntityName | undefined): string | undefined {
  if (!name) return undefined;
  return ts.isIdentifier(name) ? name.text : name.right.text;
}

function unwrapPromiseType(type: ts.TypeNode): ts.TypeNode {
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === "Promise" && type.typeArguments?.[0]) {
    return type.typeArguments[0];
  }
  return type;
}

/** Return expressions of a function body, not of functions nested in it. */
function returnExpressions(body: ts.Block): ts.Expression[] {
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) out.push(node.expression);
    if (ts.isFunctionLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}
