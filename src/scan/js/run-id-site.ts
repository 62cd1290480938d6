/**
 * Where a status request whose `run_id` is written on a later line than its
 * URL is reported: the line that adds it, as the other languages' query
 * builders are (Go `q.Set`, Ruby `encode_www_form`). That is the
 * `url.searchParams.set("run_id", id)` call on the request's URL object, or
 * the `run_id` entry of a query option (axios `params`, ky/got
 * `searchParams`, undici `query`) written below the URL in the same
 * statement. A `run_id` on the URL's own line stays on that line.
 */
import { ts } from "./typescript-api.cjs";
import { BODY_LINES, RUN_ID_KEY } from "../../core/run-path.js";
import { type FileContext, unwrap } from "./file-context.js";
import { isUrlConstruction } from "./ts-nodes.js";
import type { Values } from "./values.js";

type ObjectRef = { context: FileContext; object: ts.ObjectLiteralExpression };

/**
 * Where a status request is reported: the `set("run_id", …)` call of the URL
 * object its URL argument reads, the `run_id` entry of its query option on a
 * later line, else the URL argument itself.
 */
export function runIdSiteOfRequest(request: { urlNode: ts.Node; runIdEntry?: ts.Node }, context: FileContext): ts.Node {
  const { urlNode, runIdEntry } = request;
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
  const mutation = decl && runIdSiteOfDeclaration(decl, context);
  if (mutation) return mutation;
  return runIdEntry && isBelowInStatement(runIdEntry, urlNode, context) ? runIdEntry : urlNode;
}

/** The `set("run_id", …)` call on a `const url = new URL(…)` declaration, after it. */
export function runIdSiteOfDeclaration(decl: ts.Node, context: FileContext): ts.Node | undefined {
  if (!ts.isVariableDeclaration(decl) || !decl.initializer || !isUrlConstruction(unwrap(decl.initializer)))
    return undefined;
  const call = context.queryMutations.get(decl)?.get(RUN_ID_KEY);
  return call && call.getStart() > decl.getEnd() ? call : undefined;
}

/**
 * The `run_id: id` entry (or `{ run_id }`) of a request's query option, the
 * first of `names` the options hold, followed through names and spreads;
 * `new URLSearchParams({ run_id })` counts as its object.
 */
export function queryRunIdEntry(
  values: Values,
  options: ObjectRef | undefined,
  names: readonly string[],
): ts.Node | undefined {
  for (const name of names) {
    const option = values.property(options, name);
    if (!option) continue;
    const value = unwrap(option.expr);
    const object =
      values.objectLiteral(value, option.context) ??
      (ts.isNewExpression(value) && ts.isIdentifier(value.expression) && value.expression.text === "URLSearchParams"
        ? values.objectLiteral(value.arguments?.[0], option.context)
        : undefined);
    const entry = values.property(object, RUN_ID_KEY);
    if (entry) return entry.expr.parent;
  }
  return undefined;
}

/**
 * The entry sits in this file, on a later line than the URL (within the lines
 * a request reaches), in the same statement or class member: the request's
 * own options, not a helper's written elsewhere.
 */
function isBelowInStatement(entry: ts.Node, urlNode: ts.Node, context: FileContext): boolean {
  const file = context.sourceFile;
  if (entry.getSourceFile() !== file || urlNode.getSourceFile() !== file) return false;
  const lineOf = (node: ts.Node): number => file.getLineAndCharacterOfPosition(node.getStart(file)).line;
  const below = lineOf(entry) - lineOf(urlNode);
  return below > 0 && below <= BODY_LINES && statementOf(entry) === statementOf(urlNode);
}

/** The statement of a statement list, or the class member, a node is written in. */
function statementOf(node: ts.Node): ts.Node {
  let at = node;
  while (at.parent && !holdsStatements(at.parent)) at = at.parent;
  return at;
}

function holdsStatements(node: ts.Node): boolean {
  return (
    ts.isSourceFile(node) ||
    ts.isBlock(node) ||
    ts.isModuleBlock(node) ||
    ts.isCaseClause(node) ||
    ts.isDefaultClause(node) ||
    ts.isClassLike(node)
  );
}
