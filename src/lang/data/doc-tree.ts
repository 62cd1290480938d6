/**
 * One tree shape for JSON (jsonc-parser) and YAML (yaml) documents, with
 * file offsets on every node, so structural checks are written once.
 */
import type { Node as JsonNode } from "jsonc-parser";
import { isAlias, isMap, isScalar, isSeq, type Node as YamlNode, Scalar } from "yaml";

export type TreeNode = TreeObject | TreeArray | TreeScalar;

interface Located {
  /** File offsets; for strings they include the quotes. */
  start: number;
  end: number;
}

export interface TreeObject extends Located {
  kind: "object";
  entries: TreeEntry[];
}

export interface TreeEntry {
  key: string;
  keyNode: TreeScalar;
  value: TreeNode;
}

export interface TreeArray extends Located {
  kind: "array";
  items: TreeNode[];
}

export interface TreeScalar extends Located {
  kind: "scalar";
  value: unknown;
  /** YAML block scalars (`|`, `>`) hold text whose lines are indented in the file. */
  block?: boolean;
}

export function fromJson(node: JsonNode): TreeNode {
  const located = { start: node.offset, end: node.offset + node.length };
  if (node.type === "object") {
    const entries: TreeEntry[] = [];
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || !value || typeof key.value !== "string") continue;
      entries.push({ key: key.value, keyNode: fromJson(key) as TreeScalar, value: fromJson(value) });
    }
    return { kind: "object", ...located, entries };
  }
  if (node.type === "array") return { kind: "array", ...located, items: (node.children ?? []).map(fromJson) };
  return { kind: "scalar", ...located, value: node.value };
}

/** Undefined for empty nodes and aliases (a pin is written once, at its anchor). */
export function fromYaml(node: unknown): TreeNode | undefined {
  if (!node || isAlias(node)) return undefined;
  const yamlNode = node as YamlNode;
  const [start, end] = yamlNode.range ?? [0, 0];
  if (isMap(yamlNode)) {
    const entries: TreeEntry[] = [];
    for (const pair of yamlNode.items) {
      const key = fromYaml(pair.key);
      const value = fromYaml(pair.value);
      if (key?.kind !== "scalar" || value === undefined) continue;
      entries.push({ key: String(key.value), keyNode: key, value });
    }
    return { kind: "object", start, end, entries };
  }
  if (isSeq(yamlNode)) {
    const items = yamlNode.items.map(fromYaml).filter((n): n is TreeNode => n !== undefined);
    return { kind: "array", start, end, items };
  }
  if (isScalar(yamlNode)) {
    const block = yamlNode.type === Scalar.BLOCK_LITERAL || yamlNode.type === Scalar.BLOCK_FOLDED;
    return { kind: "scalar", start, end, value: yamlNode.value, ...(block ? { block } : {}) };
  }
  return undefined;
}

export function member(node: TreeNode | undefined, key: string): TreeNode | undefined {
  return node?.kind === "object" ? node.entries.find((e) => e.key === key)?.value : undefined;
}

export function stringOf(node: TreeNode | undefined): string | undefined {
  if (node?.kind !== "scalar") return undefined;
  if (typeof node.value === "string") return node.value;
  return typeof node.value === "number" ? String(node.value) : undefined;
}

/** File offsets of `part` inside a scalar as written (the whole scalar when not found, e.g. after escapes). */
export function spanIn(source: string, node: TreeNode, part?: string): { start: number; end: number } {
  if (part) {
    const index = source.slice(node.start, node.end).indexOf(part);
    if (index >= 0) return { start: node.start + index, end: node.start + index + part.length };
  }
  return { start: node.start, end: node.end };
}

/** Every node, parents before children, without recursion (workflow JSON can be deep). */
export function* walk(root: TreeNode): Generator<TreeNode> {
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    if (node.kind === "object") for (let i = node.entries.length - 1; i >= 0; i--) stack.push(node.entries[i]!.value);
    else if (node.kind === "array") for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]!);
  }
}
