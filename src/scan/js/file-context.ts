/**
 * One parsed JS/TS file and the indexes the analysis needs, built in a single
 * walk over the raw TypeScript nodes: lexical bindings, imports and exports,
 * assignments, and the node lists the rules look at.
 */
import { ts } from "./typescript-api.cjs";
import { scriptKindOf } from "../../platform/typescript.js";
import {
  enclosingClass,
  enclosingScope,
  hasExportModifier,
  identifierAt,
  isParameterProperty,
  isStringish,
  isUrlConstruction,
  push,
  requiredModule,
  unwrap,
} from "./ts-nodes.js";

// The node helpers the rules import from here.
export { enclosingClass, isStringish, requiredModule, unwrap } from "./ts-nodes.js";

export interface ImportBinding {
  module: string;
  /** The exported name, "*" for a namespace, "default" for a default import. */
  name: string;
}

export type ExportTarget =
  | { kind: "local"; node: ts.Node }
  | { kind: "expression"; node: ts.Expression }
  /** `name` "*": the module itself (`export * as x from`, `exports.x = require(…)`). */
  | { kind: "reexport"; module: string; name: string };

/** `x = v`, and `x ??= v` / `x ||= v`, which give x a value when it has none. */
const ASSIGNMENTS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
]);

/** Whether an assigned value comes from `x ??= v` or `x ||= v`: a fallback for when x has none. */
export function isFallbackAssignment(value: ts.Expression): boolean {
  const parent = value.parent;
  return (
    ts.isBinaryExpression(parent) &&
    parent.right === value &&
    ASSIGNMENTS.has(parent.operatorToken.kind) &&
    parent.operatorToken.kind !== ts.SyntaxKind.EqualsToken
  );
}

export function parseSource(path: string, text: string): ts.SourceFile {
  // No rule reads JSDoc: leaving its comments unparsed makes a well-documented file parse about a sixth faster.
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  // A JSON module (`import config from "./config.json"`) is read as the object literal it is.
  const kind = path.endsWith(".json") ? ts.ScriptKind.JSON : scriptKindOf(path, ts);
  return ts.createSourceFile(path, text, options, true, kind);
}

export class FileContext {
  /** Declarations by the scope node they live in. */
  private readonly scopes = new Map<ts.Node, Map<string, ts.Node>>();
  /** Right-hand sides of `x = ...` assignments, by the declaration of x. */
  readonly assignments = new Map<ts.Node, ts.Expression[]>();
  /** Query keys added with `x.searchParams.set(k, v)` / `x.set(k, v)` (each key's first call), by the declaration of x. */
  readonly queryMutations = new Map<ts.Node, Map<string, ts.CallExpression>>();
  readonly imports = new Map<ts.Node, ImportBinding>();
  readonly exports = new Map<string, ExportTarget>();
  readonly starExports: string[] = [];
  /** `module.exports = <value>`: what `require()` of this module returns. */
  moduleExports: ts.Expression | undefined;
  readonly calls: ts.CallExpression[] = [];
  readonly newExpressions: ts.NewExpression[] = [];
  readonly propertyAccesses: ts.PropertyAccessExpression[] = [];
  readonly importTypes: ts.ImportTypeNode[] = [];
  /** Type references and `typeof x` queries, for type positions naming V1 SDK names. */
  readonly typeReferences: ts.TypeReferenceNode[] = [];
  readonly typeQueries: ts.TypeQueryNode[] = [];
  readonly classes: ts.ClassLikeDeclaration[] = [];
  /** String literals and template parts, for host detection. */
  readonly stringParts: ts.Node[] = [];
  /** Maximal string-building expressions (not part of a larger one). */
  readonly urlExpressions: ts.Expression[] = [];
  /** Class member evidence: `this.x = ...` and field initializers, by class then member name. */
  readonly classMembers = new Map<ts.Node, Map<string, ts.Node[]>>();

  /** Declarations standing for names the framework puts in scope (see `implicit`), one per name asked. */
  private readonly implicitDeclarations = new Map<string, ts.Node>();

  constructor(
    readonly file: string,
    readonly sourceFile: ts.SourceFile,
    /** Names in scope without an import statement (a Nuxt app's auto-imports): the module and export each stands for. */
    private readonly implicit?: (name: string) => ImportBinding | undefined,
  ) {
    this.walk(sourceFile);
  }

  get text(): string {
    return this.sourceFile.text;
  }

  /** The declaration an identifier in expression position refers to. */
  resolve(identifier: ts.Identifier): ts.Node | undefined {
    const name = identifier.text;
    for (let p: ts.Node | undefined = identifier.parent; p; p = p.parent) {
      const found = this.scopes.get(p)?.get(name);
      if (found) return found;
    }
    return this.implicitDeclaration(name);
  }

  /**
   * A free name the framework imports: a stand-in declaration recorded as an
   * import of its module, so that everything that follows imports follows it.
   */
  private implicitDeclaration(name: string): ts.Node | undefined {
    const known = this.implicitDeclarations.get(name);
    if (known || !this.implicit) return known;
    const binding = this.implicit(name);
    if (!binding) return undefined;
    const declaration = ts.factory.createIdentifier(name);
    this.implicitDeclarations.set(name, declaration);
    this.imports.set(declaration, binding);
    return declaration;
  }

