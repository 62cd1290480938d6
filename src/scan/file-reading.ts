/**
 * Reading repository files as the scanners see them: UTF-8 without a BOM,
 * nothing over the size limit, nothing binary.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { asUtf8 } from "../core/text-encoding.js";
import { posix } from "node:path";
import { looksBinary } from "./needles.js";
import { MAX_FILE_BYTES } from "./prefilter-pass.js";

export function contentDigest(content: Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

export function decode(content: Buffer): string {
  const text = content.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Reads each listed file once, on demand; undefined for files not listed, unreadable, too big or binary. */
export function cachedReader(root: string, fileSet: ReadonlySet<string>): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (!fileSet.has(file)) return undefined;
    if (!cache.has(file)) {
      let text: string | undefined;
      try {
        const bytes = asUtf8(readFileSync(posix.join(root, file)));
        text = bytes.length > MAX_FILE_BYTES || looksBinary(bytes) ? undefined : decode(bytes);
      } catch {
        text = undefined;
      }
      cache.set(file, text);
    }
    return cache.get(file);
  };
}
