/**
 * The request around a URL expression: the call it is passed to (fetch,
 * axios, ky, got, undici), the options or config object of that call, the
 * query option holding `run_id` (axios `params`, ky/got `searchParams`,
 * undici `query`), the keys of the JSON body, and `url.searchParams.set`
 * calls on a `new URL(...)` held in a const.
 */
import type { ASTPath } from "jscodeshift";
import { RUN_ID_KEY } from "../../src/core/run-path.js";
import { endOf, startOf, unwrapPath } from "../lib/span-index.js";
import { constBindingOf } from "./url-parts.js";
import { BODY_OPTIONS, BODY_VERBS, QUERY_OPTIONS } from "../../src/lang/js/http-clients.js";

type Node = { type: string; [key: string]: unknown };

export interface RequestShape {
  /** The call the URL is an argument of (or whose config object holds it). */
  call?: ASTPath;
  /** The options or config object literal of the call. */
  options?: ASTPath;
  /** The body argument of axios-style `post(url, data, config)`. */
  data?: ASTPath;
}

export function requestShapeOf(url: ASTPath): RequestShape {
  const parent = url.parent as ASTPath | null;
  const parentNode = parent?.node as Node | undefined;
  if (!parent || !parentNode) return {};
  if ((parentNode.type === "ObjectProperty" || parentNode.type === "Property") && propertyName(parentNode) === "url") {
    // A config object: axios({ url, method, params, data }).
    const object = parent.parent as ASTPath;
    const call = object.parent as ASTPath | null;
    const isCall = call && /CallExpression$/.test((call.node as Node).type);
    return { options: object, ...(isCall ? { call } : {}) };
  }
  if (!/CallExpression$/.test(parentNode.type) || (parentNode.arguments as Node[])[0] !== url.node) {
    // `fetch((url as string))`: the finding is at the argument, which unwrapPath looked into.
    const outer = parent.parent as ASTPath | null;
    if (parentNode.type.startsWith("TS") && outer) return requestShapeOf(parent);
    return {};
  }
  const args = parentNode.arguments as Node[];
  const callee = parentNode.callee as Node;
  const verb =
    callee.type === "MemberExpression" && !callee.computed
      ? String((callee.property as Node).name ?? "").toLowerCase()
      : "";
  const optionsIndex = BODY_VERBS.has(verb) && args.length >= 3 ? 2 : 1;
  const shape: RequestShape = { call: parent };
  const options = objectArgument(parent, optionsIndex);
  if (options) shape.options = options;
  if (BODY_VERBS.has(verb) && args[1]) shape.data = parent.get("arguments", 1) as ASTPath;
  return shape;
}

function objectArgument(call: ASTPath, index: number): ASTPath | undefined {
  const args = (call.node as Node).arguments as Node[];
  if (!args[index]) return undefined;
  const arg = unwrapPath(call.get("arguments", index) as ASTPath);
  return (arg.node as Node).type === "ObjectExpression" ? arg : undefined;
}

export function propertyName(node: Node): string | undefined {
  if (node.computed) return undefined;
  const key = node.key as Node | undefined;
  if (!key) return undefined;
  if (key.type === "Identifier") return key.name as string;
  if (key.type === "StringLiteral" || (key.type === "Literal" && typeof key.value === "string"))
    return key.value as string;
  return undefined;
}

/** The property paths of an object literal (spreads excluded). */
export function propertiesOf(object: ASTPath): ASTPath[] {
  const props = (object.node as Node).properties as Node[];
  return props.map((_, i) => object.get("properties", i) as ASTPath);
}

export function findProperty(object: ASTPath | undefined, name: string): ASTPath | undefined {
  if (!object) return undefined;
  return propertiesOf(object).find(
    (p) => /Property$/.test((p.node as Node).type) && propertyName(p.node as Node) === name,
  );
}

/** The run_id entry of the request's query option, with the option itself. */
export interface QueryRunId {
  /** The `params: {...}` property. */
  option: ASTPath;
  /** The object literal of the option. */
  object: ASTPath;
  /** The `run_id: value` property. */
  entry: ASTPath;
  /** The value expression. */
  value: ASTPath;
}

export function queryRunIdOf(shape: RequestShape): QueryRunId | "opaque" | undefined {
  for (const name of QUERY_OPTIONS) {
    const option = findProperty(shape.options, name);
    if (!option) continue;
    const object = unwrapPath(option.get("value") as ASTPath);
    if ((object.node as Node).type !== "ObjectExpression") return "opaque";
    const entry = findProperty(object, RUN_ID_KEY);
    if (!entry) continue;
    if ((entry.node as Node).type === "ObjectMethod") return "opaque";
    return { option, object, entry, value: entry.get("value") as ASTPath };
  }
  return undefined;
}

/**
 * The keys of the JSON body sent with a request: an object literal,
 * `JSON.stringify({...})`, or a same-file const holding one. Undefined when
 * there is no body or its keys cannot be seen.
 */
export function bodyKeysOf(shape: RequestShape): string[] | undefined {
  const candidates: ASTPath[] = [];
  if (shape.data) candidates.push(shape.data);
  for (const name of BODY_OPTIONS) {
    const prop = findProperty(shape.options, name);
    if (prop) candidates.push(prop.get("value") as ASTPath);
  }
  let keys: string[] | undefined;
  for (const candidate of candidates) {
    const object = objectBehind(candidate, 0);
    if (!object) continue;
    keys = [
      ...(keys ?? []),
      ...propertiesOf(object)
        .map((p) => propertyName(p.node as Node))
        .filter((k): k is string => k !== undefined),
    ];
  }
  return keys;
}

