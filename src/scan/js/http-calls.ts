/**
 * Recognises HTTP requests in JS/TS: fetch, axios (and instances), got, ky,
 * undici and node:http(s). For each it finds the URL expression, the URL it
 * builds (base URL and query options folded in) and the HTTP method.
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { enclosingClass, type FileContext, unwrap } from "./file-context.js";
import { joinBase } from "./url-join.js";
import type { Definition, Values } from "./values.js";
import { NestHttp } from "./nest-http.js";
import { queryRunIdEntry } from "./run-id-site.js";
import {
  BODY_VERBS,
  type ClientFamily,
  FAMILY_METHODS,
  FETCH_MODULES,
  GLOBAL_CLIENTS,
  MODULE_FAMILIES,
  QUERY_OPTION,
  REQUEST_METHODS,
  VERBS,
} from "../../lang/js/http-clients.js";

interface HttpClient {
  family: ClientFamily;
  /** The instance's base URL (axios baseURL, got/ky prefixUrl). */
  base?: string;
  /** For a named import such as `import { get } from "node:https"`: the method it stands for. */
  verb?: string;
}

export interface HttpRequest {
  /** Where the finding goes: the URL argument (or the `url` option). */
  urlNode: ts.Node;
  /** The full URL with HOLEs. */
  url: string;
  /** Upper-case method, undefined when it cannot be known. */
  method: string | undefined;
  /** Top-level keys of the request body, when it is an object the scanner can read. */
  bodyKeys: ReadonlySet<string>;
  /** The client that makes the request; undefined for an unknown object's `.get`/`.post`. */
  client?: ClientFamily;
  /** The `run_id` entry of its query option object (`params: { run_id: id }`), where it has one. */
  runIdEntry?: ts.Node;
}

type Located = { context: FileContext; expr: ts.Expression };

export class HttpCalls {
  private readonly nest: NestHttp;

  constructor(private readonly values: Values) {
    this.nest = new NestHttp(values);
  }

  recognise(call: ts.CallExpression, context: FileContext, consumed: Set<ts.Node>): HttpRequest | undefined {
    const callee = unwrap(call.expression);
    const args = call.arguments;
    // Every request shape takes a URL or options first: a call without arguments is not worth following names for.
    if (!args[0]) return undefined;
    if (ts.isPropertyAccessExpression(callee)) {
      const verb = callee.name.text.toLowerCase();
      // No client family makes a request from another method name, so the receiver need not be resolved.
      if (!REQUEST_METHODS.has(verb)) return undefined;
      const client = this.clientOf(callee.expression, context, 0);
      if (client) return withClient(this.methodCall(client, verb, args, context, consumed), client.family);
      // An unknown object's .get/.post: the name says the method; the URL decides whether it counts.
      if (VERBS.has(verb)) return this.fromUrl(args[0], verb.toUpperCase(), undefined, [], context, consumed);
      return undefined;
    }
    const client = this.clientOf(callee, context, 0);
    if (!client) return undefined;
    return withClient(this.directCall(client, args, context, consumed), client.family);
  }

  private directCall(
    client: HttpClient,
    args: ts.NodeArray<ts.Expression>,
    context: FileContext,
    consumed: Set<ts.Node>,
  ): HttpRequest | undefined {
    const [first, second] = args;
    if (!first) return undefined;
    switch (client.family) {
      case "fetch":
      case "undici":
        return this.withOptions(first, second, "GET", client.base, context, consumed, [QUERY_OPTION.fetch!]);
      case "axios": {
        const config = this.values.objectLiteral(first, context);
        if (config && !ts.isStringLiteralLike(unwrap(first)))
          return this.fromConfig(config, client.base, context, consumed);
        return this.withOptions(first, second, "GET", client.base, context, consumed, [QUERY_OPTION.axios!]);
      }
      case "got":
      case "ky":
        return this.withOptions(first, second, "GET", client.base, context, consumed, [QUERY_OPTION.got!]);
      case "node-http":
        return client.verb
          ? this.nodeHttp(first, second, client.verb === "get" ? "GET" : undefined, context, consumed)
          : undefined;
    }
  }

