/**
 * Local V1 clients recognised by what they send, not by their names: a
 * function, method or closure whose body sends a V1 request (a V1 path and
 * query or body on a base that resolves, through the value resolver and the
 * code's own helpers, to a ComfyDeploy host, or V1's exact status call on
 * another host) is a V1 sender. A class with such a member, an object
 * literal with such a method (what `createComfyClient()` returns) and a
 * factory returning one are local V1 clients; a module's exported sender
 * (`export async function getRun(id)`) is called by the app as one.
 *
 * A request on a base the code does not resolve (an env binding, a
 * parameter) makes no sender: the request itself is reported, its callers
 * are not, since nothing in the code says where they go.
 */
import { ts } from "./typescript-api.cjs";
import { type HostSet, isOtherHostV1Shape, isVendorHost, parseUrlText, v1EndpointOf } from "../../core/urls.js";
import { type FileContext, unwrap } from "./file-context.js";
import type { HelperRequests } from "./helper-requests.js";

export interface V1Sender {
  /** The host its V1 requests go to when it is not a ComfyDeploy host (a white-label deployment). */
  otherHost?: string;
}

export type SenderFunction = ts.FunctionLikeDeclaration & { body: ts.ConciseBody };

export function isSenderFunction(node: ts.Node): node is SenderFunction {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

export class V1Senders {
  private readonly memo = new Map<ts.Node, V1Sender | null>();

  constructor(
    private readonly requests: HelperRequests,
    private readonly hosts: HostSet,
  ) {}

  forget(): void {
    this.memo.clear();
  }

  /** What a function sends when its body sends a V1 request, else undefined. */
  sends(fn: SenderFunction, context: FileContext): V1Sender | undefined {
    const cached = this.memo.get(fn);
    if (cached !== undefined) return cached ?? undefined;
    this.memo.set(fn, null); // cycle guard
    const found = this.read(fn, context);
    this.memo.set(fn, found ?? null);
    return found;
  }

  private read(fn: SenderFunction, context: FileContext): V1Sender | undefined {
    const body = fn.body;
    let found: V1Sender | undefined;
    for (const call of context.calls) {
      if (call.pos < body.pos || call.end > body.end) continue;
      const request = this.requests.recognise(call, context, new Set());
      if (!request) continue;
      const info = parseUrlText(request.url, this.hosts);
      const endpoint = v1EndpointOf(info, request.method);
      if (endpoint && isVendorHost(info)) return {};
      if (endpoint && isOtherHostV1Shape(info)) found ??= { otherHost: info.host! };
    }
    return found;
  }

  /** The member of a class (method, or field holding a function) that sends V1 under this name. */
  memberSends(cls: ts.ClassLikeDeclaration, name: string, context: FileContext): V1Sender | undefined {
    const member = cls.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === name);
    const fn = member && functionOf(member);
    return fn && this.sends(fn, context);
  }

  /** A class any of whose members sends V1. */
  classSends(cls: ts.ClassLikeDeclaration, context: FileContext): V1Sender | undefined {
    return firstSender(cls.members, (member) => {
      const fn = functionOf(member);
      return fn && this.sends(fn, context);
    });
  }

  /** The property of an object literal that sends V1 under this name. */
  propertySends(object: ts.ObjectLiteralExpression, name: string, context: FileContext): V1Sender | undefined {
    const prop = object.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
    const fn = prop && functionOf(prop);
    return fn && this.sends(fn, context);
  }

  /** An object literal any of whose methods sends V1 (`return { run: (…) => request("/run", …) }`). */
  objectSends(object: ts.ObjectLiteralExpression, context: FileContext): V1Sender | undefined {
    return firstSender(object.properties, (prop) => {
      const fn = functionOf(prop);
      return fn && this.sends(fn, context);
    });
  }

  /** A function returning an object literal that is a V1 client: a factory of a local client. */
  factorySends(fn: SenderFunction, context: FileContext): V1Sender | undefined {
    return firstSender(returnedObjects(fn), (object) => this.objectSends(object, context));
  }
}

/** The function a class member or object property holds: a method, or an arrow or function expression as its value. */
function functionOf(node: ts.Node): SenderFunction | undefined {
  if (isSenderFunction(node)) return node;
  const value = ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node) ? node.initializer : undefined;
  const fn = value && unwrap(value);
  return fn && isSenderFunction(fn) ? fn : undefined;
}

/** Object literals a function returns (its own returns, not those of functions nested in it). */
export function returnedObjects(fn: SenderFunction): ts.ObjectLiteralExpression[] {
  const out: ts.ObjectLiteralExpression[] = [];
  const add = (expr: ts.Expression | undefined): void => {
    const e = expr && unwrap(expr);
    if (e && ts.isObjectLiteralExpression(e)) out.push(e);
  };
  if (!ts.isBlock(fn.body)) {
    add(fn.body);
    return out;
  }
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node)) add(node.expression);
    if (ts.isFunctionLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return out;
}

function firstSender<T>(items: readonly T[], pick: (item: T) => V1Sender | undefined): V1Sender | undefined {
  let found: V1Sender | undefined;
  for (const item of items) {
    const sender = pick(item);
    if (sender && !sender.otherHost) return sender;
    found ??= sender;
  }
  return found;
}