function objectBehind(raw: ASTPath, depth: number): ASTPath | undefined {
  if (depth > 4) return undefined;
  const path = unwrapPath(raw);
  const node = path.node as Node;
  if (node.type === "ObjectExpression") return path;
  if (node.type === "CallExpression") {
    const callee = node.callee as Node;
    const isStringify =
      callee.type === "MemberExpression" &&
      (callee.object as Node).type === "Identifier" &&
      (callee.object as Node).name === "JSON" &&
      (callee.property as Node).name === "stringify";
    return isStringify && (node.arguments as Node[])[0]
      ? objectBehind(path.get("arguments", 0) as ASTPath, depth + 1)
      : undefined;
  }
  if (node.type === "Identifier") {
    const declarator = constBindingOf(path)?.declarator ?? letBindingOf(path);
    const init = declarator?.get("init") as ASTPath | undefined;
    return init?.node ? objectBehind(init, depth + 1) : undefined;
  }
  return undefined;
}

/** A `let`/`var` declarator of a name, for bodies built before the request (and where a marked request's URL starts). */
export function letBindingOf(identifier: ASTPath): ASTPath | undefined {
  const name = (identifier.node as Node).name as string;
  const scope = (
    identifier as unknown as { scope?: { lookup(n: string): { getBindings(): Record<string, ASTPath[]> } | undefined } }
  ).scope?.lookup(name);
  const bindings = scope?.getBindings()[name];
  const declarator = bindings?.length === 1 ? (bindings[0]!.parent as ASTPath) : undefined;
  return (declarator?.node as Node | undefined)?.type === "VariableDeclarator" ? declarator : undefined;
}

/** `url.searchParams.set("run_id", v)` on a `const url = new URL(...)`, as a statement next to the declaration. */
export interface SearchParamsRunId {
  /** The `new URL(...)` expression. */
  construction: ASTPath;
  /** The ExpressionStatement of the set call. */
  statement: ASTPath;
  value: ASTPath;
}

export function searchParamsRunIdOf(url: ASTPath, all: readonly ASTPath[]): SearchParamsRunId | "opaque" | undefined {
  let target = unwrapPath(url);
  const node = target.node as Node;
  // `url.href` / `url.toString()`
  if (node.type === "MemberExpression" && (node.property as Node).name === "href")
    target = unwrapPath(target.get("object") as ASTPath);
  if (
    node.type === "CallExpression" &&
    (node.callee as Node).type === "MemberExpression" &&
    ((node.callee as Node).property as Node).name === "toString"
  ) {
    target = unwrapPath(target.get("callee", "object") as ASTPath);
  }
  if ((target.node as Node).type !== "Identifier") return undefined;
  const binding = constBindingOf(target);
  const init = binding && unwrapPath(binding.declarator.get("init") as ASTPath);
  const initNode = init?.node as Node | undefined;
  if (!binding || !init || initNode?.type !== "NewExpression" || ((initNode.callee as Node).name ?? "") !== "URL")
    return undefined;
  const sets: ASTPath[] = [];
  for (const p of all) {
    const call = p.node as Node;
    if (call.type !== "CallExpression") continue;
    const callee = call.callee as Node;
    if (callee.type !== "MemberExpression" || !["set", "append"].includes(String((callee.property as Node).name)))
      continue;
    const owner = callee.object as Node;
    if (
      owner.type !== "MemberExpression" ||
      (owner.property as Node).name !== "searchParams" ||
      (owner.object as Node).type !== "Identifier"
    )
      continue;
    if ((owner.object as Node).name !== binding.name) continue;
    const ownerPath = p.get("callee", "object", "object") as ASTPath;
    if (constBindingOf(ownerPath)?.declarator.node !== binding.declarator.node) continue;
    const key = (call.arguments as Node[])[0];
    if (!key || (key.type !== "StringLiteral" && key.type !== "Literal") || key.value !== RUN_ID_KEY) continue;
    sets.push(p);
  }
  if (sets.length === 0) return undefined;
  const set = sets[0]!;
  const statement = set.parent as ASTPath;
  const declaration = binding.declarator.parent as ASTPath;
  const sameBlock =
    (statement.node as Node).type === "ExpressionStatement" && statement.parent?.node === declaration.parent?.node;
  if (
    sets.length > 1 ||
    !sameBlock ||
    startOf(statement.node) < endOf(declaration.node) ||
    ((set.node as unknown as Node).arguments as Node[]).length !== 2
  ) {
    return "opaque";
  }
  return { construction: init, statement, value: set.get("arguments", 1) as ASTPath };
}

/** `url` in `url.searchParams.set(…)` / `.append(…)`. */
export function searchParamsOwnerOf(path: ASTPath): ASTPath | undefined {
  const node = path.node as Node;
  if (node.type !== "CallExpression") return undefined;
  const callee = node.callee as Node;
  if (callee.type !== "MemberExpression" || !["set", "append"].includes(String((callee.property as Node).name)))
    return undefined;
  const owner = callee.object as Node;
  if (owner.type !== "MemberExpression" || (owner.property as Node).name !== "searchParams") return undefined;
  return (owner.object as Node).type === "Identifier" ? (path.get("callee", "object", "object") as ASTPath) : undefined;
}
