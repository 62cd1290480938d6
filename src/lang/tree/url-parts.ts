/**
 * URLs written as their parts rather than as one string: Dart's
 * `Uri.https(host, '/api/run', query)` and `Uri(scheme:, host:, path:)`,
 * `uri.replace(path: …)`, Go's `url.URL{Scheme:, Host:, Path:}`, C#'s
 * `new UriBuilder { Scheme =, Host =, Path = }` and `new Uri(new Uri(base), "run")`,
 * OkHttp's `HttpUrl.Builder().scheme(…).host(…)`. The constructor stands for
 * the whole URL: a `/run` path passed to it is part of that URL, and its
 * value is the parts put together, each resolved like any other value.
 */
import type { Node } from "web-tree-sitter";
import { HOLE } from "../../core/urls.js";
import { urlJoin } from "../python/url-calls.js";
import { dartCallOf } from "./dart-calls.js";
import { CALL_NODES, lastName, nameText } from "./syntax.js";
import { argumentsOf, calledName } from "./values.js";

/** The parts of a URL constructor, as the nodes that write them. */
export interface UrlParts {
  scheme?: Node | string;
  /** The host, maybe with a port (Dart's authority). */
  host?: Node;
  /** A URL the path replaces the path of (`uri.replace(path:)`, `new UriBuilder(base) { Path = }`). */
  base?: Node;
  path?: Node;
  /** A reference resolved against `base` (`new Uri(baseUri, "run")`). */
  reference?: Node;
}

/** The parts a node writes, when it constructs a URL from them. */
export function urlPartsOf(node: Node): UrlParts | undefined {
  if (node.type === "selector") return dartParts(node);
  if (node.type === "composite_literal") return goParts(node);
  if (node.type === "object_creation_expression") return csharpParts(node);
  if (CALL_NODES.has(node.type)) return builderHostParts(node);
  return undefined;
}

/** The URL constructor a path (or reference) literal is written in, a few wrappers up. */
export function urlPartsAround(literal: Node): Node | undefined {
  let at: Node | null = literal.parent;
  for (let hops = 0; at && hops < 6; at = at.parent, hops++) {
    const parts = urlPartsOf(at);
    if (parts) {
      const holder = [parts.path, parts.reference].find((p) => p && isWithin(literal, p));
      return holder ? at : undefined;
    }
  }
  return undefined;
}

/**
 * Where a finding about a constructor spread over lines starts: the line of a
 * path written as a named part (`Path = "/api/run"`, `path: '/api/run'`), as
 * for a builder chain's path segment; positional parts stay on the call's line.
 */
export function namedPathStart(built: Node, literal: Node): number | undefined {
  if (literal.startPosition.row === built.startPosition.row) return undefined;
  for (let at = literal.parent; at && at !== built; at = at.parent)
    if (/^(?:named_argument|keyed_element|assignment_expression)$/.test(at.type)) return at.startIndex;
  return undefined;
}

/**
 * A value written as a part of a URL constructor (`Host: c.host`, `path: '/api/run'`):
 * its field or label names that part, so it binds no name for the rest of the code.
 */
export function isUrlPart(value: Node): boolean {
  let at: Node | null = value.parent;
  for (let hops = 0; at && hops < 5; at = at.parent, hops++) {
    const parts = urlPartsOf(at);
    if (parts) return Object.values(parts).some((p) => typeof p !== "string" && isWithin(value, p));
  }
  return false;
}

