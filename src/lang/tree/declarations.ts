/**
 * What a parsed file declares: names bound to values (constants, fields,
 * properties, variables, keyword defaults, Spring `@Value("${key:default}")`
 * defaults) and what its functions and methods return, with the class or
 * object each sits in. `PackageScope` answers a name first from the file,
 * then from the other files of its language that it was given.
 */
import { posix } from "node:path";
import type { Node, Tree } from "web-tree-sitter";
import type { TreeLanguage } from "./languages.js";
import { argumentsOf, type DeclarationScope } from "./values.js";
import {
  DECLARATION_NODES,
  FUNCTION_NODES,
  lastName,
  MEMBER_NODES,
  NAME_NODES,
  nameText,
  VALUE_WRAPPERS,
} from "./syntax.js";

export interface Binding {
  value: Node | string;
  /** A declared value, or what a function returns. */
  kind: "value" | "return";
  /** The class, object or module it is declared in, if any. */
  owner: string | undefined;
}

export class TreeSource {
  readonly bindings = new Map<string, Binding[]>();

  constructor(
    readonly file: string,
    readonly text: string,
    readonly tree: Tree,
    readonly language: TreeLanguage,
  ) {
    this.collect(tree.rootNode);
  }

  private bind(name: string, value: Node | string, at: Node, kind: Binding["kind"] = "value"): void {
    const list = this.bindings.get(name) ?? [];
    list.push({ value, kind, owner: ownerOf(at) });
    this.bindings.set(name, list);
  }

  private collect(root: Node): void {
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (DECLARATION_NODES.has(node.type)) this.collectDeclaration(node);
      else if (node.type === "return_statement" || node.type === "return") this.collectReturn(node);
      else if (node.type === "method" || node.type === "singleton_method") this.collectRubyMethod(node);
      else if (node.type === "formal_parameter" || node.type === "field_declaration") this.collectSettingDefault(node);
      else if (node.type === "function_call_expression") this.collectDefine(node);
      else if (node.type === "function_body" && node.child(0)?.type === "=>") this.collectDartArrow(node);
      for (let i = node.namedChildCount - 1; i >= 0; i--) {
        const child = node.namedChild(i);
        if (child) stack.push(child);
      }
    }
  }

  private collectDeclaration(node: Node): void {
    const nameNode = declaredName(node);
    const value = declaredValue(node, nameNode);
    if (nameNode && value) this.bind(nameText(nameNode), value, node);
  }

  /** `return '…'` inside `function resolveBaseUrl()`: a call of that name with no arguments reads it. */
  private collectReturn(node: Node): void {
    const value = node.namedChildren.find((c) => c !== null && c.type !== "comment");
    const name = functionNameOf(node);
    if (value && name) this.bind(name, value, node, "return");
  }

  /** Ruby returns its last expression: `def base_url = @base_url || "https://…"`. */
  private collectRubyMethod(node: Node): void {
    const name = node.childForFieldName("name");
    const body = node.namedChildren.filter(
      (c): c is Node => c !== null && c.type !== "method_parameters" && c !== name && c.type !== "comment",
    );
    const last = body.at(-1);
    const expression = last?.type === "body_statement" ? last.namedChildren.at(-1) : last;
    if (name && expression) this.bind(nameText(name), expression, node, "return");
  }

  /** Dart's `Uri _uri(String path) => Uri.parse('$_base$path');`: a flat expression stands for its last part. */
  private collectDartArrow(body: Node): void {
    const value = body.namedChildren.filter((c) => c !== null && c.type !== "comment").at(-1);
    const name = value && functionNameOf(value);
    if (value && name) this.bind(name, value, body, "return");
  }

  /** PHP's `define('COMFY_API', 'https://…')`. */
  private collectDefine(node: Node): void {
    if (node.childForFieldName("function")?.text !== "define") return;
    const [name, value] = argumentsOf(node);
    const constant = name && /^["']([A-Za-z_]\w*)["']$/.exec(name.text)?.[1];
    if (constant && value) this.bind(constant, value, node);
  }

  /** Spring's `@Value("${comfydeploy.base-url:https://…}") String baseUrl`: the default after the colon. */
  private collectSettingDefault(node: Node): void {
    const annotation = /@Value\(\s*"\$\{[^:}"]+:([^}"]*)\}"\s*\)/.exec(node.text);
    if (!annotation) return;
    const declarator = node.namedChildren.find((c) => c?.type === "variable_declarator");
    const nameNode = node.childForFieldName("name") ?? declarator?.childForFieldName("name") ?? null;
    if (nameNode) this.bind(nameText(nameNode), annotation[1]!, node);
  }
}

