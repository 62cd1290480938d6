/**
 * Static values of JS/TS expressions: what a name refers to (across files),
 * the object literal behind an options argument, and the entry to what string
 * a URL expression builds (read in expression-string.ts, HOLEs for unknown parts).
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { enclosingClass, type FileContext, unwrap } from "./file-context.js";
import { expressionString } from "./expression-string.js";
import type { JsProject } from "./project.js";
import { readReturned, refValue, returnedExpressions } from "./call-returns.js";
import { ConstructionSites } from "./construction-sites.js";
import { jsonModuleValue } from "./json-modules.js";
import { injectedConfig, NODE_CONFIG_MODULE, nodeConfigRoot } from "./config-reads.js";
import { expoConfig, isExpoConfigRead } from "./expo-config.js";
import { credentialProperty } from "./n8n-credentials.js";

export type Definition =
  /** A declaration or expression in some repository file. */
  | { kind: "node"; context: FileContext; node: ts.Node }
  /** A whole repository module (namespace import or require of a relative path). */
  | { kind: "module"; file: string }
  /** A binding imported from a package (not a repository file). */
  | { kind: "external"; module: string; name: string; context: FileContext; node: ts.Node };

const MAX_DEPTH = 24;

export class Values {
  /** Expressions whose value fed a reported request, so they are not reported again on their own. */
  readonly consumed = new Set<ts.Node>();
  /**
   * Arguments bound to a helper's parameters while a call of it is read
   * (`request("/run", init)` into `fetch(base + path, { ...init })`): a bound
   * parameter stands for the caller's argument instead of its default.
   */
  private readonly bindings = new Map<ts.Node, { context: FileContext; expr: ts.Expression }>();

  /** Constructor parameters read from the class's construction sites (on only while a request is read again). */
  private readonly constructions: ConstructionSites;
  /**
   * Whether values set up elsewhere in the repository are read: what `new C(…)`
   * passes a constructor, the base NestJS registers for an injected client.
   * On only while a request on an unknown base is read again, so a class is
   * not taken for a V1 client because of how the app wires it.
   */
  private wiring = false;

  get readsWiring(): boolean {
    return this.wiring;
  }

  constructor(
    readonly project: JsProject,
    /** The ComfyDeploy base the repository's env files set a variable to (`.env`, wrangler vars). */
    readonly envValue: (name: string) => string | undefined = () => undefined,
  ) {
    this.constructions = new ConstructionSites(project);
  }

  /** Reads `read()` with the repository's wiring read too (see `wiring`). */
  withWiring<T>(read: () => T): T {
    const was = this.wiring;
    this.wiring = true;
    try {
      return read();
    } finally {
      this.wiring = was;
    }
  }

  forgetConstructions(): void {
    this.constructions.forget();
  }

  /** Reads `read()` with each parameter bound to the argument at its position; the bindings end with it. */
  withArguments<T>(
    params: readonly ts.ParameterDeclaration[],
    args: readonly ts.Expression[],
    context: FileContext,
    read: () => T,
  ): T {
    const bound: ts.Node[] = [];
    params.forEach((param, i) => {
      const arg = args[i];
      if (!arg || param.dotDotDotToken || this.bindings.has(param)) return;
      this.bindings.set(param, { context, expr: arg });
      bound.push(param);
    });
    try {
      return read();
    } finally {
      for (const param of bound) this.bindings.delete(param);
    }
  }

  /** `enters`: whether a name imported from this repository module is followed into it (undefined: always). */
  definitionOf(
    identifier: ts.Identifier,
    context: FileContext,
    depth = 0,
    enters?: (file: string) => boolean,
  ): Definition | undefined {
    const decl = context.resolve(identifier);
    if (!decl) return undefined;
    return this.definitionOfDeclaration(decl, context, depth, enters);
  }

