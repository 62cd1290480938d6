/**
 * n8n community nodes: the base a node's requests go to is a property of the
 * credential type it uses (`class X implements ICredentialType { name =
 * "comfyApi"; properties = [{ name: "baseUrl", default: "https://…" }] }`),
 * whose `default` is what the node ships with. Read here:
 * - `credentials.baseUrl` where `credentials = await this.getCredentials("comfyApi")`;
 * - n8n expressions in request options (`baseURL: "={{$credentials.baseUrl}}"`),
 *   with the credential the node (or the credential class itself) names;
 * - request options as n8n's helpers take them (`this.helpers.httpRequest(opts)`,
 *   `httpRequestWithAuthentication.call(this, "comfyApi", opts)`, `request`,
 *   `requestWithAuthentication`): `url`/`uri` on `baseURL`, `method` (GET
 *   when left out), `qs`, `body`;
 * - declared requests that are no call: a credential's `test.request` and a
 *   node property's `routing.request` on the description's `requestDefaults`.
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { type FileContext, unwrap } from "./file-context.js";
import type { HttpRequest } from "./http-calls.js";
import type { Values } from "./values.js";

type Located = { context: FileContext; expr: ts.Expression };
type ObjectAt = { context: FileContext; object: ts.ObjectLiteralExpression };

const HELPERS = new Set([
  "httpRequest",
  "httpRequestWithAuthentication",
  "request",
  "requestWithAuthentication",
  "requestOAuth2",
]);
const CREDENTIAL_FILE = /\.credentials\.[cm]?[jt]s$/;

/** URLs of requests declared as data: no statement near them takes a marker, so fix leaves them to a person. */
const declaredUrls = new WeakSet<ts.Node>();

export function isDeclaredRequestUrl(node: ts.Node): boolean {
  return declaredUrls.has(node);
}

const typesCache = new WeakMap<Values, Map<string, Map<string, Located>>>();

/** The repository's credential types: name → property name → its `default`. */
function credentialTypes(values: Values): Map<string, Map<string, Located>> {
  let types = typesCache.get(values);
  if (types) return types;
  types = new Map();
  const { project } = values;
  for (const file of [...project.files].filter((f) => !f.includes("node_modules/")).sort()) {
    if (
      !CREDENTIAL_FILE.test(file) &&
      !(/\.[cm]?[jt]s$/.test(file) && project.textOf(file)?.includes("ICredentialType"))
    )
      continue;
    const context = project.contextFor(file);
    for (const cls of context?.classes ?? []) {
      const read = credentialClass(values, cls, context!);
      if (read && !types.has(read.name)) types.set(read.name, read.properties);
    }
  }
  typesCache.set(values, types);
  return types;
}

function credentialClass(
  values: Values,
  cls: ts.ClassLikeDeclaration,
  context: FileContext,
): { name: string; properties: Map<string, Located> } | undefined {
  const member = (name: string): ts.Expression | undefined =>
    cls.members.find(
      (m): m is ts.PropertyDeclaration =>
        ts.isPropertyDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === name && m.initializer !== undefined,
    )?.initializer;
  const name = values.staticString(member("name"), context);
  const list = member("properties");
  if (!name || !list || !ts.isArrayLiteralExpression(unwrap(list))) return undefined;
  const properties = new Map<string, Located>();
  for (const element of (unwrap(list) as ts.ArrayLiteralExpression).elements) {
    const object = values.objectLiteral(element, context);
    const key = values.staticString(values.property(object, "name")?.expr, context);
    const fallback = values.property(object, "default");
    if (key && fallback) properties.set(key, fallback);
  }
  return { name, properties };
}

/** `credentials.baseUrl` on `credentials = await this.getCredentials("comfyApi")`: the property's default. */
export function credentialProperty(
  values: Values,
  owner: ts.Expression,
  name: string,
  context: FileContext,
): Located | undefined {
  // Every property read asks: the file's text settles most of them.
  if (!ts.isIdentifier(owner) || !context.text.includes("getCredentials")) return undefined;
  const value = values.valueOf(values.definitionOf(owner, context));
  let e = value && unwrap(value.expr);
  if (e && ts.isAwaitExpression(e)) e = unwrap(e.expression);
  if (!value || !e || !ts.isCallExpression(e)) return undefined;
  const callee = unwrap(e.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "getCredentials") return undefined;
  const type = values.staticString(e.arguments[0], value.context);
  return type !== undefined ? credentialTypes(values).get(type)?.get(name) : undefined;
}

