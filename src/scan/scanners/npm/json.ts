/**
 * JSON reading for the npm scanners: a syntax tree with offsets (so findings
 * land on the exact key), and one `unreadable-file` finding when it does not parse.
 */
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { FindingSink } from "../../scanner-helpers.js";

export interface JsonDialect {
  /** package.json and npm lockfiles are strict JSON; bun.lock allows trailing commas and comments. */
  lenient: boolean;
}

/** The root node, or undefined after reporting the first syntax error. */
export function parseJsonTree(text: string, sink: FindingSink, dialect: JsonDialect): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    allowTrailingComma: dialect.lenient,
    disallowComments: !dialect.lenient,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first) {
    const { line, column } = sink.lines.position(first.offset);
    sink.unreadable(`${printParseErrorCode(first.error)} at line ${line}, column ${column}`, line);
    return undefined;
  }
  if (root?.type !== "object") {
    sink.unreadable("expected a JSON object at the top level");
    return undefined;
  }
  return root;
}

export interface JsonProperty {
  key: string;
  keyNode: Node;
  value: Node;
}

/** The properties of an object node (none for other nodes). */
export function propertiesOf(node: Node | undefined): JsonProperty[] {
  if (node?.type !== "object") return [];
  const out: JsonProperty[] = [];
  for (const property of node.children ?? []) {
    const [keyNode, value] = property.children ?? [];
    if (keyNode && value && typeof keyNode.value === "string") out.push({ key: keyNode.value, keyNode, value });
  }
  return out;
}

/** The value of a property of an object node. */
export function propertyOf(node: Node | undefined, key: string): Node | undefined {
  return propertiesOf(node).find((p) => p.key === key)?.value;
}

export function stringOf(node: Node | undefined): string | undefined {
  return node?.type === "string" && typeof node.value === "string" ? node.value : undefined;
}

/** Offsets covering `"key": value` for a finding. */
export function spanOf(property: JsonProperty): { start: number; end: number } {
  const { keyNode, value } = property;
  // An object or array value spans many lines: the key alone locates it.
  const compound = value.type === "object" || value.type === "array";
  return { start: keyNode.offset, end: compound ? keyNode.offset + keyNode.length : value.offset + value.length };
}
