/**
 * The base URL of the client a relative request is sent on: Guzzle's
 * `$this->http->post('run')` on `new Client(['base_uri' => …])`, dio's
 * `_dio.post('/run')` on `Dio(BaseOptions(baseUrl: …))`. The client's name
 * is followed to where it is built, and the base option found there.
 */
import type { Node } from "web-tree-sitter";
import { dartCallOf } from "./dart-calls.js";
import type { TreeSource } from "./declarations.js";
import { argumentOf } from "./helper-calls.js";
import { lastName, nameText } from "./syntax.js";
import type { TreeValues } from "./values.js";

/** The keys clients take their base URL under. */
const BASE_OPTIONS = /^["']?(?:base_uri|base_url|baseUrl|baseURL|baseUri)["']?$/;
/** The calls that send a request with the path as their first argument. */
const SENDING = /^(?:get|post|request|send|fetch)$/i;

/** The base the request's client was built with, when the path is its first argument and the base is known. */
export function clientBaseOf(path: Node, source: TreeSource, values: TreeValues): string | undefined {
  const argument = argumentOf(path);
  if (!argument || !SENDING.test(argument.name)) return undefined;
  // `request('POST', 'run')`: the path comes after the method.
  const expected = argument.name.toLowerCase() === "request" ? 1 : 0;
  if (argument.index !== expected) return undefined;
  const receiver = receiverName(argument.call);
  if (!receiver) return undefined;
  // Only this file's: a client of the same name elsewhere may be another service's.
  for (const { source: where, value } of values.scope.lookup(receiver, source, undefined)) {
    if (typeof value === "string" || where !== source) continue;
    const option = baseOptionIn(constructionOf(value));
    if (!option) continue;
    const base = values.valueOf(option, where);
    if (/^[a-z][a-z0-9+.-]*:\/\/[^\u0000]/i.test(base)) return base;
  }
  return undefined;
}

/** The name of what a call is made on: `comfy` in `$this->comfy->post(…)`, `_dio` in `_dio.post(…)`. */
function receiverName(call: Node): string | undefined {
  const dart = dartCallOf(call);
  if (dart) {
    const receiver = dart.receiver;
    if (!receiver) return undefined;
    const name = lastName(receiver);
    return name ? nameText(name) : undefined;
  }
  const object = call.childForFieldName("object") ?? call.childForFieldName("receiver");
  const name = object && lastName(object);
  return name ? nameText(name) : undefined;
}

/** Dart binds a flat construction by its last selector: the construction is it and the parts before it. */
function constructionOf(value: Node): Node[] {
  const parts = [value];
  for (let at = value.previousNamedSibling; at && at.type === "selector"; at = at.previousNamedSibling) parts.push(at);
  return parts;
}

/** The value of a base option anywhere in the construction (`'base_uri' => …`, `baseUrl: …`). */
function baseOptionIn(parts: Node[]): Node | undefined {
  for (const part of parts) {
    const stack: Node[] = [part];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === "array_element_initializer" || node.type === "named_argument" || node.type === "pair") {
        const key = node.namedChild(0);
        const keyText = key?.type === "label" ? (key.namedChild(0)?.text ?? "") : (key?.text ?? "");
        const value = node.namedChildren.at(-1);
        if (BASE_OPTIONS.test(keyText) && value && value !== key) return value;
      }
      for (const child of node.namedChildren) if (child) stack.push(child);
    }
  }
  return undefined;
}

/** A base and a path joined by one slash. */
export function joinBase(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