  private methodCall(
    client: HttpClient,
    verb: string,
    args: ts.NodeArray<ts.Expression>,
    context: FileContext,
    consumed: Set<ts.Node>,
  ): HttpRequest | undefined {
    const first = args[0];
    if (!first || !FAMILY_METHODS[client.family].has(verb)) return undefined;
    switch (client.family) {
      case "axios": {
        if (verb === "request") {
          const config = this.values.objectLiteral(first, context);
          return config ? this.fromConfig(config, client.base, context, consumed) : undefined;
        }
        const options = BODY_VERBS.has(verb) ? args[2] : args[1];
        const data = BODY_VERBS.has(verb) && args[1] ? { context, expr: args[1] } : undefined;
        return this.withOptions(
          first,
          options,
          verb.toUpperCase(),
          client.base,
          context,
          consumed,
          [QUERY_OPTION.axios!],
          true,
          data,
        );
      }
      case "got":
      case "ky":
        return this.withOptions(
          first,
          args[1],
          verb.toUpperCase(),
          client.base,
          context,
          consumed,
          [QUERY_OPTION.got!],
          true,
        );
      case "undici":
        return this.withOptions(first, args[1], "GET", client.base, context, consumed, [QUERY_OPTION.fetch!]);
      case "node-http":
        if (verb === "get") return this.nodeHttp(first, args[1], "GET", context, consumed);
        return this.nodeHttp(first, args[1], undefined, context, consumed);
      case "fetch":
        return undefined;
    }
  }

  /** `request(url, { method, <queryOption> })` shapes. */
  private withOptions(
    urlArg: ts.Expression,
    optionsArg: ts.Expression | undefined,
    defaultMethod: string,
    base: string | undefined,
    context: FileContext,
    consumed: Set<ts.Node>,
    queryOptions: string[],
    methodFixed = false,
    data?: Located,
  ): HttpRequest {
    const options = this.values.objectLiteral(optionsArg, context);
    let method: string | undefined = defaultMethod;
    if (!methodFixed && optionsArg) {
      const methodProp = this.values.property(options, "method");
      if (methodProp) method = this.values.staticString(methodProp.expr, methodProp.context)?.toUpperCase();
      else if (!options) method = undefined;
    }
    const queryKeys = queryOptions.flatMap((name) => this.queryKeys(options, name));
    const prefix = this.values.property(options, "prefixUrl") ?? this.values.property(options, "baseURL");
    const effectiveBase = prefix ? this.values.stringValue(prefix.expr, prefix.context, consumed) : base;
    const body = data ?? this.values.property(options, "body") ?? this.values.property(options, "json");
    const request = this.fromUrl(urlArg, method, effectiveBase, queryKeys, context, consumed, body);
    return withRunIdEntry(request, queryRunIdEntry(this.values, options, queryOptions));
  }

  private fromConfig(
    config: { context: FileContext; object: ts.ObjectLiteralExpression },
    base: string | undefined,
    context: FileContext,
    consumed: Set<ts.Node>,
  ): HttpRequest | undefined {
    const url = this.values.property(config, "url");
    if (!url) return undefined;
    const methodProp = this.values.property(config, "method");
    const method = methodProp ? this.values.staticString(methodProp.expr, methodProp.context)?.toUpperCase() : "GET";
    const baseProp = this.values.property(config, "baseURL");
    const effectiveBase = baseProp ? this.values.stringValue(baseProp.expr, baseProp.context, consumed) : base;
    const body = this.values.property(config, "data");
    const request = this.fromUrl(
      url.expr,
      method,
      effectiveBase,
      this.queryKeys(config, QUERY_OPTION.axios!),
      url.context ?? context,
      consumed,
      body,
    );
    return withRunIdEntry(request, queryRunIdEntry(this.values, config, [QUERY_OPTION.axios!]));
  }

