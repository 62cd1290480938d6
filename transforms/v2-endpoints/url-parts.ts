/**
 * A URL expression as the string it builds, kept as its pieces: the string
 * literals and template parts that can be edited in place, and holes for the
 * values not known here. Same-file `const` names are followed to their
 * initializers, remembering the way through so that edits to a shared
 * constant can be checked against its other uses.
 */
import type { ASTPath } from "jscodeshift";
import { HOLE } from "../../src/core/urls.js";
import { startOf, unwrapPath } from "../lib/span-index.js";

export interface ConstBinding {
  name: string;
  /** The VariableDeclarator. */
  declarator: ASTPath;
}

export type UrlPart =
  | { kind: "text"; path: ASTPath; value: string; via: readonly ConstBinding[]; from: number; to: number }
  | { kind: "hole"; path: ASTPath; via: readonly ConstBinding[]; from: number; to: number };

export interface FlatUrl {
  parts: UrlPart[];
  /** The URL with a HOLE character for each unknown value. */
  text: string;
}

type Node = { type: string; [key: string]: unknown };

const MAX_DEPTH = 16;

export function flattenUrl(path: ASTPath): FlatUrl {
  const parts: UrlPart[] = [];
  let text = "";
  const pushText = (p: ASTPath, value: string, via: readonly ConstBinding[]): void => {
    parts.push({ kind: "text", path: p, value, via, from: text.length, to: text.length + value.length });
    text += value;
  };
  const pushHole = (p: ASTPath, via: readonly ConstBinding[]): void => {
    parts.push({ kind: "hole", path: p, via, from: text.length, to: text.length + 1 });
    text += HOLE;
  };
  const visit = (raw: ASTPath, via: readonly ConstBinding[], depth: number): void => {
    const p = unwrapPath(raw);
    const node = p.node as Node;
    if (depth > MAX_DEPTH) return pushHole(p, via);
    switch (node.type) {
      case "StringLiteral":
        return pushText(p, node.value as string, via);
      case "Literal":
        return typeof node.value === "string" ? pushText(p, node.value, via) : pushHole(p, via);
      case "TemplateLiteral": {
        const quasis = node.quasis as Array<{ value: { raw: string; cooked?: string | null } }>;
        quasis.forEach((quasi, i) => {
          pushText(p.get("quasis", i) as ASTPath, quasi.value.cooked ?? quasi.value.raw, via);
          if (i < quasis.length - 1) visit(p.get("expressions", i) as ASTPath, via, depth + 1);
        });
        return;
      }
      case "BinaryExpression":
        if (node.operator !== "+") return pushHole(p, via);
        visit(p.get("left") as ASTPath, via, depth + 1);
        visit(p.get("right") as ASTPath, via, depth + 1);
        return;
      case "LogicalExpression": {
        // `process.env.X ?? "https://..."`: the default is the value that can be known.
        if (node.operator !== "??" && node.operator !== "||") return pushHole(p, via);
        const left = flattenUrl(p.get("left") as ASTPath);
        if (left.text.startsWith(HOLE) || left.text === "") return visit(p.get("right") as ASTPath, via, depth + 1);
        return visit(p.get("left") as ASTPath, via, depth + 1);
      }
      case "Identifier": {
        const binding = constBindingOf(p);
        const init = binding?.declarator.get("init") as ASTPath | undefined;
        if (!binding || !init?.node) return pushHole(p, via);
        return visit(init, [...via, binding], depth + 1);
      }
      case "MemberExpression":
        if (
          !node.computed &&
          (node.property as Node).type === "Identifier" &&
          (node.property as Node).name === "href"
        ) {
          return visit(p.get("object") as ASTPath, via, depth + 1);
        }
        return pushHole(p, via);
      case "CallExpression": {
        const callee = node.callee as Node;
        const args = node.arguments as Node[];
        if (callee.type === "MemberExpression" && (callee.property as Node).name === "toString" && args.length === 0) {
          return visit(p.get("callee", "object") as ASTPath, via, depth + 1);
        }
        if (callee.type === "Identifier" && callee.name === "String" && args.length === 1) {
          return visit(p.get("arguments", 0) as ASTPath, via, depth + 1);
        }
        return pushHole(p, via);
      }
      case "NewExpression": {
        const callee = node.callee as Node;
        const args = node.arguments as Node[];
        if (callee.type !== "Identifier" || callee.name !== "URL" || args.length === 0) return pushHole(p, via);
        // `new URL(path, base)`: the base's host, then the path (enough to tell hosts and find the run path).
        if (args.length > 1) visit(p.get("arguments", 1) as ASTPath, via, depth + 1);
        return visit(p.get("arguments", 0) as ASTPath, via, depth + 1);
      }
      default:
        return pushHole(p, via);
    }
  };
  visit(path, [], 0);
  return { parts, text };
}

