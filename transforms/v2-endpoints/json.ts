/**
 * JSON files (Postman and Insomnia collections, environments, HAR): URLs are
 * edited inside string values only, and a Postman `url` object's parsed
 * parts (`host`, `path`, `query` arrays, which Postman sends instead of
 * `raw`) are kept in line with its `raw` string. JSON has no comments, so
 * nothing here leaves a marker.
 */
import { findNodeAtOffset, type Node as JsonNode, parseTree } from "jsonc-parser";
import { HOSTS } from "../../src/knowledge/migration.js";
import { QUEUE_SUFFIX, type TextEdit } from "./urls.js";
import { RUN_ID_KEY } from "../../src/core/run-path.js";
import type { Segment } from "./segments.js";

export class JsonUrls {
  private readonly root: JsonNode | undefined;

  constructor(private readonly text: string) {
    this.root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  }

  /** The string value holding an offset, from the offset to its closing quote. */
  segmentAt(offset: number): Segment | undefined {
    const node = this.root && findNodeAtOffset(this.root, offset);
    if (node?.type !== "string" || offset <= node.offset || offset >= node.offset + node.length - 1) return undefined;
    return { start: offset, end: node.offset + node.length - 1, quote: '"' };
  }

  /** The enclosing object of a request (one with a `method`), as text, where its body would be. */
  requestText(offset: number): string | undefined {
    for (let node = this.root && findNodeAtOffset(this.root, offset); node; node = node.parent) {
      if (node.type === "object" && this.property(node, "method"))
        return this.text.slice(node.offset, node.offset + node.length);
    }
    return undefined;
  }

  /** `host: ["www", "comfydeploy", "com"]` next to a rewritten `raw`: the first label becomes the V2 host's. */
  hostPartEdits(offset: number): TextEdit[] {
    const host = this.sibling(offset, "host");
    if (host?.type !== "array") return [];
    const labels = (host.children ?? []).map((c) => (c.type === "string" ? String(c.value) : ""));
    if (labels.join(".").toLowerCase() !== HOSTS.v1.host) return [];
    const v2 = HOSTS.v2.host.split(".");
    const v1 = HOSTS.v1.host.split(".");
    if (v2.length !== v1.length) return [];
    return (host.children ?? []).flatMap((label, i) => (v1[i] === v2[i] ? [] : [this.replaceString(label, v2[i]!)]));
  }

  /** `path: [..., "run"]` -> `[..., "run", "deployment", "queue"]`. */
  createPathEdits(offset: number): TextEdit[] {
    const path = this.runPathArray(offset);
    if (!path) return [];
    return [
      this.append(
        path,
        QUEUE_SUFFIX.split("/")
          .filter(Boolean)
          .map((s) => JSON.stringify(s)),
      ),
    ];
  }

  /** `path: [..., "run"]` gains the run_id value, and the run_id entry leaves `query`. */
  getPathEdits(offset: number): TextEdit[] {
    const path = this.runPathArray(offset);
    const query = this.sibling(offset, "query");
    if (!path || query?.type !== "array") return [];
    const items = query.children ?? [];
    const index = items.findIndex((item) => item.type === "object" && this.property(item, "key")?.value === RUN_ID_KEY);
    const value = index < 0 ? undefined : this.property(items[index]!, "value");
    if (value?.type !== "string") return [];
    const edits = [this.append(path, [this.text.slice(value.offset, value.offset + value.length)])];
    if (items.length === 1) edits.push({ start: query.offset, end: query.offset + query.length, text: "[]" });
    else if (index === 0) edits.push({ start: items[0]!.offset, end: items[1]!.offset, text: "" });
    else
      edits.push({
        start: items[index - 1]!.offset + items[index - 1]!.length,
        end: items[index]!.offset + items[index]!.length,
        text: "",
      });
    return edits;
  }

  private runPathArray(offset: number): JsonNode | undefined {
    const path = this.sibling(offset, "path");
    const last = path?.type === "array" ? path.children?.[path.children.length - 1] : undefined;
    return last?.type === "string" && last.value === "run" ? path : undefined;
  }

  /** Inserts items after an array's last one, with the separator its items already use. */
  private append(array: JsonNode, items: string[]): TextEdit {
    const children = array.children ?? [];
    const last = children[children.length - 1]!;
    const previous = children[children.length - 2];
    const separator = previous ? this.text.slice(previous.offset + previous.length, last.offset) : ", ";
    const at = last.offset + last.length;
    return { start: at, end: at, text: items.map((item) => `${separator}${item}`).join("") };
  }

  /** A property of the object holding the string at `offset`, when that string is a `raw` URL. */
  private sibling(offset: number, name: string): JsonNode | undefined {
    const node = this.root && findNodeAtOffset(this.root, offset);
    const property = node?.parent;
    if (property?.type !== "property" || property.children?.[0]?.value !== "raw") return undefined;
    const object = property.parent;
    return object ? this.property(object, name) : undefined;
  }

  private property(object: JsonNode, name: string): JsonNode | undefined {
    const prop = (object.children ?? []).find((p) => p.type === "property" && p.children?.[0]?.value === name);
    return prop?.children?.[1];
  }

  private replaceString(node: JsonNode, value: string): TextEdit {
    return { start: node.offset, end: node.offset + node.length, text: JSON.stringify(value) };
  }
}
