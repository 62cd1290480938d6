/** How a file is scanned, decided by its name. */
import { posix } from "node:path";

export type FileKind = "js" | "docs" | "env" | "text";

const JS_EXTENSIONS = new Set([".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"]);
const DOC_EXTENSIONS = new Set([".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc", ".html", ".htm"]);

export function isJsFile(file: string): boolean {
  return JS_EXTENSIONS.has(posix.extname(file).toLowerCase());
}

export function fileKind(file: string): FileKind {
  if (isJsFile(file)) return "js";
  const base = posix.basename(file).toLowerCase();
  if (base === ".env" || base.startsWith(".env.") || base.endsWith(".env")) return "env";
  if (DOC_EXTENSIONS.has(posix.extname(base))) return "docs";
  return "text";
}