/** The URL the parts make, each part's value taken by `evaluate`. */
export function composeUrl(parts: UrlParts, evaluate: (node: Node) => string): string {
  const path = parts.path ? evaluate(parts.path) : "";
  // The query (`queryParameters:`, `RawQuery`, `Query =`) is left out: its run_id key is found where it is written.
  if (parts.base && parts.reference) return urlJoin(evaluate(parts.base), evaluate(parts.reference));
  if (parts.base) {
    const base = evaluate(parts.base);
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(base)?.[0] ?? HOLE;
    if (!parts.path) return base;
    // `replace(path: '${base.path}/run')`: a path that starts from an unknown part keeps the base's own path.
    const from = path.startsWith(HOLE) && origin !== HOLE ? base.split(/[?#]/)[0]!.replace(/\/+$/, "") : origin;
    return `${from}/${path.replace(/^[\u0000/]+/, "")}`;
  }
  const written = typeof parts.scheme === "string" ? parts.scheme : parts.scheme ? evaluate(parts.scheme) : "https";
  // A scheme read from a constant the code does not define (`Uri.UriSchemeHttps`) is the web's.
  const scheme = /^[a-z][a-z0-9+.-]*/i.exec(written)?.[0] ?? "https";
  const host = parts.host ? evaluate(parts.host) : HOLE;
  const slash = path === "" || path.startsWith("/") ? "" : "/";
  return `${scheme}://${host}${slash}${path}`;
}

function isWithin(node: Node, container: Node): boolean {
  return container.startIndex <= node.startIndex && node.endIndex <= container.endIndex;
}

/** `Uri.https(authority, path, query)`, `Uri(scheme:, host:, path:)`, `uri.replace(path: …)`. */
function dartParts(selector: Node): UrlParts | undefined {
  const call = dartCallOf(selector);
  if (!call) return undefined;
  const name = nameText(call.name);
  const receiver = call.receiver && nameText(call.receiver);
  if (receiver === "Uri" && (name === "https" || name === "http") && call.args.length >= 2)
    return { scheme: name, host: call.args[0]!, path: call.args[1]! };
  const named = (key: string) => call.named.get(key);
  if (name === "Uri" && !call.receiver && named("path") && (named("host") || named("scheme")))
    return withDefined({ scheme: named("scheme") ?? "https", host: named("host"), path: named("path")! });
  if (name === "replace" && call.receiver && named("path")) return { base: call.receiver, path: named("path")! };
  return undefined;
}

/** `url.URL{Scheme: "https", Host: host, Path: "/api/run", RawQuery: q}`. */
function goParts(node: Node): UrlParts | undefined {
  const type = node.childForFieldName("type");
  if (!type || !/^(?:url\.)?URL$/.test(type.text)) return undefined;
  const fields = new Map<string, Node>();
  for (const element of node.childForFieldName("body")?.namedChildren ?? []) {
    if (element?.type !== "keyed_element") continue;
    const [key, value] = element.namedChildren.map((c) => (c?.type === "literal_element" ? c.namedChild(0) : c));
    if (key && value) fields.set(key.text, value);
  }
  const path = fields.get("Path");
  if (!path) return undefined;
  return withDefined({ scheme: fields.get("Scheme") ?? "https", host: fields.get("Host"), path });
}

/** `new UriBuilder(…) { Scheme = …, Host = …, Path = … }`, `new Uri(new Uri(baseUrl), "run")`. */
function csharpParts(node: Node): UrlParts | undefined {
  const type = node.childForFieldName("type");
  const name = type && lastName(type);
  if (!name) return undefined;
  const args = argumentsOf(node);
  if (nameText(name) === "Uri" && args.length === 2)
    // `new Uri(url, UriKind.Absolute)` is the URL itself.
    return args[1]!.text.startsWith("UriKind.") ? { base: args[0]! } : { base: args[0]!, reference: args[1]! };
  if (nameText(name) === "Uri") return undefined;
  if (nameText(name) !== "UriBuilder") return undefined;
  const fields = new Map<string, Node>();
  const initializer =
    node.childForFieldName("initializer") ?? node.namedChildren.find((c) => c?.type === "initializer_expression");
  for (const assignment of initializer?.namedChildren ?? []) {
    const key = assignment?.childForFieldName("left");
    const value = assignment?.childForFieldName("right");
    if (key && value) fields.set(key.text, value);
  }
  // UriBuilder(uri), (scheme, host), (scheme, host, port), (scheme, host, port, path).
  const path = fields.get("Path") ?? args[3];
  if (!path) return undefined;
  if (args.length === 1 && !fields.has("Host")) return { base: args[0]!, path };
  return withDefined({ scheme: fields.get("Scheme") ?? args[0] ?? "https", host: fields.get("Host") ?? args[1], path });
}

/**
 * Calls that turn a URL into a builder of it, or back, and keep its value:
 * OkHttp's `base.toHttpUrl().newBuilder()`, `HttpUrl.get(base)`, `.build()`.
 */
const URL_KEEPING_CALLS = /^(?:toHttpUrl|toHttpUrlOrNull|newBuilder|build|buildUpon)$/;
/** A receiver that is a URL or its builder, for the calls above. */
const URL_BUILDING = /HttpUrl|newBuilder|Builder\(\)|addPathSegment|toHttpUrl|Uri\b/;
const URL_PARSING_CALLS = /^(?:get|parse)$/;

/** OkHttp's `HttpUrl.Builder().scheme("https").host(h)`: the origin the path segments go onto; and its conversions. */
function builderHostParts(call: Node): UrlParts | undefined {
  const name = calledName(call);
  if (!name) return undefined;
  const args = argumentsOf(call);
  const callee = call.childForFieldName("function") ?? call.namedChild(0);
  const receiver =
    call.childForFieldName("object") ??
    (callee && callee !== name && callee.namedChildCount > 1 ? callee.namedChild(0) : null);
  const keeps = receiver && args.length === 0 && URL_KEEPING_CALLS.test(nameText(name));
  if (keeps && (/^toHttpUrl/.test(nameText(name)) || URL_BUILDING.test(receiver.text))) return { base: receiver };
  if (receiver?.text === "HttpUrl" && args.length === 1 && URL_PARSING_CALLS.test(nameText(name)))
    return { base: args[0]! };
  if (nameText(name) !== "host") return undefined;
  const chain = call.text.slice(0, name.startIndex - call.startIndex);
  if (args.length !== 1 || !/\bHttpUrl\b|\bscheme\s*\(/.test(chain)) return undefined;
  const scheme = /\bscheme\s*\(\s*"(https?)"\s*\)/.exec(chain)?.[1] ?? "https";
  return { scheme, host: args[0]! };
}

function withDefined<T extends object>(parts: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)) as never;
}
