/**
 * YAML reading for the pnpm scanners: a document whose keys keep their
 * offsets, and one `unreadable-file` finding when it does not parse.
 */
import { type Document, isMap, isScalar, parseDocument } from "yaml";
import type { FindingSink } from "../../scanner-helpers.js";

/** The document, or undefined after reporting the first error. */
export function parseYamlDocument(text: string, sink: FindingSink): Document.Parsed | undefined {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line ?? sink.lines.position(first.pos[0]).line;
    sink.unreadable(first.message, line);
    return undefined;
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    sink.unreadable("expected a mapping at the top level");
    return undefined;
  }
  return doc;
}

export interface YamlEntry {
  key: string;
  value: unknown;
  span: { start: number; end: number };
}

/** The entries of a mapping node, keys as strings (none for other nodes). */
export function entriesOf(node: unknown): YamlEntry[] {
  if (!isMap(node)) return [];
  const out: YamlEntry[] = [];
  for (const pair of node.items) {
    const key = pair.key;
    if (!isScalar(key) || key.value === null || key.value === undefined || !key.range) continue;
    out.push({ key: String(key.value), value: pair.value, span: { start: key.range[0], end: key.range[1] } });
  }
  return out;
}

/** The value under a key of a mapping node. */
export function entryOf(node: unknown, key: string): unknown {
  return entriesOf(node).find((e) => e.key === key)?.value;
}

/** A scalar's value as a string (numbers too: `lockfileVersion: 6.0`). */
export function scalarText(node: unknown): string | undefined {
  if (!isScalar(node) || node.value === null || node.value === undefined) return undefined;
  return typeof node.value === "object" ? undefined : String(node.value);
}