/**
 * The same-file binding a name refers to, when it holds one value: a plain
 * `const NAME = <expr>`, or a `let`/`var` with an initializer that is never
 * assigned again in its scope (a single-assignment local).
 */
export function constBindingOf(identifier: ASTPath): ConstBinding | undefined {
  const name = (identifier.node as Node).name as string;
  const scope = (identifier as unknown as { scope?: Scope }).scope?.lookup(name);
  const bindings = scope?.getBindings()[name];
  if (bindings?.length !== 1) return undefined;
  const declarator = bindings[0]!.parent as ASTPath | undefined;
  const declaration = declarator?.parent as ASTPath | undefined;
  if ((declarator?.node as Node | undefined)?.type !== "VariableDeclarator") return undefined;
  if ((declaration?.node as Node | undefined)?.type !== "VariableDeclaration") return undefined;
  if (((declarator!.node as Node).id as Node).type !== "Identifier") return undefined;
  const kind = (declaration!.node as Node).kind;
  if (
    kind !== "const" &&
    (!(declarator!.node as Node).init ||
      reassigned(declarator!.node as Node, scope!.path.node as unknown as Node, name))
  )
    return undefined;
  return { name, declarator: declarator! };
}

/** Per `let`/`var` declarator: is it assigned again? (asked once per use of the name) */
const reassignedCache = new WeakMap<Node, boolean>();

function reassigned(declarator: Node, scope: Node, name: string): boolean {
  let known = reassignedCache.get(declarator);
  if (known === undefined) {
    known = assignsTo(scope, name);
    reassignedCache.set(declarator, known);
  }
  return known;
}

/** Whether code under `node` assigns to or updates a name (a shadowing name counts too: the answer errs towards "assigned"). */
function assignsTo(node: Node, name: string): boolean {
  return someNode(node, (n) => {
    const target =
      n.type === "AssignmentExpression" || n.type === "ForInStatement" || n.type === "ForOfStatement"
        ? (n.left as Node)
        : n.type === "UpdateExpression"
          ? (n.argument as Node)
          : undefined;
    if (!target || target.type === "MemberExpression" || target.type === "VariableDeclaration") return false;
    // `name = …`, `name++`, and patterns that name it: `({ name } = …)`, `[name] = …`.
    return someNode(target, (t) => t.type === "Identifier" && t.name === name);
  });
}

/** Whether any node under `root` (itself included) satisfies `test`. */
function someNode(root: Node, test: (node: Node) => boolean): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const current = stack.pop();
    if (!current || typeof current !== "object") continue;
    if (Array.isArray(current)) {
      stack.push(...current);
      continue;
    }
    const n = current as Node;
    if (typeof n.type === "string" && test(n)) return true;
    for (const key of Object.keys(n)) if (!SKIPPED_KEYS.has(key)) stack.push(n[key]);
  }
  return false;
}

/** Keys that hold no code: positions, comments, tokens, recast's copy of the original node. */
const SKIPPED_KEYS = new Set([
  "loc",
  "comments",
  "leadingComments",
  "trailingComments",
  "innerComments",
  "tokens",
  "original",
  "extra",
]);

interface Scope {
  lookup(name: string): Scope | undefined;
  getBindings(): Record<string, ASTPath[]>;
  path: ASTPath;
}

/**
 * Every use of a const in the file other than its declaration, or undefined
 * when the name is exported (its uses elsewhere cannot be seen).
 */
export function usesOf(binding: ConstBinding, all: readonly ASTPath[]): ASTPath[] | undefined {
  const declarationPath = binding.declarator.parent as ASTPath;
  if ((declarationPath.parent?.node as Node | undefined)?.type === "ExportNamedDeclaration") return undefined;
  const uses: ASTPath[] = [];
  for (const p of all) {
    const node = p.node as Node;
    if (node.type === "ExportSpecifier" && ((node.local as Node | undefined)?.name ?? "") === binding.name)
      return undefined;
    if (node.type !== "Identifier" || node.name !== binding.name) continue;
    if (p.node === (binding.declarator.node as Node).id) continue;
    if (!isReference(p)) continue;
    const found = constBindingOf(p);
    if (found?.declarator.node === binding.declarator.node) uses.push(p);
  }
  return uses;
}

/** An identifier in value position (not a property name or a declaration's own name). */
function isReference(p: ASTPath): boolean {
  const parent = p.parent?.node as Node | undefined;
  if (!parent) return false;
  if (
    (parent.type === "MemberExpression" || parent.type === "OptionalMemberExpression") &&
    parent.property === p.node &&
    !parent.computed
  )
    return false;
  if (
    (parent.type === "ObjectProperty" || parent.type === "Property") &&
    parent.key === p.node &&
    !parent.computed &&
    !parent.shorthand
  )
    return false;
  if (parent.type === "VariableDeclarator" && parent.id === p.node) return false;
  if (/Specifier$/.test(parent.type)) return false;
  return startOf(p.node) >= 0;
}
