/**
 * What a function's parameter is given by its callers, across the files of
 * the repository: generated clients take their server as a parameter
 * (`NewGetRunRequest(server string, …)`), handed down from the client's
 * field (`c.Server`, set from `NewClient(server)`) and, in the end, from the
 * app's constructor call (`comfy.NewClientWithResponses(*apiBase)` with a
 * flag default, a constant, an env default). Callers in another directory
 * must name the function's package (`comfy.NewClient`), so that two
 * generated packages with the same function names are told apart.
 */
import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { TreeSource } from "./declarations.js";
import { parameterIndex } from "./resolved-paths.js";
import {
  CALL_NODES,
  DECLARATION_NODES,
  FUNCTION_NODES,
  lastName,
  MEMBER_NODES,
  NAME_NODES,
  nameText,
  VALUE_WRAPPERS,
} from "./syntax.js";
import { argumentsOf, calledName, calleeOf, isUnknown, type TreeValues } from "./values.js";

export interface ArgumentValue {
  /** What the caller passes, HOLE where unknown. */
  value: string;
  /** Where it is passed (repository-relative file, 1-based line). */
  file: string;
  line: number;
}

export interface CallerFiles {
  /** The repository's files of the function's language that mention a name, parsed. */
  mentioning(word: string, like: TreeSource): readonly TreeSource[];
  values: TreeValues;
}

/** How many callers up a parameter is followed: request builder → method → field → constructor → wrapper → app. */
const MAX_HOPS = 6;

/** The values the callers of `fn` pass as its parameter `index`, followed up through parameters and fields. */
export function parameterValues(fn: Node, index: number, source: TreeSource, files: CallerFiles): ArgumentValue[] {
  const out: ArgumentValue[] = [];
  const seen = new Set<string>();
  const follow = (fn: Node, index: number, source: TreeSource, hops: number): void => {
    const key = `${source.file}:${fn.startIndex}:${index}`;
    if (hops > MAX_HOPS || seen.has(key)) return;
    seen.add(key);
    const name = functionName(fn);
    if (!name) return;
    const pkg = packageNameOf(source);
    for (const site of files.mentioning(name, source)) {
      for (const call of callsOf(site, name)) {
        if (!callsInto(call, site, source, pkg)) continue;
        const arg = argumentsOf(call)[index];
        if (arg) passed(arg, site, hops);
      }
    }
  };
  const passed = (arg: Node, site: TreeSource, hops: number): void => {
    const value = dereferenced(arg);
    const caller = enclosingFunction(value);
    if (NAME_NODES.has(value.type) && caller) {
      const at = parameterIndex(caller, nameText(value));
      if (at >= 0) return follow(caller, at, site, hops + 1);
    }
    // A field the client was built with (`c.Server`): what its constructors set it from.
    if (MEMBER_NODES.has(value.type)) {
      const field = lastName(value);
      const setters = field ? fieldSetters(site, nameText(field)) : [];
      for (const setter of setters) passed(setter, site, hops + 1);
      if (setters.length > 0) return;
    }
    out.push({
      value: files.values.valueOf(value, site),
      file: site.file,
      line: value.startPosition.row + 1,
    });
  };
  follow(fn, index, source, 0);
  return out;
}

/** The known values among them. */
export function knownValues(values: readonly ArgumentValue[]): ArgumentValue[] {
  return values.filter((v) => !isUnknown(v.value));
}

function functionName(fn: Node): string | undefined {
  const name = fn.childForFieldName("name") ?? fn.namedChildren.find((c) => c !== null && NAME_NODES.has(c.type));
  return name ? nameText(name) : undefined;
}

function enclosingFunction(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) if (FUNCTION_NODES.has(at.type)) return at;
  return undefined;
}

/** `*apiBase`, `&cfg`: the value behind the pointer. */
function dereferenced(node: Node): Node {
  let at = node;
  while (at.type === "unary_expression" && /^[*&]/.test(at.text) && at.namedChild(0)) at = at.namedChild(0)!;
  return at;
}

/** The calls of a file that call `name`. */
function callsOf(site: TreeSource, name: string): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [site.tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (CALL_NODES.has(node.type)) {
      const called = calledName(node);
      if (called && nameText(called) === name) out.push(node);
    }
    for (const child of node.namedChildren) if (child) stack.push(child);
  }
  return out;
}

/** A call in the function's own directory, or one that names its package (`comfy.NewClient(…)`). */
function callsInto(call: Node, site: TreeSource, target: TreeSource, pkg: string): boolean {
  if (posix.dirname(site.file) === posix.dirname(target.file)) return true;
  const callee = calleeOf(call);
  const qualifier = callee && MEMBER_NODES.has(callee.type) ? callee.namedChild(0) : null;
  return qualifier !== null && NAME_NODES.has(qualifier.type) && qualifier.text === pkg;
}

/** Go's `package comfy`; else the directory's name. */
function packageNameOf(source: TreeSource): string {
  const clause = source.tree.rootNode.namedChildren.find((c) => c?.type === "package_clause");
  const name = clause?.namedChild(0)?.text;
  return name ?? posix.basename(posix.dirname(source.file));
}

/** What a field is set from in a file: `Server: server` in a composite literal, `c.Server = server` (not `+=`). */
function fieldSetters(site: TreeSource, field: string): Node[] {
  const out: Node[] = [];
  for (const binding of site.bindings.get(field) ?? []) {
    if (typeof binding.value === "string") continue;
    let holder = binding.value.parent;
    while (holder && VALUE_WRAPPERS.has(holder.type)) holder = holder.parent;
    if (holder && DECLARATION_NODES.has(holder.type) && !isCompound(holder)) out.push(binding.value);
  }
  return out;
}

function isCompound(assignment: Node): boolean {
  return assignment.children.some((c) => c !== null && !c.isNamed && /^[+\-.]=$|^<<=$/.test(c.type));
}
