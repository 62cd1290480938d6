/**
 * A path kept in a local variable and resolved against a server in the same
 * function, the way generated OpenAPI clients build their requests:
 * oapi-codegen's `operationPath := fmt.Sprintf("/run")`, then
 * `queryURL, err := serverURL.Parse(operationPath)`, then
 * `http.NewRequest("POST", queryURL.String(), body)`; openapi-generator's Java
 * `String localVarPath = "/run"`, then `buildCall(basePath, localVarPath, "POST", …)`.
 * What it gives: the server expression (behind `url.Parse(server)`), the
 * parameter of the function it is, the method the request is built with and
 * where it is built (the query is added before that).
 */
import type { Node } from "web-tree-sitter";
import { argumentsOf, calledName, calleeOf } from "./values.js";
import {
  CALL_NODES,
  DECLARATION_NODES,
  FUNCTION_NODES,
  MEMBER_NODES,
  NAME_NODES,
  nameText,
  VALUE_WRAPPERS,
} from "./syntax.js";

export interface ResolvedPath {
  /** The server the path is resolved against, before it was parsed (`server` in `serverURL, err := url.Parse(server)`); none when the request's code does not name it (`CallApi(localVarPath, Method.POST, …)`). */
  base?: Node;
  /** The enclosing function's parameter the server is, when it is one: its callers decide it. */
  parameter?: { function: Node; index: number };
  method?: "GET" | "POST";
  /** The end of the call that builds the request: its query is added before it. */
  requestEnd: number;
}

/** Calls that resolve a path against a base URL. */
const RESOLVE_CALLS = /^(?:Parse|ResolveReference|JoinPath|resolve|Resolve)$/;
/** Calls that turn a URL string into a URL value (`url.Parse(server)`, `URI.create(base)`). */
const URL_PARSERS = /^(?:Parse|ParseRequestURI|parse|create|URI|URL|Uri)$/;
/** A method named as an argument: `"POST"`, `http.MethodPost`, `HttpMethod.Post`. */
const METHOD_ARGUMENT =
  /^(?:["'](GET|POST)["']|:(?:GET|POST|get|post)|(?:[\w.]+\.)?Method(Get|Post)|(?:[\w.]+\.)?(?:HttpMethod|Method)\.(GET|POST|Get|Post))$/;
/** Calls, and constructions that take a request's parts (`new Request('POST', $host . $resourcePath)`). */
const REQUEST_CALLS = new Set([...CALL_NODES, "object_creation_expression"]);

/**
 * The request a path declaration (`operationPath := fmt.Sprintf("/run")`,
 * `localVarPath = "/run"`) is resolved into, followed through the local
 * variables of its function; undefined when it is not such a path.
 */
export function resolvedPathOf(value: Node): ResolvedPath | undefined {
  let declaration = value.parent;
  while (declaration && VALUE_WRAPPERS.has(declaration.type)) declaration = declaration.parent;
  if (!declaration || !DECLARATION_NODES.has(declaration.type)) return undefined;
  const name = boundName(declaration);
  const fn = enclosingFunction(declaration);
  if (!name || !fn) return undefined;
  const tracked = new Set([name]);
  let base: Node | undefined;
  for (const call of callsAfter(fn, declaration.endIndex)) {
    const args = argumentsOf(call);
    const read = args.find((a) => readsTracked(a, tracked));
    if (!read) continue;
    const methodArgument = args.find((a) => METHOD_ARGUMENT.test(a.text));
    if (methodArgument) {
      // `buildCall(basePath, localVarPath, "POST", …)` resolves and builds in one call: the base is the argument before the path.
      const before = args[args.indexOf(read) - 1];
      base ??= concatenatedBase(read, tracked);
      base ??=
        before && before !== methodArgument && (NAME_NODES.has(before.type) || MEMBER_NODES.has(before.type))
          ? before
          : undefined;
      return {
        ...(base ? unparsed(base, fn) : {}),
        method: /GET|Get/.test(methodArgument.text) ? "GET" : "POST",
        requestEnd: call.endIndex,
      };
    }
    const called = calledName(call);
    if (!called || !RESOLVE_CALLS.test(nameText(called))) continue;
    const callee = calleeOf(call);
    const receiver = callee && callee !== called && MEMBER_NODES.has(callee.type) ? callee.namedChild(0) : null;
    base ??=
      receiver && !readsTracked(receiver, tracked) && !/^(?:url|path)$/.test(receiver.text)
        ? receiver
        : args.find((a) => a !== read);
    const result = resultName(call);
    if (result) tracked.add(result);
  }
  return undefined;
}

/** The variable a declaration or assignment binds (the first of `queryURL, err :=`, Dart's `final path = …`). */
function boundName(declaration: Node): string | undefined {
  const left =
    declaration.childForFieldName("left") ??
    declaration.childForFieldName("name") ??
    declaration.namedChildren.find(
      (c) => c !== null && (NAME_NODES.has(c.type) || /list|variable_name/.test(c.type)),
    ) ??
    null;
  const first = left && /list/.test(left.type) ? left.namedChild(0) : left;
  return first && (NAME_NODES.has(first.type) || first.type === "variable_name") ? nameText(first) : undefined;
}

function enclosingFunction(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) {
    // Dart keeps a method's body beside its signature.
    if (FUNCTION_NODES.has(at.type) || at.type === "constructor_declaration" || at.type === "function_body") return at;
  }
  return undefined;
}

/** The calls of a function after an offset, in the order they are written. */
function callsAfter(fn: Node, offset: number): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [fn];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.endIndex <= offset) continue;
    if (REQUEST_CALLS.has(node.type) && node.startIndex >= offset) out.push(node);
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      if (child) stack.push(child);
    }
  }
  return out.sort((a, b) => a.endIndex - b.endIndex);
}

