/**
 * What a call of a repository function gives back, for values handed on by
 * functions: composables and config getters (`useComfyConfig()`,
 * `getBaseUrl()`), a class's URL helper (`this.url("/run")`) and Vue's
 * `ref(…)` / `computed(() => …)` read through `.value`.
 */
import { ts } from "./typescript-api.cjs";
import { enclosingClass, type FileContext, unwrap } from "./file-context.js";
import type { Values } from "./values.js";
import { isSenderFunction, type SenderFunction } from "./v1-senders.js";

type Located = { context: FileContext; expr: ts.Expression };

/** Vue's reactive wrappers: what `.value` of their result holds. */
const REF_FACTORIES: ReadonlySet<string> = new Set(["ref", "shallowRef", "computed", "toRef"]);
const REF_MODULES: ReadonlySet<string> = new Set(["vue", "@vue/reactivity", "@vue/runtime-core", "#imports"]);

/**
 * Reads what `call` returns: the callee's own returned expressions in source
 * order, each read with the call's arguments bound to the parameters; the
 * first that `read` answers wins.
 */
export function readReturned<T>(
  values: Values,
  call: ts.CallExpression,
  context: FileContext,
  depth: number,
  read: (value: Located) => T | undefined,
): T | undefined {
  const callee = calleeFunction(values, call, context, depth);
  if (!callee) return undefined;
  for (const expr of returnedExpressions(callee.fn)) {
    const found = values.withArguments(callee.fn.parameters, call.arguments, context, () =>
      read({ context: callee.context, expr }),
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

/** What `.value` of a Vue ref holds: `ref(x)`'s argument, or what `computed(() => x)`'s getter returns. */
export function refValue(values: Values, owner: ts.Expression, context: FileContext, depth: number): Located[] {
  const e = unwrap(owner);
  if (!ts.isIdentifier(e)) return [];
  const value = values.valueOf(values.definitionOf(e, context, depth));
  const call = value && unwrap(value.expr);
  if (!call || !ts.isCallExpression(call) || !isRefFactory(values, call, value.context, depth)) return [];
  const arg = call.arguments[0] && unwrap(call.arguments[0]);
  if (!arg) return [];
  if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))
    return returnedExpressions(arg).map((expr) => ({ context: value.context, expr }));
  return [{ context: value.context, expr: arg }];
}

function isRefFactory(values: Values, call: ts.CallExpression, context: FileContext, depth: number): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isIdentifier(callee) || !REF_FACTORIES.has(callee.text)) return false;
  const def = values.definitionOf(callee, context, depth);
  // Nuxt and unplugin-auto-import make `ref` a global: no declaration at all.
  return def === undefined || (def.kind === "external" && REF_MODULES.has(def.module));
}

function calleeFunction(
  values: Values,
  call: ts.CallExpression,
  context: FileContext,
  depth: number,
): { context: FileContext; fn: SenderFunction } | undefined {
  const callee = unwrap(call.expression);
  if (ts.isIdentifier(callee)) {
    const def = values.definitionOf(callee, context, depth);
    if (def?.kind !== "node") return undefined;
    if (isSenderFunction(def.node)) return { context: def.context, fn: def.node };
    const value = values.valueOf(def);
    const fn = value && unwrap(value.expr);
    return fn && isSenderFunction(fn) ? { context: value.context, fn } : undefined;
  }
  // `this.url(path)`: a method of the same class.
  if (ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const method = enclosingClass(callee)?.members.find(
      (m) => ts.isMethodDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === callee.name.text,
    );
    return method && isSenderFunction(method) ? { context, fn: method } : undefined;
  }
  return undefined;
}

/** A function's own returned expressions (not those of functions nested in it); an arrow's expression body. */
export function returnedExpressions(fn: ts.FunctionLikeDeclaration): ts.Expression[] {
  const body = fn.body;
  if (!body) return [];
  if (!ts.isBlock(body)) return [body];
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) out.push(node.expression);
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}
