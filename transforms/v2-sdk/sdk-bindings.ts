/**
 * The names one file binds to the `comfydeploy` package: named imports and
 * destructured `require`/`import()` (one entry per name), namespaces (`import
 * * as cd`, a default import, `const cd = require(...)`), and the references
 * to a module-level name in value and type positions. The scan's `js-sdk`
 * facts name them; a run without a scan reads them from the tree.
 */
import type { ASTPath, Collection, JSCodeshift } from "jscodeshift";
import { factsOf, type JsSdkImport } from "../../src/core/facts.js";
import type { Finding } from "../../src/core/finding.js";
import { JS_SDK } from "../../src/knowledge/migration.js";
import { findPaths } from "../lib/node-paths.js";
import type { SpanIndex } from "../lib/span-index.js";
import { isSdkModule, isSdkSubpath } from "../../src/lang/js/sdk-module.js";

type AnyNode = { type: string; [key: string]: unknown };

export interface SdkSpecifier {
  /** An ImportSpecifier, or an ObjectProperty of a destructuring pattern. */
  path: ASTPath;
  kind: "import" | "destructure";
  /** The exported name. */
  imported: string;
  /** The local binding. */
  local: string;
  /** `import type { X }` or `import { type X }`. */
  typeOnly: boolean;
  /** The ImportDeclaration or VariableDeclaration that holds it. */
  declaration: ASTPath;
  /** The module specifier's string literal (a file inside the package, such as V1's `comfydeploy/dist/index.js`, is re-rooted when migrated). */
  source: AnyNode;
}

export interface SdkBindings {
  specifiers: SdkSpecifier[];
  /** Local names bound to the whole module. */
  namespaces: Set<string>;
}

function nameOf(node: unknown): string | undefined {
  const n = node as AnyNode | undefined;
  if (!n) return undefined;
  if (n.type === "Identifier") return n.name as string;
  if (n.type === "StringLiteral" || n.type === "Literal") return typeof n.value === "string" ? n.value : undefined;
  return undefined;
}

/** `require("comfydeploy")`, `import("comfydeploy")`, awaited or not. */
export function isSdkModuleCall(node: unknown): boolean {
  let n = node as AnyNode | undefined;
  while (n && (n.type === "AwaitExpression" || n.type === "ParenthesizedExpression")) n = n.argument as AnyNode;
  if (!n) return false;
  if (n.type === "ImportExpression") return isSdkModule(nameOf(n.source) ?? "");
  if (n.type !== "CallExpression") return false;
  const callee = n.callee as AnyNode;
  const isRequire = callee.type === "Identifier" && callee.name === "require";
  const isImport = callee.type === "Import";
  const args = n.arguments as AnyNode[];
  return (isRequire || isImport) && args.length === 1 && isSdkModule(nameOf(args[0]) ?? "");
}

/** The string literal naming the module in `require(...)` / `import(...)`, awaited or not. */
function moduleLiteralOf(node: unknown): AnyNode {
  let n = node as AnyNode;
  while (n.type === "AwaitExpression" || n.type === "ParenthesizedExpression") n = n.argument as AnyNode;
  return n.type === "ImportExpression" ? (n.source as AnyNode) : ((n.arguments as AnyNode[])[0] as AnyNode);
}

/** Points a V1 deep import (`comfydeploy/dist/index.js`) at the package: V2 has no such file, and its root exports the V2 names. */
export function reRootSource(spec: SdkSpecifier): boolean {
  const literal = spec.source;
  if (typeof literal.value !== "string" || !isSdkSubpath(literal.value)) return false;
  literal.value = JS_SDK.packageName;
  delete (literal as { extra?: unknown }).extra;
  return true;
}

/**
 * The file's SDK bindings: those the scan proved (the findings' `js-sdk`
 * facts, each specifier's node found by its span), or, for a plain jscodeshift
 * run whose findings carry no facts, those read from the tree.
 */
export function sdkBindingsOf(
  j: JSCodeshift,
  root: Collection,
  sites: SpanIndex,
  findings: readonly Finding[],
): SdkBindings {
  for (const finding of findings) {
    const facts = factsOf(finding, "js-sdk");
    if (facts) return bindingsFromFacts(sites, facts.imports);
  }
  return sdkBindings(j, root);
}

/** The imported names that bind the whole module (`import * as cd`, `import cd from`, `const cd = require(…)`). */
const WHOLE_MODULE: ReadonlySet<string> = new Set(["*", "default"]);

function bindingsFromFacts(sites: SpanIndex, imports: readonly JsSdkImport[]): SdkBindings {
  const out: SdkBindings = { specifiers: [], namespaces: new Set() };
  for (const binding of imports) {
    if (WHOLE_MODULE.has(binding.imported)) out.namespaces.add(binding.local);
    else {
      const specifier = specifierAt(sites, binding);
      if (specifier) out.specifiers.push(specifier);
    }
  }
  // The order the tree gives: import declarations first, then destructured requires.
  const rank = (s: SdkSpecifier): number => (s.kind === "import" ? 0 : 1);
  out.specifiers.sort((a, b) => rank(a) - rank(b));
  return out;
}

