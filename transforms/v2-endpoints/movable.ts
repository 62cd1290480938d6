/**
 * Can a run id expression move from a query option or a `searchParams.set`
 * call into the URL path? Only plain reads do (names, property reads,
 * literals, `encodeURIComponent(x)`, `String(x)`): moving a call with side
 * effects would change when it runs.
 */
import type { ASTPath } from "jscodeshift";
import { startOf } from "../lib/span-index.js";

type Node = { type: string; [key: string]: unknown };

const PURE_WRAPPERS = new Set(["encodeURIComponent", "String"]);

export function isMovable(node: Node): boolean {
  switch (node.type) {
    case "Identifier":
    case "StringLiteral":
    case "NumericLiteral":
    case "ThisExpression":
      return true;
    case "Literal":
      return typeof node.value === "string" || typeof node.value === "number";
    case "MemberExpression":
    case "OptionalMemberExpression":
      return isMovable(node.object as Node) && (!node.computed || isMovable(node.property as Node));
    case "TemplateLiteral":
      return (node.expressions as Node[]).every(isMovable);
    case "CallExpression": {
      const callee = node.callee as Node;
      const args = node.arguments as Node[];
      return (
        callee.type === "Identifier" &&
        PURE_WRAPPERS.has(callee.name as string) &&
        args.length === 1 &&
        isMovable(args[0]!)
      );
    }
    case "TSAsExpression":
    case "TSNonNullExpression":
    case "TSSatisfiesExpression":
    case "ParenthesizedExpression":
      return isMovable(node.expression as Node);
    default:
      return false;
  }
}

/** Every name the expression reads is bound before `offset` (or is a global), so it can be read there. */
export function boundBefore(value: ASTPath, offset: number): boolean {
  let ok = true;
  const visit = (path: ASTPath): void => {
    const node = path.node as Node;
    if (node.type === "Identifier") {
      const parent = path.parent?.node as Node | undefined;
      const isPropertyName =
        parent && /MemberExpression$/.test(parent.type) && parent.property === node && !parent.computed;
      if (!isPropertyName) {
        const scope = (
          path as unknown as { scope?: { lookup(n: string): { getBindings(): Record<string, ASTPath[]> } | undefined } }
        ).scope;
        const bindings = scope?.lookup(node.name as string)?.getBindings()[node.name as string];
        if (bindings?.some((b) => startOf(b.node) >= offset)) ok = false;
      }
    }
    for (const key of ["object", "property", "expression", "callee"]) {
      if (node[key] && typeof node[key] === "object") visit(path.get(key) as ASTPath);
    }
    for (const key of ["arguments", "expressions"]) {
      const list = node[key] as Node[] | undefined;
      if (list) for (let i = 0; i < list.length; i++) visit(path.get(key, i) as ASTPath);
    }
  };
  visit(value);
  return ok;
}