/** An n8n expression (`={{$credentials.baseUrl}}/run`) with the credential's properties put in; HOLE for the rest. */
function expressionText(values: Values, text: string, credential: string | undefined): string {
  if (!text.startsWith("=")) return text;
  const properties = credential !== undefined ? credentialTypes(values).get(credential) : undefined;
  return text.slice(1).replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, inner: string) => {
    const m = /^\$credentials\.(\w+)$/.exec(inner);
    const found = m && properties?.get(m[1]!);
    return found ? values.stringValue(found.expr, found.context, null) : HOLE;
  });
}

/** A request made through one of n8n's helpers (`this.helpers.httpRequest(options)`, `….call(this, "cred", options)`). */
export function n8nHelperRequest(
  values: Values,
  call: ts.CallExpression,
  context: FileContext,
): HttpRequest | undefined {
  let callee = unwrap(call.expression);
  let args: readonly ts.Expression[] = call.arguments;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "call") {
    callee = unwrap(callee.expression);
    args = args.slice(1);
  }
  if (!ts.isPropertyAccessExpression(callee) || !HELPERS.has(callee.name.text)) return undefined;
  const owner = unwrap(callee.expression);
  if (!ts.isPropertyAccessExpression(owner) || owner.name.text !== "helpers") return undefined;
  const withCredential = /WithAuthentication|OAuth2/.test(callee.name.text);
  const credential = withCredential ? values.staticString(args[0], context) : undefined;
  const options = values.objectLiteral(withCredential ? args[1] : args[0], context);
  return options && optionsRequest(values, options, undefined, credential);
}

/** Request options as n8n reads them; `defaults` are the description's `requestDefaults`. */
function optionsRequest(
  values: Values,
  options: ObjectAt,
  defaults: ObjectAt | undefined,
  credential: string | undefined,
): HttpRequest | undefined {
  const url = values.property(options, "url") ?? values.property(options, "uri");
  if (!url) return undefined;
  const text = (at: Located | undefined): string =>
    at ? expressionText(values, values.stringValue(at.expr, at.context, null), credential) : "";
  let path = text(url);
  const base = text(values.property(options, "baseURL") ?? values.property(defaults, "baseURL"));
  if (base && !/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.startsWith(HOLE))
    path = `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  const qs = values.objectLiteral(values.property(options, "qs")?.expr, options.context);
  for (const key of values.propertyNames(qs)) path += `${path.includes("?") ? "&" : "?"}${key}=${HOLE}`;
  const method = text(values.property(options, "method")) || "GET";
  const body = values.objectLiteral(values.property(options, "body")?.expr, options.context);
  const runIdEntry = qs?.object.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === "run_id");
  return {
    urlNode: url.expr,
    url: path,
    method: method.includes(HOLE) ? undefined : method.toUpperCase(),
    bodyKeys: new Set(values.propertyNames(body)),
    ...(runIdEntry ? { runIdEntry } : {}),
  };
}

/**
 * Requests declared as data in this file: a credential class's `test.request`
 * (on the class's own properties) and each `routing.request` of a node
 * description's properties (on its `requestDefaults`, with the credential it names).
 */
export function n8nDeclaredRequests(values: Values, context: FileContext): HttpRequest[] {
  const text = context.sourceFile.text;
  if (!text.includes("ICredentialType") && !text.includes("routing")) return [];
  const out: HttpRequest[] = [];
  for (const cls of context.classes) {
    const own = credentialClass(values, cls, context);
    const test = member(cls, "test");
    const testRequest = test && values.property(values.objectLiteral(test, context), "request");
    const options = testRequest && values.objectLiteral(testRequest.expr, testRequest.context);
    const read = options && own && optionsRequest(values, options, undefined, own.name);
    if (read) out.push(read);
    const description = values.objectLiteral(member(cls, "description"), context);
    if (!description) continue;
    const defaults = values.objectLiteral(values.property(description, "requestDefaults")?.expr, context);
    const credentials = values.property(description, "credentials")?.expr;
    const first = credentials && ts.isArrayLiteralExpression(unwrap(credentials)) ? unwrap(credentials) : undefined;
    const named = first && values.objectLiteral((first as ts.ArrayLiteralExpression).elements[0], context);
    const credential = values.staticString(values.property(named, "name")?.expr, context);
    ts.forEachChild(description.object, function visit(node): void {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === "routing") {
        const routing = values.objectLiteral(node.initializer, context);
        const request = values.objectLiteral(values.property(routing, "request")?.expr, context);
        const read = request && optionsRequest(values, request, defaults, credential);
        if (read) out.push(read);
        return;
      }
      ts.forEachChild(node, visit);
    });
  }
  for (const request of out) declaredUrls.add(request.urlNode);
  return out;
}

function member(cls: ts.ClassLikeDeclaration, name: string): ts.Expression | undefined {
  return cls.members.find(
    (m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === name,
  )?.initializer;
}