/** The name a declaration binds: by field, or the first name among its children. */
function declaredName(node: Node): Node | undefined {
  const field = node.childForFieldName("name") ?? node.childForFieldName("left");
  const candidates = field ? [field] : node.namedChildren.filter((c): c is Node => c !== null);
  for (const candidate of candidates) {
    if (NAME_NODES.has(candidate.type)) return candidate;
    // Map and hash keys: `base_url:` (Ruby), `'base_url' =>` (PHP), `"base_url":` (Python); a label (Dart).
    if (/^(?:hash_key_symbol|simple_symbol|label|field_identifier)$/.test(candidate.type))
      return findName(candidate) ?? candidate;
    if (STRING_KEY.test(candidate.type) && /^["']\w+["']$/.test(candidate.text)) return candidate;
    if (
      candidate.type === "variable_declaration" ||
      candidate.type === "expression_list" ||
      candidate.type === "pattern_list" ||
      candidate.type === "literal_element"
    ) {
      return declaredName(candidate);
    }
    if (MEMBER_NODES.has(candidate.type)) return lastName(candidate);
    if (field) return undefined;
  }
  return undefined;
}

const STRING_KEY = /^(?:string|string_literal|encapsed_string|interpreted_string_literal)$/;

/** The value a declaration binds: by field, or its last child after the name. */
function declaredValue(node: Node, name: Node | undefined): Node | undefined {
  let value = node.childForFieldName("value") ?? node.childForFieldName("right") ?? undefined;
  if (!value) {
    const last = node.namedChildren.at(-1);
    if (
      !last ||
      last === name ||
      (name && last.endIndex <= name.endIndex) ||
      /type|modifier|accessor|annotation/.test(last.type)
    )
      return undefined;
    value = last;
  }
  while (VALUE_WRAPPERS.has(value.type) && value.namedChildCount > 0) value = value.namedChild(0)!;
  return value;
}

/** The name of the function or method a node sits in. */
function functionNameOf(node: Node): string | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (FUNCTION_NODES.has(at.type)) {
      const name = at.childForFieldName("name") ?? at.namedChildren.find((c) => c !== null && NAME_NODES.has(c.type));
      return name ? nameText(name) : undefined;
    }
    // Dart puts a method's body beside its signature.
    if (at.type === "function_body") {
      const signature = at.previousNamedSibling;
      const name = signature && findName(signature);
      return name ? nameText(name) : undefined;
    }
    if (/lambda|closure|anonymous|arrow_function/.test(at.type)) return undefined;
  }
  return undefined;
}

function findName(node: Node): Node | undefined {
  if (NAME_NODES.has(node.type)) return node;
  for (const child of node.namedChildren) {
    const found = child && findName(child);
    if (found) return found;
  }
  return undefined;
}

/** The class, object, interface or module a node is declared in. */
export function ownerOf(node: Node): string | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (
      /class|object_declaration|interface|module|struct|enum_declaration|trait/.test(at.type) &&
      !/body|list/.test(at.type)
    ) {
      const name =
        at.childForFieldName("name") ??
        at.namedChildren.find((c) => c !== null && (NAME_NODES.has(c.type) || c.type === "type_identifier"));
      if (name) return nameText(name);
    }
  }
  return undefined;
}

/**
 * A file's declarations, then its package's: the other parsed files of the
 * same language. A qualifier (`ApiConstants.X`, `Consts::X`) prefers the
 * files whose class or file name it is; the same directory comes before the
 * rest of the repository.
 */
export class PackageScope implements DeclarationScope {
  constructor(private readonly peers: (source: TreeSource) => readonly TreeSource[]) {}

  lookup(
    name: string,
    from: TreeSource,
    qualifier: string | undefined,
  ): Array<{ source: TreeSource; value: Node | string }> {
    const own = (from.bindings.get(name) ?? []).filter(
      (b) => qualifier === undefined || b.owner === qualifier || !isTypeName(qualifier),
    );
    const out = own.map((b) => ({ source: from, value: b.value }));
    const others = this.peers(from)
      .filter((peer) => peer !== from && peer.bindings.has(name))
      .map((peer) => ({ peer, rank: rankOf(peer, from, qualifier, name) }))
      .filter(({ rank }) => rank >= 0)
      .sort((a, b) => b.rank - a.rank);
    for (const { peer } of others) {
      for (const b of peer.bindings.get(name)!)
        if (
          qualifier === undefined ||
          !isTypeName(qualifier) ||
          b.owner === qualifier ||
          fileStem(peer.file) === qualifier
        )
          out.push({ source: peer, value: b.value });
    }
    return out;
  }
}

/** `ApiConstants`, `Consts`: a class name, not a variable (`cfg`, `_options`, `self`). */
function isTypeName(qualifier: string): boolean {
  return /^[A-Z]/.test(qualifier);
}

function fileStem(file: string): string {
  return posix.basename(file).replace(/\.[^.]+$/, "");
}

/** How near a peer file is: the qualifier's own file first, then the same directory, then the same tree; -1 when a qualifier rules it out. */
function rankOf(peer: TreeSource, from: TreeSource, qualifier: string | undefined, name: string): number {
  if (qualifier && isTypeName(qualifier)) {
    const owns =
      fileStem(peer.file) === qualifier || (peer.bindings.get(name) ?? []).some((b) => b.owner === qualifier);
    return owns ? 1000 : -1;
  }
  const a = posix.dirname(peer.file).split("/");
  const b = posix.dirname(from.file).split("/");
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return shared;
}