  private nodeHttp(
    first: ts.Expression,
    second: ts.Expression | undefined,
    fixedMethod: string | undefined,
    context: FileContext,
    consumed: Set<ts.Node>,
  ): HttpRequest | undefined {
    const asOptions = this.values.objectLiteral(first, context);
    if (asOptions) {
      const host = this.values.property(asOptions, "hostname") ?? this.values.property(asOptions, "host");
      if (!host) return undefined;
      const path = this.values.property(asOptions, "path");
      const methodProp = this.values.property(asOptions, "method");
      const hostText = this.values.stringValue(host.expr, host.context, consumed);
      const pathText = path ? this.values.stringValue(path.expr, path.context, consumed) : "/";
      const method =
        fixedMethod ??
        (methodProp ? this.values.staticString(methodProp.expr, methodProp.context)?.toUpperCase() : "GET");
      consumed.add(host.expr);
      return { urlNode: host.expr, url: `https://${hostText}${pathText}`, method, bodyKeys: new Set() };
    }
    return this.withOptions(
      first,
      second,
      fixedMethod ?? "GET",
      undefined,
      context,
      consumed,
      [],
      fixedMethod !== undefined,
    );
  }

  private fromUrl(
    urlArg: ts.Expression,
    method: string | undefined,
    base: string | undefined,
    queryKeys: string[],
    context: FileContext,
    consumed: Set<ts.Node>,
    body?: Located,
  ): HttpRequest {
    let url = this.values.stringValue(urlArg, context, consumed);
    if (base !== undefined && !url.startsWith(HOLE)) url = joinBase(base, url);
    for (const key of queryKeys) url += `${url.includes("?") ? "&" : "?"}${key}=${HOLE}`;
    return { urlNode: urlArg, url, method, bodyKeys: new Set(body ? this.bodyKeys(body.expr, body.context, 0) : []) };
  }

  /** Keys of a body given as an object, `JSON.stringify(object)`, or a name holding either. */
  private bodyKeys(expr: ts.Expression, context: FileContext, depth: number): string[] {
    if (depth > 8) return [];
    const e = unwrap(expr);
    if (ts.isCallExpression(e) && e.arguments[0]) {
      const callee = unwrap(e.expression);
      const isStringify =
        ts.isPropertyAccessExpression(callee) &&
        callee.name.text === "stringify" &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === "JSON";
      return isStringify ? this.bodyKeys(e.arguments[0], context, depth + 1) : [];
    }
    const object = this.values.objectLiteral(e, context);
    if (object) return this.values.propertyNames(object);
    if (ts.isIdentifier(e)) {
      const value = this.values.valueOf(this.values.definitionOf(e, context));
      return value ? this.bodyKeys(value.expr, value.context, depth + 1) : [];
    }
    return [];
  }

  private queryKeys(
    options: { context: FileContext; object: ts.ObjectLiteralExpression } | undefined,
    name: string,
  ): string[] {
    const prop = this.values.property(options, name);
    if (!prop) return [];
    const object = this.values.objectLiteral(prop.expr, prop.context);
    if (object) return this.values.propertyNames(object);
    // A URLSearchParams or query string: its keys show in its string value.
    const text = this.values.stringValue(prop.expr, prop.context, null);
    return [...text.matchAll(/(?:^|[?&])([^=&?\u0000]+)=/g)].map((m) => m[1]!);
  }

