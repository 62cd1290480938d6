/**
 * Helper functions that build a URL from their parameters
 * (`private function endpoint($path) { return $this->api_base . $path; }`,
 * Dart's `Uri _uri(String path, [query]) => Uri.parse('$_base$path')…`):
 * a call of one is worth its return value with the parameters bound to the
 * call's arguments, and a `/run` literal passed to one is part of the URL
 * the helper returns.
 */
import type { Node } from "web-tree-sitter";
import { dartCallOf } from "./dart-calls.js";
import { HOLE } from "../../core/urls.js";
import type { TreeSource } from "./declarations.js";
import type { TreeValues } from "./values.js";
import { ARGUMENT_LIST_NODES, CALL_NODES, FUNCTION_NODES, lastName, NAME_NODES, nameText } from "./syntax.js";

/** The function or method whose body returns `value`, if `value` is what a function returns. */
export function functionReturning(value: Node): Node | undefined {
  for (let at = value.parent; at; at = at.parent) {
    if (FUNCTION_NODES.has(at.type)) return at;
    // Dart puts a function's signature beside its body.
    if (at.type === "function_body") {
      const signature = at.previousNamedSibling;
      return signature ?? undefined;
    }
    if (/lambda|closure|anonymous|arrow_function/.test(at.type)) return undefined;
  }
  return undefined;
}

/** A function's name: by field, or the first name in its signature (Dart's `Uri _uri(String path)`). */
export function functionNameOf(fn: Node | undefined): string | undefined {
  if (!fn) return undefined;
  const field = fn.childForFieldName("name");
  if (field) return nameText(field);
  const stack: Node[] = [fn];
  while (stack.length > 0) {
    const node = stack.shift()!;
    if (NAME_NODES.has(node.type)) return nameText(node);
    if (/parameter/.test(node.type)) continue;
    for (const child of node.namedChildren) if (child) stack.push(child);
  }
  return undefined;
}

/** The function's parameter names, in order (`$path`, `path`, Dart's optional `[query]`). */
export function parameterNames(fn: Node): string[] {
  const list =
    fn.childForFieldName("parameters") ??
    fn.descendantsOfType(["formal_parameter_list", "formal_parameters", "parameter_list", "parameters"])[0] ??
    null;
  if (!list) return [];
  const out: string[] = [];
  const visit = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (/^optional_formal_parameters$|^optional_positional|^named_parameters$/.test(child.type)) {
        visit(child);
        continue;
      }
      const name =
        child.childForFieldName("name") ?? child.namedChildren.filter((c) => c && NAME_NODES.has(c.type)).at(-1);
      if (NAME_NODES.has(child.type)) out.push(nameText(child));
      else if (name) out.push(nameText(name));
    }
  };
  visit(list);
  return out;
}

/** A call and the argument a node is, or is the whole of: `endpoint('/run')`, Dart's `_uri('/run', {…})`. */
export interface ArgumentOf {
  /** The call expression (Dart: the selector that holds the arguments). */
  call: Node;
  /** The called name. */
  name: string;
  /** The argument's position among the positional arguments. */
  index: number;
}

export function argumentOf(node: Node): ArgumentOf | undefined {
  let argument: Node = node;
  if (node.parent && /^(?:argument|value_argument)$/.test(node.parent.type)) argument = node.parent;
  const list = argument.parent;
  if (!list) return undefined;
  const positional = list.namedChildren.filter(
    (c): c is Node => c !== null && c.type !== "comment" && !/named_argument|keyword_argument/.test(c.type),
  );
  const index = positional.findIndex((c) => c.startIndex === argument.startIndex && c.endIndex === argument.endIndex);
  if (index < 0) return undefined;
  // Dart: arguments → argument_part → selector.
  if (list.type === "arguments" && list.parent?.type === "argument_part" && list.parent.parent) {
    const selector = list.parent.parent;
    const call = dartCallOf(selector);
    return call ? { call: selector, name: nameText(call.name), index } : undefined;
  }
  if (!ARGUMENT_LIST_NODES.has(list.type) || !list.parent || !CALL_NODES.has(list.parent.type)) return undefined;
  const call = list.parent;
  const callee =
    call.childForFieldName("name") ?? call.childForFieldName("method") ?? call.childForFieldName("function");
  const called = callee && lastName(callee);
  const name = called ? nameText(called) : undefined;
  return name ? { call, name, index } : undefined;
}

/** The return expression reads the parameter at `index` of its function. */
export function returnReadsParameter(value: Node, index: number): boolean {
  const fn = functionReturning(value);
  const name = fn ? parameterNames(fn)[index] : undefined;
  if (!name) return false;
  // `$path`, `path`, and Dart's `$base$path`, where the sigil follows another name.
  const word = new RegExp(`(?:(?<![\\w$@])|(?<=\\$))[$@]?${name.replace(/[$]/g, "\\$")}\\b`);
  return word.test(value.text) || (value.previousNamedSibling !== null && word.test(fullExpressionText(value)));
}

/** Dart's flat expression a last selector stands for, from its first part. */
function fullExpressionText(last: Node): string {
  let first: Node = last;
  while (first.previousNamedSibling && first.previousNamedSibling.type === "selector")
    first = first.previousNamedSibling;
  if (first.previousNamedSibling && NAME_NODES.has(first.previousNamedSibling.type)) first = first.previousNamedSibling;
  return last.tree.rootNode.text.slice(first.startIndex, last.endIndex);
}

/**
 * The helper call a literal is an argument of, when the helper's value holds
 * it (`$this->endpoint('/run')` returning the base and the path): the URL
 * expression is the call, not the literal alone. A wrapper that sends the
 * request instead of building its URL is worth nothing, and is not climbed.
 */
export function helperCallAround(node: Node, source: TreeSource, values: TreeValues): Node | undefined {
  const argument = argumentOf(node);
  if (!argument) return undefined;
  const reads = values.scope
    .lookup(argument.name, source, undefined)
    .some(
      ({ value }) =>
        typeof value !== "string" &&
        functionNameOf(functionReturning(value)) === argument.name &&
        returnReadsParameter(value, argument.index),
    );
  if (!reads) return undefined;
  const part = values.valueOf(node, source);
  const whole = values.valueOf(argument.call, source);
  const known = (value: string): boolean => value.replaceAll(HOLE, "") !== "";
  return known(whole) && known(part) && whole.includes(part) && whole !== part ? argument.call : undefined;
}