  private declare(scope: ts.Node, name: string, declaration: ts.Node): void {
    let names = this.scopes.get(scope);
    if (!names) {
      names = new Map();
      this.scopes.set(scope, names);
    }
    if (!names.has(name)) names.set(name, declaration);
  }

  private declareBindingName(name: ts.BindingName, declaration: ts.Node, scope: ts.Node, module?: string): void {
    if (ts.isIdentifier(name)) {
      this.declare(scope, name.text, declaration);
      if (module !== undefined) this.imports.set(declaration, { module, name: "*" });
      return;
    }
    for (const element of name.elements) {
      if (ts.isOmittedExpression(element)) continue;
      if (ts.isIdentifier(element.name)) {
        this.declare(scope, element.name.text, element);
        if (module !== undefined && ts.isObjectBindingPattern(name)) {
          const prop = element.propertyName;
          const imported = prop && (ts.isIdentifier(prop) || ts.isStringLiteral(prop)) ? prop.text : element.name.text;
          this.imports.set(element, { module, name: imported });
        }
      } else {
        this.declareBindingName(element.name, element, scope);
      }
    }
  }

  private addClassMember(node: ts.Node, name: string, evidence: ts.Node): void {
    const cls = enclosingClass(node);
    if (!cls) return;
    let members = this.classMembers.get(cls);
    if (!members) {
      members = new Map();
      this.classMembers.set(cls, members);
    }
    const list = members.get(name) ?? [];
    list.push(evidence);
    members.set(name, list);
  }