/** The expression is a tracked variable, a call or member read on one (`queryURL.String()`), or a concatenation holding one. */
function readsTracked(node: Node, tracked: ReadonlySet<string>): boolean {
  if (/binary/.test(node.type)) return node.namedChildren.some((c) => c !== null && readsTracked(c, tracked));
  let at: Node | null = node;
  while (at && (CALL_NODES.has(at.type) || MEMBER_NODES.has(at.type) || at.type === "variable_name"))
    at = at.namedChild(0);
  return at !== null && NAME_NODES.has(at.type) && tracked.has(nameText(at));
}

/** In `$operationHost . $resourcePath`, the operand before the path: the base it is appended to. */
function concatenatedBase(read: Node, tracked: ReadonlySet<string>): Node | undefined {
  let at = read;
  while (/binary/.test(at.type)) {
    const [left, right] = [at.namedChild(0), at.namedChild(1)];
    if (right && readsTracked(right, tracked) && left && !readsTracked(left, tracked)) return left;
    if (!left) return undefined;
    at = left;
  }
  return undefined;
}

/** The variable a call's result is bound to. */
function resultName(call: Node): string | undefined {
  let at = call.parent;
  while (at && VALUE_WRAPPERS.has(at.type)) at = at.parent;
  return at && DECLARATION_NODES.has(at.type) ? boundName(at) : undefined;
}

/** The server behind a parsed URL variable (`serverURL, err := url.Parse(server)` gives `server`), and whether it is a parameter. */
function unparsed(base: Node, fn: Node): Pick<ResolvedPath, "base" | "parameter"> {
  let server = base;
  if (NAME_NODES.has(base.type)) {
    const parsed = parsedFrom(nameText(base), fn, base.startIndex);
    if (parsed) server = parsed;
  }
  const index = NAME_NODES.has(server.type) ? parameterIndex(fn, nameText(server)) : -1;
  return index >= 0 ? { base: server, parameter: { function: fn, index } } : { base: server };
}

function parsedFrom(name: string, fn: Node, before: number): Node | undefined {
  for (const call of callsAfter(fn, fn.startIndex)) {
    if (call.startIndex >= before) break;
    const called = calledName(call);
    if (!called || !URL_PARSERS.test(nameText(called)) || resultName(call) !== name) continue;
    return argumentsOf(call)[0];
  }
  return undefined;
}

/** Where a parameter of this name sits in the function's parameter list; -1 when it is none. */
export function parameterIndex(fn: Node, name: string): number {
  const list =
    fn.childForFieldName("parameters") ??
    fn.namedChildren.find(
      (c) => c !== null && /^(?:formal_)?parameter_list$|^parameters$|^method_parameters$/.test(c.type),
    );
  if (!list) return -1;
  let index = 0;
  for (const parameter of list.namedChildren) {
    if (!parameter || parameter.type === "comment") continue;
    // Go declares several names in one parameter (`a, b string`).
    const names = parameter.namedChildren.filter((c) => c !== null && NAME_NODES.has(c.type));
    for (const n of names.length > 0 ? names : [parameter]) {
      if (n && nameText(n) === name) return index;
      index++;
    }
  }
  return -1;
}