  definitionOfDeclaration(
    decl: ts.Node,
    context: FileContext,
    depth = 0,
    enters?: (file: string) => boolean,
  ): Definition | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const imported = context.imports.get(decl);
    if (!imported) return { kind: "node", context, node: decl };
    const file = this.project.resolveModule(context.file, imported.module);
    if (!file) {
      const json = this.project.resolveJsonModule(context.file, imported.module);
      const data = json && (!enters || enters(json)) ? jsonModuleValue(this.project, json, imported.name) : undefined;
      if (data) return { kind: "node", ...data };
      return { kind: "external", module: imported.module, name: imported.name, context, node: decl };
    }
    if (enters && !enters(file)) return undefined;
    if (imported.name === "*") return { kind: "module", file };
    return this.exportDefinition(file, imported.name, depth + 1);
  }

  exportDefinition(file: string, name: string, depth = 0): Definition | undefined {
    const found = this.project.resolveExport(file, name);
    if (!found) return undefined;
    const { context, target } = found;
    if (target.kind === "reexport") {
      const whole = target.name === "*" ? this.project.resolveModule(context.file, target.module) : undefined;
      if (whole) return { kind: "module", file: whole };
      return { kind: "external", module: target.module, name: target.name, context, node: context.sourceFile };
    }
    const node = target.node;
    if (ts.isIdentifier(node)) {
      return this.definitionOf(node, context, depth + 1) ?? { kind: "node", context, node };
    }
    return { kind: "node", context, node };
  }

  /** The expression a definition stands for: a variable's initializer, or the expression itself. */
  valueOf(def: Definition | undefined): { context: FileContext; expr: ts.Expression } | undefined {
    if (def?.kind !== "node") return undefined;
    const node = def.node;
    if (ts.isVariableDeclaration(node)) {
      return node.initializer ? { context: def.context, expr: node.initializer } : undefined;
    }
    // `const { comfy } = config`: the property of the destructured object; else the default.
    if (ts.isBindingElement(node))
      return this.destructuredValue(node, def.context) ?? this.defaultValue(node, def.context);
    // A parameter's default (`constructor(base = "https://…")`) is the value callers get when they pass none.
    if (ts.isParameter(node))
      return (
        this.bindings.get(node) ??
        this.defaultValue(node, def.context) ??
        injectedConfig(this, node, def.context) ??
        (this.wiring ? this.constructions.argumentFor(node, this) : undefined)
      );
    if (ts.isExpression(node)) return { context: def.context, expr: node };
    return undefined;
  }

  private defaultValue(node: ts.BindingElement | ts.ParameterDeclaration, context: FileContext) {
    return node.initializer ? { context, expr: node.initializer } : undefined;
  }

  private destructuredValue(
    node: ts.BindingElement,
    context: FileContext,
  ): { context: FileContext; expr: ts.Expression } | undefined {
    const pattern = node.parent;
    if (node.dotDotDotToken || !ts.isObjectBindingPattern(pattern)) return undefined;
    const holder = pattern.parent;
    if (!ts.isVariableDeclaration(holder) || !holder.initializer) return undefined;
    const key = node.propertyName
      ? propertyNameText(node.propertyName)
      : ts.isIdentifier(node.name)
        ? node.name.text
        : undefined;
    return key === undefined ? undefined : this.property(this.objectLiteral(holder.initializer, context), key);
  }

  /**
   * What `this.<name>` holds in its class: the field initializer, constructor
   * assignments and parameter properties, in source order. The first whose
   * value is known wins (`apiBase = V1; if (x) this.apiBase = \`${x}/api\``).
   */
  thisMemberValues(
    access: ts.PropertyAccessExpression,
    context: FileContext,
  ): Array<{ context: FileContext; expr: ts.Expression }> {
    const cls = enclosingClass(access);
    const evidence = cls ? context.classMembers.get(cls)?.get(access.name.text) : undefined;
    const out: Array<{ context: FileContext; expr: ts.Expression }> = [];
    for (const node of evidence ?? []) {
      if ((ts.isPropertyDeclaration(node) || ts.isParameter(node)) && node.initializer)
        out.push({ context, expr: node.initializer });
      // `constructor(private readonly options: Options)`: what the class's construction passes.
      else if (ts.isParameter(node)) {
        const passed =
          injectedConfig(this, node, context) ?? (this.wiring ? this.constructions.argumentFor(node, this) : undefined);
        if (passed) out.push(passed);
      }
      // `get baseUrl() { return this.opts.baseUrl ?? DEFAULT }`: what the getter returns.
      else if (ts.isGetAccessorDeclaration(node))
        for (const expr of returnedExpressions(node)) out.push({ context, expr });
      else if (ts.isExpression(node)) out.push({ context, expr: node });
    }
    // `Object.assign(this, DEFAULTS, options)`: the last object that names the member.
    for (const call of cls ? context.calls : []) {
      const [target, ...sources] = call.arguments;
      if (!target || target.kind !== ts.SyntaxKind.ThisKeyword || !isObjectAssign(call) || enclosingClass(call) !== cls)
        continue;
      for (const source of sources.reverse()) {
        const value = this.property(this.objectLiteral(source, context), access.name.text);
        if (value) out.push(value);
      }
    }
    return out;
  }

  /** The object literal an expression evaluates to, following names and imports. */
  objectLiteral(
    expr: ts.Expression | undefined,
    context: FileContext,
    depth = 0,
  ): { context: FileContext; object: ts.ObjectLiteralExpression } | undefined {
    if (!expr || depth > MAX_DEPTH) return undefined;
    const e = unwrap(expr);
    if (ts.isObjectLiteralExpression(e)) return { context, object: e };
    if (ts.isIdentifier(e)) {
      const value = this.valueOf(this.definitionOf(e, context));
      return value && this.objectLiteral(value.expr, value.context, depth + 1);
    }
    if (ts.isPropertyAccessExpression(e)) {
      // `this.options = { baseUrl: DEFAULT, ...options }` read as `this.options.baseUrl`.
      if (e.expression.kind === ts.SyntaxKind.ThisKeyword)
        return firstOf(this.thisMemberValues(e, context), (v) => this.objectLiteral(v.expr, v.context, depth + 1));
      const value = this.propertyValue(e, context, depth + 1);
      return value && this.objectLiteral(value.expr, value.context, depth + 1);
    }
    // `Constants.expoConfig?.extra ?? {}`: the object on the left when it is known.
    if (
      ts.isBinaryExpression(e) &&
      (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
        e.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    )
      return this.objectLiteral(e.left, context, depth + 1) ?? this.objectLiteral(e.right, context, depth + 1);
    // `Object.assign({}, DEFAULTS, options)`: the sources, later ones first, as a spread of each.
    if (ts.isCallExpression(e) && isObjectAssign(e)) return { context, object: assignedObject(e) };
    // `const { baseUrl } = useComfyConfig()`: the object the function returns.
    if (ts.isCallExpression(e))
      return readReturned(this, e, context, depth + 1, (v) => this.objectLiteral(v.expr, v.context, depth + 1));
    return undefined;
  }

  /** The initializer of a named property of an object literal (spreads are followed). */
  property(
    object: { context: FileContext; object: ts.ObjectLiteralExpression } | undefined,
    name: string,
    depth = 0,
  ): { context: FileContext; expr: ts.Expression } | undefined {
    if (!object || depth > MAX_DEPTH) return undefined;
    const props = object.object.properties;
    for (let i = props.length - 1; i >= 0; i--) {
      const prop = props[i]!;
      if (ts.isPropertyAssignment(prop) && propertyNameText(prop.name) === name) {
        return { context: object.context, expr: prop.initializer };
      }
      if (ts.isShorthandPropertyAssignment(prop) && prop.name.text === name) {
        return { context: object.context, expr: prop.name };
      }
      if (ts.isSpreadAssignment(prop)) {
        const inner = this.property(this.objectLiteral(prop.expression, object.context, depth + 1), name, depth + 1);
        if (inner) return inner;
      }
    }
    return undefined;
  }

  /** Property names of an object literal, with spreads followed. */
  propertyNames(object: { context: FileContext; object: ts.ObjectLiteralExpression } | undefined, depth = 0): string[] {
    if (!object || depth > MAX_DEPTH) return [];
    const names: string[] = [];
    for (const prop of object.object.properties) {
      if (ts.isSpreadAssignment(prop)) {
        names.push(...this.propertyNames(this.objectLiteral(prop.expression, object.context, depth + 1), depth + 1));
      } else if (prop.name) {
        const text = propertyNameText(prop.name);
        if (text !== undefined) names.push(text);
      }
    }
    return names;
  }

  /** What `owner.name` holds: a module export, or a property of the object behind the owner. */
  propertyValue(
    access: ts.PropertyAccessExpression,
    context: FileContext,
    depth: number,
  ): { context: FileContext; expr: ts.Expression } | undefined {
    const owner = unwrap(access.expression);
    const name = access.name.text;
    if (ts.isIdentifier(owner)) {
      const def = this.definitionOf(owner, context, depth);
      if (def?.kind === "module") return this.valueOf(this.exportDefinition(def.file, name, depth + 1));
      // `RenderClient.BASE_URL`: a static field of a class.
      if (def?.kind === "node" && ts.isClassLike(def.node)) return staticField(def.node, name, def.context);
      // `Constants.expoConfig`: the Expo app config the project sets.
      if (def?.kind === "external" && isExpoConfigRead(def.module, name)) return expoConfig(this, context.file);
      // `config.comfy.baseUrl` with node-config's `config`: config/default.json.
      if (def?.kind === "external" && def.module === NODE_CONFIG_MODULE) {
        const root = nodeConfigRoot(this);
        return root && this.property(this.objectLiteral(root.expr, root.context, depth + 1), name);
      }
    }
    // `credentials.baseUrl` on an n8n node's `await this.getCredentials("…")`: the credential type's default.
    const credential = credentialProperty(this, owner, name, context);
    if (credential) return credential;
    if (name === "value") {
      const held = refValue(this, owner, context, depth + 1)[0];
      if (held) return held;
    }
    return this.property(this.objectLiteral(owner, context, depth + 1), name, depth + 1);
  }

  /** A string method name or literal argument, if it is static. */
  staticString(expr: ts.Expression | undefined, context: FileContext): string | undefined {
    if (!expr) return undefined;
    const text = this.stringValue(expr, context, new Set());
    return text.includes(HOLE) ? undefined : text;
  }

  /**
   * The string an expression builds, HOLE where a part is not statically known.
   * Nodes visited through names are marked consumed when `consume` is set.
   */
  stringValue(expr: ts.Expression, context: FileContext, consume: Set<ts.Node> | null, depth = 0): string {
    if (depth > MAX_DEPTH) return HOLE;
    return expressionString(this, expr, context, consume, depth);
  }
}