  /** What HTTP client an expression is, following names, imports and instance factories. */
  private clientOf(expr: ts.Expression, context: FileContext, depth: number): HttpClient | undefined {
    if (depth > 12) return undefined;
    const e = unwrap(expr);
    if (ts.isIdentifier(e)) {
      const def = this.values.definitionOf(e, context);
      if (!def) {
        const family = GLOBAL_CLIENTS[e.text];
        return family ? { family } : undefined;
      }
      return this.clientOfDefinition(def, depth);
    }
    if (ts.isPropertyAccessExpression(e)) {
      // `undici.request`, `https.request`, `axios.default` style member access on a module.
      const owner = this.clientOf(e.expression, context, depth + 1);
      if (owner && (e.name.text === "default" || (owner.family === "undici" && e.name.text === "fetch"))) {
        return e.name.text === "fetch" ? { family: "fetch" } : owner;
      }
      if (e.expression.kind === ts.SyntaxKind.ThisKeyword) return this.classMemberClient(e, context, depth);
      // `this.http.axiosRef.post(…)`: the axios instance behind NestJS's HttpService.
      if (e.name.text === "axiosRef") return this.clientOf(e.expression, context, depth + 1);
      if (ts.isIdentifier(e.expression) && e.expression.text === "globalThis" && e.name.text === "fetch")
        return { family: "fetch" };
      return undefined;
    }
    if (ts.isCallExpression(e)) {
      // Instance factories: axios.create({ baseURL }), ky.create/extend({ prefixUrl }), got.extend({ prefixUrl }),
      // ofetch.create({ baseURL }) (a fetch-family instance).
      const callee = unwrap(e.expression);
      if (!ts.isPropertyAccessExpression(callee) || !["create", "extend"].includes(callee.name.text)) return undefined;
      const parent = this.clientOf(callee.expression, context, depth + 1);
      if (!parent) return undefined;
      if (parent.family === "fetch" ? callee.name.text !== "create" : !["axios", "got", "ky"].includes(parent.family))
        return undefined;
      const options = this.values.objectLiteral(e.arguments[0], context);
      const baseOption = parent.family === "axios" || parent.family === "fetch" ? "baseURL" : "prefixUrl";
      const baseProp = this.values.property(options, baseOption);
      const base = baseProp ? this.values.stringValue(baseProp.expr, baseProp.context, null) : parent.base;
      return base === undefined ? { family: parent.family } : { family: parent.family, base };
    }
    return undefined;
  }

  private clientOfDefinition(def: Definition, depth: number): HttpClient | undefined {
    if (def.kind === "module") {
      // `const http = require("./http")` where ./http sets `module.exports = axios.create(…)`: require returns that.
      const context = this.values.project.contextFor(def.file);
      return context?.moduleExports ? this.clientOf(context.moduleExports, context, depth + 1) : undefined;
    }
    if (def.kind === "external") {
      const family = MODULE_FAMILIES[def.module];
      if (family === "undici" && (def.name === "fetch" || def.name === "request")) {
        return { family: def.name === "fetch" ? "fetch" : "undici" };
      }
      if (family === "node-http" && (def.name === "request" || def.name === "get")) return { family, verb: def.name };
      if (family && (def.name === "default" || def.name === "*")) return { family };
      if (
        FETCH_MODULES.has(def.module) &&
        (def.name === "default" || def.name === "fetch" || def.name === "ofetch" || def.name === "$fetch")
      ) {
        return { family: "fetch" };
      }
      return undefined;
    }
    const value = this.values.valueOf(def);
    return value ? this.clientOf(value.expr, value.context, depth + 1) : undefined;
  }

  private classMemberClient(
    access: ts.PropertyAccessExpression,
    context: FileContext,
    depth: number,
  ): HttpClient | undefined {
    const cls = enclosingClass(access);
    const evidence = cls && context.classMembers.get(cls)?.get(access.name.text);
    for (const node of evidence ?? []) {
      // `constructor(private readonly http: HttpService)`: NestJS injects the axios instance HttpModule registers.
      if (ts.isParameter(node)) {
        if (!this.nest.isHttpService(node, context)) continue;
        const base = this.values.readsWiring ? this.nest.registeredBase() : undefined;
        return base === undefined ? { family: "axios" } : { family: "axios", base };
      }
      const expr = ts.isPropertyDeclaration(node) ? node.initializer : (node as ts.Expression);
      const client = expr && this.clientOf(expr, context, depth + 1);
      if (client) return client;
    }
    return undefined;
  }
}

function withRunIdEntry(request: HttpRequest, runIdEntry: ts.Node | undefined): HttpRequest {
  return runIdEntry ? { ...request, runIdEntry } : request;
}

function withClient(request: HttpRequest | undefined, client: ClientFamily): HttpRequest | undefined {
  return request && { ...request, client };
}
