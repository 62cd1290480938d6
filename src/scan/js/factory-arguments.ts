/**
 * A call whose value is what one of its function arguments returns: a
 * repository helper that calls its factory parameter
 * (`singleton("comfy", () => new Client())`, the Remix and Epic Stack idiom
 * for one client across reloads), or a memoizing wrapper by its well-known
 * name (React's `useMemo(() => new Client(), [])`, `memoize`, `once`).
 */
import { ts } from "./typescript-api.cjs";
import { unwrap } from "./file-context.js";

type FactoryFunction = ts.ArrowFunction | ts.FunctionExpression;

/** Wrappers from libraries that hand back what their first argument returns (or a function returning it). */
const MEMOIZING_CALLEES: ReadonlySet<string> = new Set(["useMemo", "memoize", "memoizeOne", "once", "lazy", "cache"]);

/**
 * The argument whose result `call` returns. `declarationOf` finds the
 * declaration of a callee named by an identifier (a function, or a variable
 * holding one) when the repository has it; it is asked only for calls that
 * pass a factory at all.
 */
export function factoryArgument(
  call: ts.CallExpression,
  declarationOf: (name: ts.Identifier) => ts.Node | undefined,
): FactoryFunction | undefined {
  if (!call.arguments.some((argument) => isFactory(unwrap(argument)))) return undefined;
  const callee = unwrap(call.expression);
  const fn = functionOf(ts.isIdentifier(callee) ? declarationOf(callee) : undefined);
  if (fn) {
    for (const [index, parameter] of fn.parameters.entries()) {
      const argument = call.arguments[index] && unwrap(call.arguments[index]);
      if (!argument || !isFactory(argument) || !ts.isIdentifier(parameter.name)) continue;
      if (callsName(fn.body, parameter.name.text)) return argument;
    }
    return undefined;
  }
  const name = calleeName(callee);
  const first = call.arguments[0] && unwrap(call.arguments[0]);
  return name && MEMOIZING_CALLEES.has(name) && first && isFactory(first) ? first : undefined;
}

function functionOf(node: ts.Node | undefined): ts.FunctionLikeDeclaration | undefined {
  if (!node) return undefined;
  const fn = ts.isVariableDeclaration(node) && node.initializer ? unwrap(node.initializer) : node;
  return ts.isFunctionDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) ? fn : undefined;
}

function isFactory(node: ts.Node): node is FactoryFunction {
  return (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.parameters.length === 0;
}

function calleeName(expr: ts.Expression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

/** Whether the body calls `name()` anywhere, nested functions included (a callback passed on still calls the factory). */
function callsName(body: ts.Node | undefined, name: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(unwrap(node.expression)) &&
      (unwrap(node.expression) as ts.Identifier).text === name
    ) {
      found = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  if (body) visit(body);
  return found;
}
