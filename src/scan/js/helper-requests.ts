/**
 * Requests made through the code's own helpers: `request("/run", { method:
 * "POST", body })` where `request(path, init)` sends `fetch(base + path,
 * { ...init })`, `this.send("/run?run_id=" + id)`, a helper imported from
 * another module. The helper's own request is read with its parameters bound
 * to the call's arguments, so the call carries the URL, method and body the
 * helper would send; the finding goes on the argument that writes the path.
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { enclosingClass, type FileContext, unwrap } from "./file-context.js";
import type { HttpCalls, HttpRequest } from "./http-calls.js";
import type { Values } from "./values.js";
import { n8nDeclaredRequests, n8nHelperRequest } from "./n8n-credentials.js";
import type { DeclaredRequest } from "./wired-request.js";

/** Helpers calling helpers: `run()` → `send()` → `request()` → `fetch()`. */
const MAX_HELPER_DEPTH = 4;

type HelperFunction = ts.FunctionLikeDeclaration & { body: ts.ConciseBody };

export class HelperRequests {
  /** Helpers being read, so that a retrying helper (`return this.send(path, init, attempt + 1)`) is not read again inside itself. */
  private readonly active = new Set<ts.Node>();

  constructor(
    private readonly values: Values,
    private readonly http: HttpCalls,
  ) {}

  /** The request a call makes, directly or through a helper of the repository's code. */
  recognise(call: ts.CallExpression, context: FileContext, consumed: Set<ts.Node>): HttpRequest | undefined {
    return (
      this.http.recognise(call, context, consumed) ??
      n8nHelperRequest(this.values, call, context) ??
      this.throughHelper(call, context, consumed)
    );
  }

  /** Requests written as data rather than calls: n8n's credential tests and routing. */
  declared(context: FileContext): DeclaredRequest[] {
    return n8nDeclaredRequests(this.values, context).map((request) => ({ request, consumed: new Set() }));
  }

  private throughHelper(
    call: ts.CallExpression,
    context: FileContext,
    consumed: Set<ts.Node>,
  ): HttpRequest | undefined {
    // `helper.call(this, "POST", "/run", body)`: n8n's request helpers are called with the node as `this`.
    const callee = unwrap(call.expression);
    const viaCall = ts.isPropertyAccessExpression(callee) && callee.name.text === "call";
    const args = viaCall ? call.arguments.slice(1) : call.arguments;
    if (args.length === 0 || this.active.size >= MAX_HELPER_DEPTH) return undefined;
    const helper = this.helperOf(viaCall ? callee.expression : call.expression, context);
    if (!helper || this.active.has(helper.fn)) return undefined;
    // Only an argument that writes some of a URL can make the finding, so a call without one is not followed.
    const writing = args.map((arg) => writesText(this.values.stringValue(arg, context, null)));
    if (!writing.includes(true)) return undefined;
    // A TypeScript `this` parameter takes no argument.
    const params = helper.fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this"));
    this.active.add(helper.fn);
    try {
      return this.values.withArguments(params, args, context, () => {
        for (const inner of callsIn(helper.fn, helper.context)) {
          const request = this.recognise(inner, helper.context, new Set());
          if (!request) continue;
          // The path comes from the caller when the helper's URL reads one of its parameters and the argument writes
          // some of it: `fetchRun(base, id)` passes only unknowns on, and the helper's own request is the finding.
          const index = params.findIndex(
            (param, i) => writing[i] === true && readsParameter(request.urlNode, param, helper.context),
          );
          const urlNode = index >= 0 ? args[index] : undefined;
          if (!urlNode) continue;
          consumed.add(urlNode);
          return { ...request, urlNode };
        }
        return undefined;
      });
    } finally {
      this.active.delete(helper.fn);
    }
  }

  /** The function a callee names: a function or arrow in scope or imported, or `this.method` of the enclosing class. */
  private helperOf(
    callee: ts.Expression,
    context: FileContext,
  ): { fn: HelperFunction; context: FileContext } | undefined {
    const e = unwrap(callee);
    if (ts.isIdentifier(e)) {
      const def = this.values.definitionOf(e, context);
      if (def?.kind !== "node") return undefined;
      const node = ts.isVariableDeclaration(def.node) && def.node.initializer ? unwrap(def.node.initializer) : def.node;
      return isHelperFunction(node) ? { fn: node, context: def.context } : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const cls = enclosingClass(e);
      const member = cls?.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === e.name.text);
      if (member && isHelperFunction(member)) return { fn: member, context };
      if (member && ts.isPropertyDeclaration(member) && member.initializer) {
        const value = unwrap(member.initializer);
        if (isHelperFunction(value)) return { fn: value, context };
      }
    }
    return undefined;
  }
}

function isHelperFunction(node: ts.Node): node is HelperFunction {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)) &&
    node.body !== undefined
  );
}

/** Calls in a function's body, nested closures included, in source order. */
function callsIn(fn: HelperFunction, context: FileContext): ts.CallExpression[] {
  const body = fn.body;
  return context.calls.filter((c) => c.pos >= body.pos && c.end <= body.end);
}

/**
 * Whether a URL expression reads the parameter: by name inside it, or
 * through a local it reads (`const url = new URL(path, base); fetch(url)`).
 */
function readsParameter(urlNode: ts.Node, param: ts.ParameterDeclaration, context: FileContext, depth = 0): boolean {
  if (depth > 3) return false;
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)) {
      const decl = context.resolve(node);
      if (decl === param || (decl && ts.isBindingElement(decl) && isWithin(decl, param))) found = true;
      else if (decl && ts.isVariableDeclaration(decl) && decl.initializer && isWithin(decl, param.parent)) {
        found = readsParameter(decl.initializer, param, context, depth + 1);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(urlNode);
  return found;
}

/** Some of the string is known: more than holes and separators. */
function writesText(value: string): boolean {
  return /[A-Za-z0-9_]/.test(value.replaceAll(HOLE, ""));
}

function isWithin(node: ts.Node, outer: ts.Node): boolean {
  return node.pos >= outer.pos && node.end <= outer.end;
}
