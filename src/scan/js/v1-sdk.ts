/**
 * Tracks the V1 JS SDK through a program: which names are V1 exports (through
 * aliases, namespaces, require and re-exports) and which expressions hold a V1
 * client instance (variables, class fields, module singletons, factories).
 */
import { ts } from "./typescript-api.cjs";
import { V1_CLIENT_METHODS, V1_SDK_EXPORTS } from "../../knowledge/migration.js";
import type { ClientReach } from "./client-reach.js";
import { isSdkModule } from "../../lang/js/sdk-module.js";
import { enclosingClass, type FileContext, requiredModule, unwrap } from "./file-context.js";
import type { Definition, Values } from "./values.js";
import type { VendoredClients } from "./vendored-client.js";
import { factoryArgument } from "./factory-arguments.js";
import { isSenderFunction, returnedObjects, type SenderFunction, type V1Senders } from "./v1-senders.js";

/** sdk: an instance of the V1 SDK's class; vendored: of a local copy of it. */
export type ClientKind = "sdk" | "vendored";

export const V1_EXPORT_NAMES: ReadonlySet<string> = new Set(V1_SDK_EXPORTS.map((e) => e.v1));
/** The V1 client's method names (`run`, `getRun`, …), for calls on clients and for recognising copies of the class. */
export const V1_METHOD_NAMES: ReadonlySet<string> = new Set(V1_CLIENT_METHODS.map((m) => m.v1));
export const V1_CLIENT_CLASS = "ComfyDeployClient";
const MAX_DEPTH = 16;

export class V1Sdk {
  private readonly clientMemo = new Map<ts.Node, ClientKind | null>();

  constructor(
    private readonly values: Values,
    private readonly vendored: VendoredClients,
    private readonly reach: ClientReach,
    private readonly senders: V1Senders,
  ) {}

  forget(): void {
    this.clientMemo.clear();
  }

  /** True when an expression is the SDK module object itself (namespace import, require, dynamic import). */
  isSdkNamespace(expr: ts.Expression, context: FileContext): boolean {
    const e = unwrap(expr);
    const module = requiredModule(e);
    if (module !== undefined) return isSdkModule(module);
    if (!ts.isIdentifier(e)) return false;
    const def = this.reach.definitionOf(e, context);
    return def?.kind === "external" && isSdkModule(def.module) && (def.name === "*" || def.name === "default");
  }

  /** The V1 export an expression names, if any. */
  v1ExportOf(expr: ts.Expression, context: FileContext, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = unwrap(expr);
    if (ts.isIdentifier(e)) return this.v1ExportOfDefinition(this.reach.definitionOf(e, context), depth);
    if (
      ts.isPropertyAccessExpression(e) &&
      V1_EXPORT_NAMES.has(e.name.text) &&
      this.isSdkNamespace(e.expression, context)
    ) {
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

  /** Which client class a type annotation names, if any: the V1 SDK's or a vendored copy. */
  clientTypeKind(type: ts.TypeNode | undefined, context: FileContext): ClientKind | undefined {
    if (!type) return undefined;
    if (ts.isUnionTypeNode(type)) return first(type.types, (t) => this.clientTypeKind(t, context));
    if (ts.isParenthesizedTypeNode(type)) return this.clientTypeKind(type.type, context);
    if (ts.isImportTypeNode(type)) {
      const arg = type.argument;
      const module = ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal) ? arg.literal.text : undefined;
      return module !== undefined && isSdkModule(module) && qualifiedRight(type.qualifier) === V1_CLIENT_CLASS
        ? "sdk"
        : undefined;
    }
    if (!ts.isTypeReferenceNode(type)) return undefined;
    const name = type.typeName;
    if (ts.isIdentifier(name)) {
      if (this.v1ExportOfDefinition(this.reach.definitionOf(name, context), 0) === V1_CLIENT_CLASS) return "sdk";
      return this.vendored.classOf(name, context) ? "vendored" : undefined;
    }
    return name.right.text === V1_CLIENT_CLASS && ts.isIdentifier(name.left) && this.isSdkNamespace(name.left, context)
      ? "sdk"
      : undefined;
  }

  /** True when an expression evaluates to a V1 SDK client instance. */
  isClient(expr: ts.Expression, context: FileContext, depth = 0): boolean {
    return this.clientKind(expr, context, depth) === "sdk";
  }

  /** What client an expression evaluates to: a V1 SDK instance, an instance of a vendored copy, or neither. */
  clientKind(expr: ts.Expression, context: FileContext, depth = 0): ClientKind | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = unwrap(expr);
    const memo = this.clientMemo.get(e);
    if (memo !== undefined) return memo ?? undefined;
    this.clientMemo.set(e, null); // cycle guard
    const result = this.computeKind(e, context, depth);
    this.clientMemo.set(e, result ?? null);
    return result;
  }

