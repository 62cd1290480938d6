/**
 * String values on tree-sitter trees, for every grammar in `languages.ts`:
 * what a URL expression evaluates to, through constants, class members and
 * fields, methods that return a value (`resolveBaseUrl()`), settings and env
 * reads with a default, interpolation, format calls and concatenation, within
 * a file and across the files of its package. Parts that cannot be known
 * statically are the HOLE character, as in `core/urls.ts`.
 */
import type { Node } from "web-tree-sitter";
import { HOLE } from "../../core/urls.js";
import { dartCallOf, dartDefaultOf, dartKeepsPath, dartParsedString } from "./dart-calls.js";
import type { TreeSource } from "./declarations.js";
import { functionNameOf, functionReturning, parameterNames } from "./helper-calls.js";
import { laravelConfigValue } from "./laravel-config.js";
import { composeUrl, isUrlPart, urlPartsOf } from "./url-parts.js";
import {
  ARGUMENT_LIST_NODES,
  CALL_NODES,
  CONCAT_OPERATORS,
  FALLBACK_OPERATORS,
  FORMAT_FUNCTIONS,
  INTERPOLATION_NODES,
  lastName,
  MEMBER_NODES,
  NAME_NODES,
  nameText,
  PATH_JOIN_METHODS,
  SETTING_READS,
  STRING_KEEPING_METHODS,
  STRING_NODES,
  STRING_TEXT_NODES,
  VALUE_WRAPPERS,
} from "./syntax.js";

/** How deep a value may be followed through names: enough for base → url → request, and a stop for cycles. */
const MAX_DEPTH = 10;

/** Where the resolver finds the declarations of a name it meets in a file: that file, then its package. */
export interface DeclarationScope {
  /** Values bound to `name`, nearest first (this file, then its package); `qualifier` is the class or object named before it. */
  lookup(
    name: string,
    from: TreeSource,
    qualifier: string | undefined,
  ): Array<{ source: TreeSource; value: Node | string }>;
}