/** The initializer of a class's static field `name`. */
function staticField(
  cls: ts.ClassLikeDeclaration,
  name: string,
  context: FileContext,
): { context: FileContext; expr: ts.Expression } | undefined {
  for (const member of cls.members) {
    if (!ts.isPropertyDeclaration(member) || !member.initializer || propertyNameText(member.name) !== name) continue;
    if (member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword))
      return { context, expr: member.initializer };
  }
  return undefined;
}

function isObjectAssign(call: ts.CallExpression): boolean {
  const callee = unwrap(call.expression);
  return (
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === "assign" &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === "Object"
  );
}

const assignedObjects = new WeakMap<ts.CallExpression, ts.ObjectLiteralExpression>();

/** `Object.assign(target, a, b)` read as `{ ...target, ...a, ...b }` (made once per call, so it stays one node). */
function assignedObject(call: ts.CallExpression): ts.ObjectLiteralExpression {
  let object = assignedObjects.get(call);
  if (!object) {
    object = ts.factory.createObjectLiteralExpression(call.arguments.map((a) => ts.factory.createSpreadAssignment(a)));
    assignedObjects.set(call, object);
  }
  return object;
}

function firstOf<T, R>(items: readonly T[], read: (item: T) => R | undefined): R | undefined {
  for (const item of items) {
    const found = read(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function propertyNameText(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return name.expression.text;
  return undefined;
}