  private computeKind(e: ts.Expression, context: FileContext, depth: number): ClientKind | undefined {
    if (ts.isNewExpression(e)) {
      if (this.v1ExportOf(e.expression, context, depth + 1) === V1_CLIENT_CLASS) return "sdk";
      return this.vendored.classOf(unwrap(e.expression), context) ? "vendored" : undefined;
    }
    if (ts.isAwaitExpression(e)) return this.clientKind(e.expression, context, depth + 1);
    // `return { run: (…) => request("/run", …) }`: an object whose methods send V1 is a local client.
    if (ts.isObjectLiteralExpression(e)) return this.senders.objectSends(e, context) ? "vendored" : undefined;
    if (ts.isConditionalExpression(e)) {
      return this.clientKind(e.whenTrue, context, depth + 1) ?? this.clientKind(e.whenFalse, context, depth + 1);
    }
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
        return this.clientKind(e.left, context, depth + 1) ?? this.clientKind(e.right, context, depth + 1);
      }
      if (op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.QuestionQuestionEqualsToken) {
        return this.clientKind(e.right, context, depth + 1);
      }
      return undefined;
    }
    if (ts.isIdentifier(e)) return this.definitionKind(this.reach.definitionOf(e, context), depth);
    if (ts.isCallExpression(e))
      return this.returnKind(e.expression, context, depth) ?? this.factoryKind(e, context, depth);
    if (ts.isPropertyAccessExpression(e)) {
      if (e.expression.kind === ts.SyntaxKind.ThisKeyword) return this.memberKind(e, enclosingClass(e), context, depth);
      const owner = unwrap(e.expression);
      const module = this.reach.moduleOf(owner, context);
      if (module) return this.definitionKind(this.reach.exportDefinition(module, e.name.text), depth);
      // `stickers.client` where `stickers = new StickerService()`: the member of that class.
      const instance = this.instanceClass(owner, context, depth + 1);
      if (instance) return this.memberKind(e, instance.cls, instance.context, depth);
      const object = this.values.objectLiteral(owner, context);
      const prop = this.values.property(object, e.name.text);
      return prop ? this.clientKind(prop.expr, prop.context, depth + 1) : undefined;
    }
    return undefined;
  }

  private definitionKind(def: Definition | undefined, depth: number): ClientKind | undefined {
    if (def?.kind !== "node") return undefined;
    const { node, context } = def;
    if (ts.isVariableDeclaration(node)) {
      const typed = this.clientTypeKind(node.type, context);
      if (typed) return typed;
      const initial = node.initializer && this.clientKind(node.initializer, context, depth + 1);
      if (initial) return initial;
      return first(context.assignments.get(node) ?? [], (rhs) => this.clientKind(rhs, context, depth + 1));
    }
    if (ts.isParameter(node)) return this.clientTypeKind(node.type, context);
    if (ts.isExpression(node)) return this.clientKind(node, context, depth + 1);
    return undefined;
  }

  /** What `<instance>.<name>` holds in its class: fields, constructor assignments, parameter properties, getters. */
  private memberKind(
    access: ts.PropertyAccessExpression,
    cls: ts.ClassLikeDeclaration | undefined,
    context: FileContext,
    depth: number,
  ): ClientKind | undefined {
    const evidence = cls ? context.classMembers.get(cls)?.get(access.name.text) : undefined;
    for (const node of evidence ?? []) {
      let kind: ClientKind | undefined;
      if (ts.isPropertyDeclaration(node) || ts.isParameter(node)) {
        kind =
          this.clientTypeKind(node.type, context) ??
          (node.initializer && this.clientKind(node.initializer, context, depth + 1));
      } else if (ts.isGetAccessorDeclaration(node)) {
        kind = this.clientTypeKind(node.type, context) ?? this.bodyKind(node.body, context, depth);
      } else if (ts.isExpression(node)) {
        kind = this.clientKind(node, context, depth + 1);
      }
      if (kind) return kind;
    }
    return undefined;
  }

  /** The class of `new LocalClass()` an expression holds, for member lookups. */
  private instanceClass(
    expr: ts.Expression,
    context: FileContext,
    depth: number,
  ): { cls: ts.ClassLikeDeclaration; context: FileContext } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = unwrap(expr);
    if (ts.isNewExpression(e)) {
      const def = this.reach.definitionOfName(unwrap(e.expression), context);
      if (def?.kind === "node" && (ts.isClassDeclaration(def.node) || ts.isClassExpression(def.node)))
        return { cls: def.node, context: def.context };
      return undefined;
    }
    if (ts.isIdentifier(e)) {
      const value = this.values.valueOf(this.reach.definitionOf(e, context));
      return value ? this.instanceClass(value.expr, value.context, depth + 1) : undefined;
    }
    return undefined;
  }

  private returnKind(callee: ts.Expression, context: FileContext, depth: number): ClientKind | undefined {
    const e = unwrap(callee);
    let def: Definition | undefined;
    if (ts.isIdentifier(e)) def = this.reach.definitionOf(e, context);
    else if (ts.isPropertyAccessExpression(e)) {
      const module = this.reach.moduleOf(unwrap(e.expression), context);
      if (module) def = this.reach.exportDefinition(module, e.name.text);
    }
    if (def?.kind !== "node") return undefined;
    let fn: ts.Node = def.node;
    if (ts.isVariableDeclaration(fn) && fn.initializer) fn = unwrap(fn.initializer);
    // `memoize(() => new ComfyDeployClient(…))`, `cache(…)`, `once(…)`: a wrapped factory returns what it returns.
    if (ts.isCallExpression(fn) && fn.arguments.length === 1) fn = unwrap(fn.arguments[0]!);
    if (!(ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isArrowFunction(fn))) return undefined;
    const typed = fn.type && this.clientTypeKind(unwrapPromiseType(fn.type), def.context);
    if (typed) return typed;
    return this.bodyKind(fn.body, def.context, depth);
  }

  /** `singleton("comfy", () => new ComfyDeployClient(…))`, `useMemo(() => …, [])`: what the factory argument returns. */
  private factoryKind(call: ts.CallExpression, context: FileContext, depth: number): ClientKind | undefined {
    const factory = factoryArgument(call, (name) => {
      // Not gated by ClientReach: the helper (`singleton`) names nothing V1, the factory passed to it does.
      const def = this.values.definitionOf(name, context);
      return def?.kind === "node" ? def.node : undefined;
    });
    return factory && this.bodyKind(factory.body, context, depth);
  }

  private bodyKind(body: ts.ConciseBody | undefined, context: FileContext, depth: number): ClientKind | undefined {
    if (!body) return undefined;
    if (!ts.isBlock(body)) return this.clientKind(body, context, depth + 1);
    return first(returnExpressions(body), (r) => this.clientKind(r, context, depth + 1));
  }

  /**
   * Whether `receiver.name(…)` calls a member of a local V1 client that
   * sends V1 (`comfy.queueRun()`), whatever the member is called.
   */
  vendoredMemberSends(receiver: ts.Expression, name: string, context: FileContext): boolean {
    const shape = this.clientShape(receiver, context, 0);
    if (!shape) return false;
    const sender =
      "cls" in shape
        ? this.senders.memberSends(shape.cls, name, shape.context)
        : this.senders.propertySends(shape.object, name, shape.context);
    return sender !== undefined;
  }

  /** The class or object literal a client expression is an instance of, following names, awaits and factories. */
  private clientShape(
    expr: ts.Expression,
    context: FileContext,
    depth: number,
  ):
    | { cls: ts.ClassLikeDeclaration; context: FileContext }
    | { object: ts.ObjectLiteralExpression; context: FileContext }
    | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = unwrap(expr);
    if (ts.isAwaitExpression(e)) return this.clientShape(e.expression, context, depth + 1);
    if (ts.isObjectLiteralExpression(e)) return { object: e, context };
    if (ts.isCallExpression(e)) {
      const factory = ts.isIdentifier(unwrap(e.expression))
        ? this.localFunction(unwrap(e.expression) as ts.Identifier, context)
        : undefined;
      const object = factory && returnedObjects(factory.fn)[0];
      return object ? { object, context: factory.context } : undefined;
    }
    if (ts.isIdentifier(e)) {
      const value = this.values.valueOf(this.reach.definitionOf(e, context));
      if (value) return this.clientShape(value.expr, value.context, depth + 1);
    }
    return this.instanceClass(e, context, depth + 1);
  }

  /** The repository function a name refers to (a declaration, or a variable holding an arrow or function expression). */
  localFunction(name: ts.Identifier, context: FileContext): { fn: SenderFunction; context: FileContext } | undefined {
    const def = this.reach.definitionOf(name, context);
    if (def?.kind !== "node") return undefined;
    const node = ts.isVariableDeclaration(def.node) && def.node.initializer ? unwrap(def.node.initializer) : def.node;
    return isSenderFunction(node) ? { fn: node, context: def.context } : undefined;
  }

  /** What a repository function is to the app: a factory of a local V1 client, a function that sends V1 itself, or neither. */
  localClientFunction(
    name: ts.Identifier,
    context: FileContext,
  ): { role: "factory" | "sender"; fn: SenderFunction; context: FileContext } | undefined {
    const found = this.localFunction(name, context);
    if (!found) return undefined;
    if (this.senders.factorySends(found.fn, found.context)) return { role: "factory", ...found };
    if (this.senders.clientFunctionSends(found.fn, found.context)) return { role: "sender", ...found };
    return undefined;
  }

  /** Does any export of this module hold a client, return one, or is a vendored client class? (Its importers then need a look.) */
  exportsClient(context: FileContext, clientModules?: readonly string[]): boolean {
    // A barrel found by the importer follow-up passes a client on when it re-exports one of those modules:
    // resolving each of its (possibly thousands of) re-exports would parse every module behind it.
    if (clientModules && this.reexportsModule(context, new Set(clientModules))) return true;
    for (const name of this.exportedNames(context, clientModules !== undefined)) {
      const def = this.values.exportDefinition(context.file, name);
      if (this.definitionKind(def, 0)) return true;
      if (def?.kind === "node") {
        const node = def.node;
        if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && this.vendored.classInfo(node, def.context))
          return true;
        const fnName = ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node) ? node.name : undefined;
        if (fnName && ts.isIdentifier(fnName) && this.returnKind(fnName, def.context, 0)) return true;
        // `export default function () { return client }`: Nuxt auto-imports it under its module's name.
        if (ts.isFunctionDeclaration(node) && !node.name && this.bodyKind(node.body, def.context, 0)) return true;
        // An exported function that sends V1 itself (`export async function getRun(id)`): its callers are the app's V1 calls.
        const fn = ts.isVariableDeclaration(node) && node.initializer ? unwrap(node.initializer) : node;
        if (isSenderFunction(fn) && this.senders.clientFunctionSends(fn, def.context)) return true;
      }
    }
    return false;
  }

  private reexportsModule(context: FileContext, modules: ReadonlySet<string>): boolean {
    const targets = [
      ...context.starExports,
      ...[...context.exports.values()].flatMap((t) => (t.kind === "reexport" ? [t.module] : [])),
    ];
    return targets.some((module) => {
      const file = this.values.project.resolveModule(context.file, module);
      return file !== undefined && modules.has(file);
    });
  }

  /** Own export names plus those of `export * from "./x"` modules (one level: barrels); own local ones only when `localOnly`. */
  private exportedNames(context: FileContext, localOnly = false): string[] {
    if (localOnly) return [...context.exports].filter(([, target]) => target.kind !== "reexport").map(([name]) => name);
    const names = [...context.exports.keys()];
    for (const module of context.starExports) {
      const file = this.values.project.resolveModule(context.file, module);
      const target = file ? this.values.project.contextFor(file) : undefined;
      if (target) names.push(...target.exports.keys());
    }
    return names;
  }
}

function first<T, R>(items: readonly T[], pick: (item: T) => R | undefined): R | undefined {
  for (const item of items) {
    const found = pick(item);
    if (found) return found;
  }
  return undefined;
}

function qualifiedRight(name: ts.EntityName | undefined): string | undefined {
  if (!name) return undefined;
  return ts.isIdentifier(name) ? name.text : name.right.text;
}

function unwrapPromiseType(type: ts.TypeNode): ts.TypeNode {
  if (
    ts.isTypeReferenceNode(type) &&
    ts.isIdentifier(type.typeName) &&
    type.typeName.text === "Promise" &&
    type.typeArguments?.[0]
  ) {
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