const BINARY = /binary|additive|concat/;
/** What opens and closes an interpolation; Kotlin writes `$name` as a `$` token before the name. */
const INTERPOLATION_BRACES = new Set(["{", "}", "${", "#{", "$"]);
const OPENING_QUOTE = /^[A-Za-z]{0,2}[@$]{0,2}(?:"""|'''|"|'|`)/;
const CLOSING_QUOTE = /(?:"""|'''|"|'|`)$/;

/** A helper function being evaluated: its parameters bound to the call's argument values. */
interface Frame {
  source: TreeSource;
  start: number;
  end: number;
  parameters: ReadonlyMap<string, string>;
}

export class TreeValues {
  private readonly active = new Set<Node | string>();
  private readonly frames: Frame[] = [];

  constructor(readonly scope: DeclarationScope) {}

  /** The string an expression evaluates to, HOLE where unknown. */
  valueOf(node: Node, source: TreeSource, depth = 0): string {
    if (depth > MAX_DEPTH) return HOLE;
    const parts = urlPartsOf(node);
    if (parts) return composeUrl(parts, (part) => this.valueOf(part, source, depth + 1));
    const type = node.type;
    if (type === "concatenated_string")
      return node.namedChildren.map((c) => (c ? this.valueOf(c, source, depth + 1) : HOLE)).join("");
    if (STRING_NODES.has(type)) return this.stringValue(node, source, depth);
    if (NAME_NODES.has(type)) return this.nameValue(nameText(node), node, source, undefined, depth);
    if (MEMBER_NODES.has(type)) return this.memberValue(node, source, depth);
    if (CALL_NODES.has(type)) return this.callValue(node, source, depth);
    if (VALUE_WRAPPERS.has(type) || type === "arrow_expression_clause" || INTERPOLATION_NODES.has(type))
      return this.innerValue(node, source, depth);
    const operator = node.children.find(
      (c) => c && !c.isNamed && (CONCAT_OPERATORS.has(c.type) || FALLBACK_OPERATORS.has(c.type)),
    );
    if (operator && FALLBACK_OPERATORS.has(operator.type)) return this.fallbackValue(node, operator, source, depth);
    if (operator && BINARY.test(type)) {
      return node.namedChildren
        .filter((c) => c && c.type !== "additive_operator")
        .map((c) => this.valueOf(c!, source, depth + 1))
        .join("");
    }
    // Dart writes member reads and calls flat: `cfg.base` is an identifier followed by selectors.
    if (node.namedChildCount > 1 && node.namedChild(1)?.type === "selector") {
      const last = node.namedChildren.at(-1);
      if (last && dartCallOf(last)) return this.dartCallValue(last, source, depth);
      return this.memberValue(node, source, depth);
    }
    if (type === "selector" && dartCallOf(node)) return this.dartCallValue(node, source, depth);
    // …so a declaration binds the last selector (`final _run = Endpoints.run` binds `.run`, after `Endpoints`).
    if (type === "selector") return this.selectorValue(node, source, depth);
    return HOLE;
  }

  /** A name's value: its declarations in the file, then in the package; unknown when they disagree. */
  nameValue(name: string, at: Node, source: TreeSource, qualifier: string | undefined, depth: number): string {
    if (qualifier === undefined) {
      const bound = this.parameterValue(name, at, source);
      if (bound !== undefined) return bound;
    }
    const values = new Set<string>();
    for (const { source: where, value } of this.scope.lookup(name, source, qualifier)) {
      if (
        typeof value !== "string" &&
        value.startIndex <= at.startIndex &&
        at.endIndex <= value.endIndex &&
        where === source
      )
        continue;
      if (this.active.has(value) || (typeof value !== "string" && isUrlPart(value))) continue;
      this.active.add(value);
      try {
        values.add(typeof value === "string" ? value : this.valueOf(value, where, depth + 1));
      } finally {
        this.active.delete(value);
      }
      if (values.size > 0 && !isUnknown([...values][0]!)) break;
    }
    const known = [...values].filter((v) => !isUnknown(v));
    return known[0] ?? HOLE;
  }

  private stringValue(node: Node, source: TreeSource, depth: number): string {
    const text = source.text;
    let out = "";
    let cursor = node.startIndex;
    for (const child of node.children) {
      if (!child) continue;
      // Some grammars leave the written text out of the tree: it is the gap between children.
      out += text.slice(cursor, child.startIndex);
      cursor = child.endIndex;
      // `{$x}` in PHP, `${x}` elsewhere, Kotlin's `$x`: the braces and sigil belong to the interpolation, not to the text.
      if (!child.isNamed && INTERPOLATION_BRACES.has(child.type)) continue;
      // Kotlin's `$name`: the sigil is a token of its own before the name it interpolates.
      if (
        !child.isNamed &&
        child.type === "$" &&
        child.nextSibling?.isNamed === true &&
        !STRING_TEXT_NODES.has(child.nextSibling.type)
      )
        continue;
      if (!child.isNamed || STRING_TEXT_NODES.has(child.type)) out += child.text;
      else out += this.valueOf(child, source, depth + 1);
    }
    out += text.slice(cursor, node.endIndex);
    return out.replace(OPENING_QUOTE, "").replace(CLOSING_QUOTE, "");
  }

  private innerValue(node: Node, source: TreeSource, depth: number): string {
    const named = node.namedChildren.filter((c): c is Node => c !== null && !STRING_TEXT_NODES.has(c.type));
    if (named.length === 0) return HOLE;
    // `${cfg.base}` in Dart: a name and its selectors.
    if (named.length > 1 && named[1]!.type === "selector") return this.memberValue(node, source, depth);
    return this.valueOf(named[0]!, source, depth + 1);
  }

  private memberValue(node: Node, source: TreeSource, depth: number): string {
    const last = lastName(node);
    if (!last) return HOLE;
    const first = node.namedChild(0);
    const qualifier = first && first !== last && NAME_NODES.has(first.type) ? nameText(first) : undefined;
    return this.nameValue(nameText(last), node, source, qualifier, depth);
  }

  private selectorValue(node: Node, source: TreeSource, depth: number): string {
    const last = lastName(node);
    if (!last) return HOLE;
    const before = node.previousNamedSibling;
    const qualifier = before && NAME_NODES.has(before.type) ? nameText(before) : undefined;
    return this.nameValue(nameText(last), node, source, qualifier, depth);
  }

  /** `getenv("X") ?? "…"`: the default is what the code ships with. */
  private fallbackValue(node: Node, operator: Node, source: TreeSource, depth: number): string {
    const named = node.namedChildren.filter((c): c is Node => c !== null);
    const left = named.filter((c) => c.endIndex <= operator.startIndex);
    const right = named.filter((c) => c.startIndex >= operator.endIndex);
    const fallback = right.at(-1);
    const primary = left.length === 1 ? this.valueOf(left[0]!, source, depth + 1) : HOLE;
    if (!isUnknown(primary)) return primary;
    return fallback ? this.valueOf(fallback, source, depth + 1) : HOLE;
  }

  private callValue(node: Node, source: TreeSource, depth: number): string {
    const callee = calleeOf(node);
    const nameNode = calledName(node);
    if (!callee || !nameNode) return HOLE;
    const name = nameText(nameNode);
    const receiver =
      node.childForFieldName("object") ??
      node.childForFieldName("receiver") ??
      (callee !== nameNode && MEMBER_NODES.has(callee.type) ? callee.namedChild(0) : null);
    const args = argumentsOf(node);
    const flagDefault = FLAG_DEFAULTS[name];
    if (flagDefault !== undefined && receiver && FLAG_RECEIVERS.test(receiver.text) && args.length === flagDefault + 2)
      return this.valueOf(args[flagDefault]!, source, depth + 1);
    if (STRING_KEEPING_METHODS.has(name) && receiver) return this.valueOf(receiver, source, depth + 1);
    // PHP's `untrailingslashit($base)`, `rtrim($base, '/')`, Python's `str(base)`: the same functions called on nothing.
    if (STRING_KEEPING_METHODS.has(name) && !receiver && args.length >= 1 && args.length <= 2)
      return this.valueOf(args[0]!, source, depth + 1);
    if (FORMAT_FUNCTIONS.has(name)) {
      const [template, ...rest] = receiver && STRING_NODES.has(receiver.type) ? [receiver, ...args] : args;
      if (!template) return HOLE;
      return formatWith(
        this.valueOf(template, source, depth + 1),
        rest.map((a) => this.valueOf(a, source, depth + 1)),
      );
    }
    if (PATH_JOIN_METHODS.has(name)) {
      const parts = args.map((a) => this.valueOf(a, source, depth + 1));
      const onType =
        receiver !== null &&
        NAME_NODES.has(receiver.type) &&
        PATH_JOIN_TYPES.test(nameText(receiver)) &&
        args.length >= 2;
      return joinPath(receiver && !onType ? [this.valueOf(receiver, source, depth + 1), ...parts] : parts);
    }
    if (SETTING_READS.test(name) && args.length >= 2) return this.valueOf(args.at(-1)!, source, depth + 1);
    if (name === "config" && !receiver && args.length === 1 && STRING_NODES.has(args[0]!.type)) {
      const found = laravelConfigValue(this.valueOf(args[0]!, source, depth + 1), source, this.scope);
      if (found) return this.valueOf(found.value, found.source, depth + 1);
    }
    const qualifier = receiver && NAME_NODES.has(receiver.type) ? nameText(receiver) : undefined;
    if (args.length === 0) return this.nameValue(name, node, source, qualifier, depth);
    return this.helperValue(name, args, source, qualifier, depth);
  }

  /** Dart's flat call: `String.fromEnvironment('X', defaultValue: …)`, `Uri.parse(s)`, `_uri('/run')`. */
  private dartCallValue(selector: Node, source: TreeSource, depth: number): string {
    const call = dartCallOf(selector)!;
    const inner = dartDefaultOf(call) ?? dartParsedString(call);
    if (inner) return this.valueOf(inner, source, depth + 1);
    const name = nameText(call.name);
    if (call.receiver && (dartKeepsPath(call) || STRING_KEEPING_METHODS.has(name)))
      return this.valueOf(call.receiver, source, depth + 1);
    const qualifier = call.receiver && NAME_NODES.has(call.receiver.type) ? nameText(call.receiver) : undefined;
    if (call.args.length === 0 && call.named.size === 0)
      return this.nameValue(name, selector, source, qualifier, depth);
    return this.helperValue(name, call.args, source, qualifier, depth);
  }

  /**
   * A call of a function that builds its value from its parameters
   * (`endpoint('/run')` with `return $this->base . $path`): what it returns,
   * with the parameters bound to the arguments' values.
   */
  private helperValue(
    name: string,
    args: Node[],
    source: TreeSource,
    qualifier: string | undefined,
    depth: number,
  ): string {
    if (depth > MAX_DEPTH) return HOLE;
    for (const { source: where, value } of this.scope.lookup(name, source, qualifier)) {
      if (typeof value === "string" || this.active.has(value)) continue;
      const fn = functionReturning(value);
      if (!fn || functionNameOf(fn) !== name) continue;
      const names = parameterNames(fn);
      if (names.length === 0) continue;
      const parameters = new Map<string, string>();
      names.forEach((parameter, i) => {
        parameters.set(parameter, args[i] ? this.valueOf(args[i]!, source, depth + 1) : HOLE);
      });
      this.active.add(value);
      this.frames.push({ source: where, start: fn.startIndex, end: value.endIndex, parameters });
      try {
        const result = this.valueOf(value, where, depth + 1);
        if (!isUnknown(result)) return result;
      } finally {
        this.frames.pop();
        this.active.delete(value);
      }
    }
    return HOLE;
  }

  /** The value a parameter of the helper being evaluated was called with. */
  private parameterValue(name: string, at: Node, source: TreeSource): string | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!;
      if (frame.source === source && frame.start <= at.startIndex && at.endIndex <= frame.end)
        return frame.parameters.get(name);
    }
    return undefined;
  }
}

/**
 * Go's command-line flags, by the index of their default: `flag.String(name, value, usage)`,
 * pflag's `StringP(name, shorthand, value, usage)`.
 */
const FLAG_DEFAULTS: Readonly<Record<string, number>> = { String: 1, StringP: 2 };
/** What flags are defined on: the flag package, pflag, a flag set, a command's flags. */
const FLAG_RECEIVERS = /^(?:flag|pflag|\w*(?:[Ff]lags?|FlagSet|fs)(?:\(\))?|\w+\.(?:Persistent)?Flags\(\))$/;

/** A value with nothing known in it. */
export function isUnknown(value: string): boolean {
  return value.replaceAll(HOLE, "") === "";
}

/** What a call calls: the function or member expression before its arguments. */
export function calleeOf(call: Node): Node | null {
  return (
    call.childForFieldName("function") ??
    call.childForFieldName("name") ??
    call.childForFieldName("method") ??
    call.namedChild(0)
  );
}

/** The name a call calls: `format` in `String.format(…)`, `get` in `router.get(…)`. */
export function calledName(call: Node): Node | undefined {
  const callee = calleeOf(call);
  return call.childForFieldName("name") ?? call.childForFieldName("method") ?? (callee ? lastName(callee) : undefined);
}

/** A call's arguments, without their wrappers (`argument`, `value_argument`, `name=`). */
export function argumentsOf(call: Node): Node[] {
  const list =
    call.childForFieldName("arguments") ??
    call.namedChildren.find((c) => c !== null && ARGUMENT_LIST_NODES.has(c.type)) ??
    null;
  if (!list) return [];
  const out: Node[] = [];
  const collect = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (!child || child.type === "comment") continue;
      if (child.type === "value_arguments" || child.type === "annotated_lambda") collect(child);
      else if (child.type === "keyword_argument" || child.type === "named_argument")
        out.push(child.childForFieldName("value") ?? child.namedChildren.at(-1) ?? child);
      else if (child.type === "argument" || child.type === "value_argument")
        out.push(child.namedChildren.at(-1) ?? child);
      else out.push(child);
    }
  };
  collect(list);
  return out;
}

/** The format or string-keeping call a node is an argument or receiver of: the call its string value flows through. */
export function stringCallAround(node: Node): Node | undefined {
  let at: Node | null = node.parent;
  for (let hops = 0; at && hops < 4 && !CALL_NODES.has(at.type); hops++) {
    if (
      !ARGUMENT_LIST_NODES.has(at.type) &&
      at.type !== "argument" &&
      at.type !== "value_argument" &&
      !/member_access|attribute|navigation|selector/.test(at.type)
    )
      return undefined;
    at = at.parent;
  }
  if (!at || !CALL_NODES.has(at.type)) return undefined;
  const name = calledName(at);
  if (!name) return undefined;
  const method = nameText(name);
  if (FORMAT_FUNCTIONS.has(method) || PATH_JOIN_METHODS.has(method)) return at;
  if (STRING_KEEPING_METHODS.has(method) && argumentsOf(at).every((a) => !isWithin(node, a))) return at;
  return undefined;
}

function isWithin(node: Node, container: Node): boolean {
  return container.startIndex <= node.startIndex && node.endIndex <= container.endIndex;
}

/** Types and packages whose join call joins its arguments: `Url.Combine(base, "run")`, Go's `url.JoinPath(base, "run")`. */
const PATH_JOIN_TYPES = /^(?:url|Url|URL|path|Path)$/;

/** Path parts joined by one slash each. */
function joinPath(parts: string[]): string {
  return parts.reduce(
    (left, right) => (left === "" ? right : `${left.replace(/\/+$/, "")}/${right.replace(/^\/+/, "")}`),
    "",
  );
}

/** `%s`, `%v`, `{}`, `{0}` and `{name}` placeholders filled in order. */
function formatWith(template: string, args: string[]): string {
  let next = 0;
  return template.replace(/%[-+ 0#]*\d*(?:\.\d+)?[sdvqf]|\{[\w.]*(?::[^}]*)?\}/g, () => args[next++] ?? HOLE);
}
