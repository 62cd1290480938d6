/**
 * Requests described as data rather than code: Postman and Insomnia exports,
 * HAR files, HTTP actions in CI workflows (a `method` key next to the URL)
 * and OpenAPI documents (`paths: /run: post:`). JSON and YAML files are
 * parsed tolerantly; a file that does not parse simply has no structure.
 */
import { findNodeAtOffset, type Node as JsonNode, parseTree } from "jsonc-parser";
import { isMap, isNode, isPair, isScalar, isSeq, type Node as YamlNode, parseAllDocuments, type YAMLMap } from "yaml";
import type { HttpMethod } from "./http-methods.js";
import type { TextFile } from "../../../lang/text/text-file.js";

/** The request object a URL belongs to. */
export interface RequestObject {
  method?: HttpMethod | undefined;
  /** Offsets of the whole object: its body and query live inside. */
  start: number;
  end: number;
}

/** An operation under an OpenAPI path: `paths: /run: post:`. */
export interface PathOperation {
  /** The path key as written (`/run`, `/api/run`). */
  path: string;
  pathStart: number;
  method: HttpMethod;
  /** Offsets of the method key (`post`). */
  start: number;
  end: number;
}

export interface StructuredRequests {
  requestAt(offset: number): RequestObject | undefined;
  /** Operations under the paths `/run` and `/api/run`. */
  runOperations(): PathOperation[];
}

/** Files over this size are read as text only. */
const MAX_PARSE_CHARS = 2 * 1024 * 1024;
const RUN_PATH = /^(\/api)?\/run\/?$/;

export function structuredRequestsOf(file: TextFile): StructuredRequests | undefined {
  if (file.text.length > MAX_PARSE_CHARS) return undefined;
  try {
    if (file.syntax === "json") return jsonRequests(file.text);
    if (file.syntax === "yaml") return yamlRequests(file.text);
  } catch {
    // The text scan goes on without structure.
  }
  return undefined;
}

function toMethod(value: unknown): HttpMethod | undefined {
  const upper = typeof value === "string" ? value.trim().toUpperCase() : "";
  return upper === "GET" || upper === "POST" ? upper : undefined;
}

function jsonRequests(text: string): StructuredRequests | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return undefined;
  return {
    requestAt(offset) {
      for (let node = findNodeAtOffset(root, offset); node; node = node.parent) {
        if (node.type !== "object") continue;
        const method = (node.children ?? []).find((p) => keyOf(p)?.toLowerCase() === "method");
        if (method)
          return { method: toMethod(method.children?.[1]?.value), start: node.offset, end: node.offset + node.length };
      }
      return undefined;
    },
    runOperations() {
      const paths =
        root.type === "object" ? root.children?.find((p) => keyOf(p) === "paths")?.children?.[1] : undefined;
      const out: PathOperation[] = [];
      for (const item of paths?.type === "object" ? (paths.children ?? []) : []) {
        const path = keyOf(item);
        const value = item.children?.[1];
        if (path === undefined || !RUN_PATH.test(path) || value?.type !== "object") continue;
        for (const op of value.children ?? []) {
          const method = toMethod(keyOf(op));
          const key = op.children?.[0];
          if (method && key)
            out.push({ path, pathStart: item.offset, method, start: key.offset, end: key.offset + key.length });
        }
      }
      return out;
    },
  };
}

function keyOf(property: JsonNode): string | undefined {
  if (property.type !== "property") return undefined;
  const key = property.children?.[0]?.value;
  return typeof key === "string" ? key : undefined;
}

function yamlRequests(text: string): StructuredRequests | undefined {
  const docs = [...parseAllDocuments(text)];
  const roots = docs.map((d) => d.contents).filter((c): c is NonNullable<typeof c> => isNode(c));
  if (roots.length === 0) return undefined;
  return {
    requestAt(offset) {
      for (const root of roots) {
        const maps: YAMLMap[] = [];
        if (!collectMapsAt(root, offset, maps)) continue;
        for (const map of maps.reverse()) {
          const pair = map.items.find((p) => scalarString(p.key)?.toLowerCase() === "method");
          if (pair && map.range)
            return { method: toMethod(scalarString(pair.value)), start: map.range[0], end: map.range[2] };
        }
      }
      return undefined;
    },
    runOperations() {
      const out: PathOperation[] = [];
      for (const root of roots) {
        if (!isMap(root)) continue;
        const paths = root.items.find((p) => scalarString(p.key) === "paths")?.value;
        if (!isMap(paths)) continue;
        for (const item of paths.items) {
          const path = scalarString(item.key);
          if (path === undefined || !RUN_PATH.test(path) || !isMap(item.value) || !isNode(item.key)) continue;
          const pathStart = item.key.range?.[0] ?? 0;
          for (const op of item.value.items) {
            const method = toMethod(scalarString(op.key));
            const range = isNode(op.key) ? op.key.range : undefined;
            if (method && range) out.push({ path, pathStart, method, start: range[0], end: range[1] });
          }
        }
      }
      return out;
    },
  };
}

function scalarString(node: unknown): string | undefined {
  return isScalar(node) && (typeof node.value === "string" || typeof node.value === "number")
    ? String(node.value)
    : undefined;
}

/** The maps enclosing an offset, outermost first; false when the offset is outside this node. */
function collectMapsAt(node: YamlNode, offset: number, maps: YAMLMap[]): boolean {
  const range = node.range;
  if (!range || offset < range[0] || offset >= range[2]) return false;
  if (isMap(node)) {
    maps.push(node);
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      for (const child of [pair.key, pair.value]) if (isNode(child) && collectMapsAt(child, offset, maps)) return true;
    }
    return true;
  }
  if (isSeq(node)) {
    for (const item of node.items) if (isNode(item) && collectMapsAt(item, offset, maps)) return true;
  }
  return true;
}
