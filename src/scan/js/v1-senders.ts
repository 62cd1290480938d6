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
import { CONNECTION_SETTING, deploymentSource, fixesDeployment, SETTING_VALUE } from "../local-client.js";

export interface V1Sender {
  /** The host its V1 requests go to when it is not a ComfyDeploy host (a white-label deployment). */
  otherHost?: string;
}

/** A function, method or getter with a body: what can send a request or return a value (call-returns.ts reads it too). */
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

  private read(fn: SenderFunction, context: FileContext, directly = false): V1Sender | undefined {
    const body = fn.body;
    let found: V1Sender | undefined;
    for (const call of context.calls) {
      if (call.pos < body.pos || call.end > body.end) continue;
      if (directly && enclosingFunction(call) !== fn) continue;
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

  /** A class any of whose members sends V1, holding its connection settings and taking the deployment from its caller. */
  classSends(cls: ts.ClassLikeDeclaration, context: FileContext): V1Sender | undefined {
    if (!classHoldsConnection(cls)) return undefined;
    const senders = cls.members.flatMap((member) => {
      const fn = functionOf(member);
      const sender = fn && this.sends(fn, context);
      return fn && sender ? [{ fn, sender }] : [];
    });
    if (takesAppInputs(senders.map((s) => s.fn))) return undefined;
    return firstSender(senders, (s) => s.sender);
  }

  /**
   * An exported function sending V1 that is a local client's, not the app's
   * own: its module binds the connection settings and it takes the
   * deployment from its caller.
   */
  clientFunctionSends(fn: SenderFunction, context: FileContext): V1Sender | undefined {
    if (!moduleHoldsConnection(context.sourceFile)) return undefined;
    // A function whose closures send (a React hook's callbacks) is not called to send.
    if (!this.read(fn, context, true)) return undefined;
    const senders = topLevelFunctions(context.sourceFile).flatMap(({ fn: f }) => (this.sends(f, context) ? [f] : []));
    if (takesAppInputs(senders)) return undefined;
    return this.sends(fn, context);
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

  /** A function returning an object literal that is a V1 client: a factory of a local client, taking or binding the settings. */
  factorySends(fn: SenderFunction, context: FileContext): V1Sender | undefined {
    const takesSettings = fn.parameters.some((p) => bindingNames(p.name).some((n) => CONNECTION_SETTING.test(n)));
    if (!takesSettings && !moduleHoldsConnection(context.sourceFile)) return undefined;
    return firstSender(returnedObjects(fn), (object) => this.objectSends(object, context));
  }
}

/** The function-like node a node is in, if any. */
function enclosingFunction(node: ts.Node): ts.Node | undefined {
  for (let at = node.parent; at; at = at.parent) if (ts.isFunctionLike(at)) return at;
  return undefined;
}

/** Functions declared at the top of a module: `function f() {}`, `const f = () => …`, exported or not. */
export function topLevelFunctions(file: ts.SourceFile): Array<{ name: ts.Identifier; fn: SenderFunction }> {
  const out: Array<{ name: ts.Identifier; fn: SenderFunction }> = [];
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isSenderFunction(statement))
      out.push({ name: statement.name, fn: statement });
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      const init = decl.initializer && unwrap(decl.initializer);
      if (ts.isIdentifier(decl.name) && init && isSenderFunction(init)) out.push({ name: decl.name, fn: init });
    }
  }
  return out;
}

/** The names a parameter or declaration binds, destructured ones with their property names (`{ apiBase: base }`). */
function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => {
    if (ts.isOmittedExpression(e)) return [];
    const property = e.propertyName && ts.isIdentifier(e.propertyName) ? [e.propertyName.text] : [];
    return [...property, ...bindingNames(e.name)];
  });
}

/**
 * Whether a class holds its connection settings: a constructor parameter
 * (destructured, a parameter property, or an options object whose type names
 * one), a field or getter, or an option the constructor reads
 * (`options.apiBase`) named like a base URL or key; a subclass may pass them
 * to its parent.
 */
export function classHoldsConnection(cls: ts.ClassLikeDeclaration): boolean {
  for (const member of cls.members) {
    if (ts.isConstructorDeclaration(member)) {
      if (member.parameters.some((p) => bindingNames(p.name).some((n) => CONNECTION_SETTING.test(n)))) return true;
      if (member.parameters.some((p) => p.type && typeNamesSetting(p.type))) return true;
      let reads = false;
      const visit = (node: ts.Node): void => {
        if (ts.isPropertyAccessExpression(node) && CONNECTION_SETTING.test(node.name.text)) reads = true;
        else if (!reads) ts.forEachChild(node, visit);
      };
      if (member.body) visit(member.body);
      if (reads) return true;
    } else if (ts.isGetAccessorDeclaration(member) && CONNECTION_SETTING.test(member.name.getText())) {
      return true;
    } else if (ts.isPropertyDeclaration(member) && CONNECTION_SETTING.test(member.name.getText())) {
      const value = member.initializer && unwrap(member.initializer);
      if (!value || !isSenderFunction(value)) return true;
    }
  }
  return cls.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword) ?? false;
}

/** Whether an options type names a connection setting among its members (`{ baseUrl?: string }`, `Partial<X> & { apiKey: string }`). */
function typeNamesSetting(type: ts.TypeNode): boolean {
  let names = false;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertySignature(node) && CONNECTION_SETTING.test(node.name.getText())) names = true;
    else if (!names) ts.forEachChild(node, visit);
  };
  visit(type);
  return names;
}

/** Whether a module binds connection settings at its top level (`const BASE = process.env.API ?? "https://…"`). */
function moduleHoldsConnection(file: ts.SourceFile): boolean {
  return file.statements.some(
    (statement) =>
      ts.isVariableStatement(statement) &&
      statement.declarationList.declarations.some((d) => {
        const value = d.initializer && unwrap(d.initializer);
        if (value && isSenderFunction(value)) return false;
        return (
          bindingNames(d.name).some((n) => CONNECTION_SETTING.test(n)) ||
          (value !== undefined && SETTING_VALUE.test(value.getText(file)))
        );
      }),
  );
}

/** Its runs are created only with a deployment the code fixes itself: the app's own service taking the app's inputs. */
function takesAppInputs(senders: readonly SenderFunction[]): boolean {
  const sources = senders.flatMap((fn) => {
    // The body only: a parameter's type (`deployment_id: string`) sets nothing.
    const text = fn.body.getText();
    if (deploymentSource(text) === undefined) return [];
    return [fixesDeployment(text, new Set(fn.parameters.flatMap((p) => bindingNames(p.name))))];
  });
  return sources.length > 0 && sources.every(Boolean);
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