  private recordDeclarations(node: ts.Node): void {
    if (ts.isVariableDeclaration(node)) {
      const list = node.parent;
      const functionScoped =
        ts.isVariableDeclarationList(list) && (list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) === 0;
      const scope = ts.isCatchClause(list) ? list : enclosingScope(list, functionScoped);
      this.declareBindingName(node.name, node, scope, requiredModule(node.initializer));
      if (ts.isVariableStatement(list.parent) && hasExportModifier(list.parent) && ts.isIdentifier(node.name)) {
        this.exports.set(node.name.text, { kind: "local", node });
      }
    } else if (ts.isParameter(node)) {
      this.declareBindingName(node.name, node, node.parent);
    } else if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) {
      if (node.name) {
        this.declare(enclosingScope(node.parent, false), node.name.text, node);
        if (hasExportModifier(node)) {
          const isDefault = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
          this.exports.set(isDefault ? "default" : node.name.text, { kind: "local", node });
        }
      } else if (hasExportModifier(node)) {
        this.exports.set("default", { kind: "local", node });
      }
    } else if (ts.isFunctionExpression(node) && node.name) {
      this.declare(node, node.name.text, node);
    } else if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const module = node.moduleSpecifier.text;
      const clause = node.importClause;
      const sf = node.getSourceFile();
      if (clause?.name) {
        this.declare(sf, clause.name.text, clause);
        this.imports.set(clause, { module, name: "default" });
      }
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        this.declare(sf, bindings.name.text, bindings);
        this.imports.set(bindings, { module, name: "*" });
      } else if (bindings) {
        for (const spec of bindings.elements) {
          this.declare(sf, spec.name.text, spec);
          this.imports.set(spec, { module, name: (spec.propertyName ?? spec.name).text });
        }
      }
    } else if (ts.isImportEqualsDeclaration(node)) {
      const ref = node.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression)) {
        this.declare(node.getSourceFile(), node.name.text, node);
        this.imports.set(node, { module: ref.expression.text, name: "*" });
      }
    } else if (ts.isExportDeclaration(node)) {
      const module =
        node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
      const clause = node.exportClause;
      if (!clause) {
        if (module) this.starExports.push(module);
      } else if (ts.isNamespaceExport(clause)) {
        // `export * as comfy from "./comfy"`: the module itself under a name.
        if (module) this.exports.set(clause.name.text, { kind: "reexport", module, name: "*" });
      } else if (ts.isNamedExports(clause)) {
        for (const spec of clause.elements) {
          const local = (spec.propertyName ?? spec.name).text;
          if (module) this.exports.set(spec.name.text, { kind: "reexport", module, name: local });
          else
            this.exports.set(spec.name.text, {
              kind: "expression",
              node: identifierAt(spec.propertyName ?? spec.name),
            });
        }
      }
    } else if (ts.isExportAssignment(node)) {
      this.exports.set("default", { kind: "expression", node: node.expression });
    }
  }

  private recordExpression(node: ts.Node): void {
    if (ts.isCallExpression(node)) {
      this.calls.push(node);
      this.recordQueryMutation(node);
    } else if (ts.isNewExpression(node)) {
      this.newExpressions.push(node);
    } else if (ts.isPropertyAccessExpression(node)) {
      this.propertyAccesses.push(node);
    } else if (ts.isImportTypeNode(node)) {
      this.importTypes.push(node);
    } else if (ts.isTypeReferenceNode(node)) {
      this.typeReferences.push(node);
    } else if (ts.isTypeQueryNode(node)) {
      this.typeQueries.push(node);
    } else if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      this.classes.push(node);
    } else if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
      this.recordAssignment(node);
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      this.stringParts.push(node);
    }
    if (
      (isStringish(node) || isUrlConstruction(node)) &&
      !isStringish(node.parent) &&
      !ts.isTemplateSpan(node.parent)
    ) {
      this.urlExpressions.push(node as ts.Expression);
    }
  }

  private recordAssignment(node: ts.BinaryExpression): void {
    const left = unwrap(node.left);
    if (ts.isIdentifier(left)) {
      const decl = this.resolve(left);
      if (decl) push(this.assignments, decl, node.right);
    } else if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword) {
      this.addClassMember(node, left.name.text, node.right);
    } else if (ts.isPropertyAccessExpression(left)) {
      this.recordCommonJsExport(left, node.right);
    }
  }

  /** `exports.X = ...`, `module.exports.X = ...` and `module.exports = { ... }`. */
  private recordCommonJsExport(left: ts.PropertyAccessExpression, right: ts.Expression): void {
    const target = left.expression;
    const isModuleExports = ts.isIdentifier(target) && target.text === "module" && left.name.text === "exports";
    if (isModuleExports) {
      this.exports.set("default", { kind: "expression", node: right });
      this.moduleExports = right;
      const value = unwrap(right);
      // `module.exports = require("./client")`: a CommonJS barrel passing every export on.
      const whole = requiredModule(value);
      if (whole !== undefined) this.starExports.push(whole);
      if (ts.isObjectLiteralExpression(value)) {
        for (const prop of value.properties) {
          if (ts.isPropertyAssignment(prop) && ts.isIdentifier(prop.name)) {
            this.exports.set(prop.name.text, exportOfValue(prop.initializer));
          } else if (ts.isShorthandPropertyAssignment(prop)) {
            this.exports.set(prop.name.text, { kind: "expression", node: prop.name });
          } else if (ts.isSpreadAssignment(prop)) {
            // `{ ...require("./client") }`
            const spread = requiredModule(unwrap(prop.expression));
            if (spread !== undefined) this.starExports.push(spread);
          }
        }
      }
      return;
    }
    const isExportsObject =
      (ts.isIdentifier(target) && target.text === "exports") ||
      (ts.isPropertyAccessExpression(target) &&
        ts.isIdentifier(target.expression) &&
        target.expression.text === "module" &&
        target.name.text === "exports");
    if (isExportsObject) this.exports.set(left.name.text, exportOfValue(right));
  }

  private recordQueryMutation(call: ts.CallExpression): void {
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee) || !["set", "append"].includes(callee.name.text)) return;
    const key = call.arguments[0];
    if (!key || !ts.isStringLiteralLike(key)) return;
    let owner: ts.Expression = callee.expression;
    if (ts.isPropertyAccessExpression(owner) && owner.name.text === "searchParams") owner = owner.expression;
    owner = unwrap(owner);
    if (!ts.isIdentifier(owner)) return;
    const decl = this.resolve(owner);
    if (!decl) return;
    const keys = this.queryMutations.get(decl) ?? new Map<string, ts.CallExpression>();
    if (!keys.has(key.text)) keys.set(key.text, call);
    this.queryMutations.set(decl, keys);
  }

  private walk(root: ts.Node): void {
    // Declarations first, so that assignments and mutations resolve regardless of order.
    const all: ts.Node[] = [];
    const stack: ts.Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      all.push(node);
      this.recordDeclarations(node);
      if (ts.isPropertyDeclaration(node) && node.name && ts.isIdentifier(node.name)) {
        this.addClassMember(node, node.name.text, node);
      } else if (isParameterProperty(node)) {
        this.addClassMember(node, (node.name as ts.Identifier).text, node);
      } else if (ts.isGetAccessorDeclaration(node) && ts.isIdentifier(node.name)) {
        // `get client() { return (this._c ??= new X()) }`: what the getter returns is what the member holds.
        this.addClassMember(node, node.name.text, node);
      }
      const children: ts.Node[] = [];
      ts.forEachChild(node, (child) => {
        children.push(child);
      });
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
    for (const node of all) this.recordExpression(node);
  }
}

/**
 * What a CommonJS export holds: `require("./client")` is that module under
 * the export's name, `require("./client").client` one of its exports, passed
 * on as `export … from` would; anything else is its own expression.
 */
function exportOfValue(value: ts.Expression): ExportTarget {
  const e = unwrap(value);
  const whole = requiredModule(e);
  if (whole !== undefined) return { kind: "reexport", module: whole, name: "*" };
  if (ts.isPropertyAccessExpression(e)) {
    const owner = requiredModule(unwrap(e.expression));
    if (owner !== undefined) return { kind: "reexport", module: owner, name: e.name.text };
  }
  return { kind: "expression", node: value };
}
