/**
 * Where a status request whose `run_id` is added to its URL object on a later
 * line is reported: the line that adds it (`url.searchParams.set("run_id", id)`),
 * as the other languages' query builders are (Go `q.Set`, Ruby
 * `encode_www_form`). A `run_id` in a URLSearchParams written into the path's
 * own line stays on that line.
 */
import { ts } from "./typescript-api.cjs";
import { RUN_ID_KEY } from "../../core/run-path.js";
import { type FileContext, unwrap } from "./file-context.js";
import { isUrlConstruction } from "./ts-nodes.js";

/** The `set("run_id", …)` call of the URL object a request's URL argument reads, in this file; else the argument. */
export function runIdSiteOfRequest(urlNode: ts.Node, context: FileContext): ts.Node {
  let target = ts.isExpression(urlNode) ? unwrap(urlNode) : urlNode;
  // `url.href`, `url.toString()`
  if (ts.isPropertyAccessExpression(target) && target.name.text === "href") target = unwrap(target.expression);
  if (
    ts.isCallExpression(target) &&
    target.arguments.length === 0 &&
    ts.isPropertyAccessExpression(target.expression) &&
    target.expression.name.text === "toString"
  )
    target = unwrap(target.expression.expression);
  const decl = ts.isIdentifier(target) ? context.resolve(target) : undefined;
  return (decl && runIdSiteOfDeclaration(decl, context)) ?? urlNode;
}

/** The `set("run_id", …)` call on a `const url = new URL(…)` declaration, after it. */
export function runIdSiteOfDeclaration(decl: ts.Node, context: FileContext): ts.Node | undefined {
  if (!ts.isVariableDeclaration(decl) || !decl.initializer || !isUrlConstruction(unwrap(decl.initializer)))
    return undefined;
  const call = context.queryMutations.get(decl)?.get(RUN_ID_KEY);
  return call && call.getStart() > decl.getEnd() ? call : undefined;
}