/** The specifier node a binding's span starts at, with the declaration and module literal around it. */
function specifierAt(sites: SpanIndex, binding: JsSdkImport): SdkSpecifier | undefined {
  const { imported, local, typeOnly } = binding;
  for (const path of sites.startingAt(binding.span)) {
    const node = path.node as unknown as AnyNode;
    if (node.type === "ImportSpecifier") {
      const declaration = path.parent as ASTPath;
      const source = (declaration.node as unknown as AnyNode).source as AnyNode;
      return { path, kind: "import", imported, local, typeOnly, declaration, source };
    }
    if ((node.type === "ObjectProperty" || node.type === "Property") && (node.value as AnyNode).type === "Identifier") {
      // The property's pattern, then the declarator that requires the module.
      const declarator = path.parent?.parent as ASTPath | undefined;
      const init = (declarator?.node as unknown as AnyNode | undefined)?.init;
      if (!declarator || !isSdkModuleCall(init)) return undefined;
      const declaration = declarator.parent as ASTPath;
      return { path, kind: "destructure", imported, local, typeOnly, declaration, source: moduleLiteralOf(init) };
    }
  }
  return undefined;
}

/** The bindings read from the tree itself, for a run without the scan's facts. */
function sdkBindings(j: JSCodeshift, root: Collection): SdkBindings {
  const out: SdkBindings = { specifiers: [], namespaces: new Set() };
  findPaths(j, root, "ImportDeclaration").forEach((declaration) => {
    const node = declaration.node as unknown as AnyNode;
    if (!isSdkModule(nameOf(node.source) ?? "")) return;
    const declarationTypeOnly = node.importKind === "type";
    findPaths(j, j(declaration), "ImportSpecifier").forEach((path) => {
      const spec = path.node as unknown as AnyNode;
      const imported = nameOf(spec.imported);
      const local = nameOf(spec.local) ?? imported;
      if (!imported || !local) return;
      const typeOnly = declarationTypeOnly || spec.importKind === "type";
      out.specifiers.push({
        path,
        kind: "import",
        imported,
        local,
        typeOnly,
        declaration,
        source: node.source as AnyNode,
      });
    });
    for (const spec of (node.specifiers as AnyNode[] | undefined) ?? []) {
      if (spec.type === "ImportNamespaceSpecifier" || spec.type === "ImportDefaultSpecifier") {
        const local = nameOf(spec.local);
        if (local) out.namespaces.add(local);
      }
    }
  });
  findPaths(j, root, "VariableDeclarator").forEach((path) => {
    const node = path.node as unknown as AnyNode;
    if (!isSdkModuleCall(node.init)) return;
    const id = node.id as AnyNode;
    if (id.type === "Identifier") {
      out.namespaces.add(id.name as string);
      return;
    }
    if (id.type !== "ObjectPattern") return;
    const declaration = path.parent as ASTPath;
    (id.properties as AnyNode[]).forEach((prop, index) => {
      if ((prop.type !== "ObjectProperty" && prop.type !== "Property") || prop.computed) return;
      const imported = nameOf(prop.key);
      const local = nameOf(prop.value);
      if (!imported || !local) return;
      const propPath = findPaths(j, j(path), "ObjectPattern")[0]!.get("properties", index) as ASTPath;
      out.specifiers.push({
        path: propPath,
        kind: "destructure",
        imported,
        local,
        typeOnly: false,
        declaration,
        source: moduleLiteralOf(node.init),
      });
    });
  });
  return out;
}

/** True when any identifier in the file is spelled `name`: a new binding of that name could clash or shadow. */
export function isNameTaken(j: JSCodeshift, root: Collection, name: string): boolean {
  return (
    findPaths(j, root, "Identifier", { name }).length > 0 || findPaths(j, root, "JSXIdentifier", { name }).length > 0
  );
}

type Scope = { lookup(name: string): Scope | null };

function scopeOf(path: ASTPath): Scope | undefined {
  return (path as unknown as { scope?: Scope }).scope;
}

/**
 * Identifier paths that refer to the binding `local` declared at `declaration`
 * (values and types), not declarations, property keys or shadowing names.
 */
export function referencesOf(j: JSCodeshift, root: Collection, local: string, declaration: ASTPath): ASTPath[] {
  const declaringScope = scopeOf(declaration)?.lookup(local) ?? null;
  const out: ASTPath[] = [];
  findPaths(j, root, "Identifier", { name: local }).forEach((path) => {
    const parent = path.parent?.node as AnyNode | undefined;
    if (!parent) return;
    const field = path.name;
    if (
      parent.type === "ImportSpecifier" ||
      parent.type === "ImportDefaultSpecifier" ||
      parent.type === "ImportNamespaceSpecifier"
    )
      return;
    if (parent.type === "ExportSpecifier") return;
    const isMember = parent.type === "MemberExpression" || parent.type === "OptionalMemberExpression";
    if (isMember && field === "property" && !parent.computed) return;
    if (parent.type === "TSQualifiedName" && field === "right") return;
    // `{ ComfyDeployClient }` in an object literal refers to the binding through its value, not its key.
    if (field === "key" && !parent.computed) return;
    if ((parent.type === "ObjectProperty" || parent.type === "Property") && field === "value" && isInPattern(path))
      return;
    if (
      /Declaration$|Declarator$|Function|ClassMethod|ClassProperty|TSPropertySignature|CatchClause|RestElement/.test(
        parent.type,
      )
    ) {
      if (field === "id" || field === "params" || field === "param" || field === "key") return;
    }
    const owner = scopeOf(path)?.lookup(local) ?? null;
    if (owner !== null && declaringScope !== null && owner !== declaringScope) return;
    out.push(path);
  });
  return out;
}

function isInPattern(path: ASTPath): boolean {
  const grand = path.parent?.parent?.node as AnyNode | undefined;
  return grand?.type === "ObjectPattern";
}
