/**
 * Review markers: `TODO(comfydeploy-migrate): <ruleId>: <what to do>` in the
 * file's own comment syntax, placed once above the exact statement.
 */
import { posix } from "node:path";
import type { RuleId } from "../rules/catalog.js";

export const MARKER_TAG = "TODO(comfydeploy-migrate)";

export function markerText(ruleId: RuleId, advice: string): string {
  return `${MARKER_TAG}: ${ruleId}: ${advice.replace(/\s*\n\s*/g, " ").trim()}`;
}

export interface CommentSyntax {
  line?: string;
  block?: [string, string];
}

const HASH = { line: "#" };
const SLASH = { line: "//", block: ["/*", "*/"] as [string, string] };

/** The comment syntax of a file, or undefined when it has none (JSON). */
export function commentSyntaxFor(file: string): CommentSyntax | undefined {
  const base = posix.basename(file).toLowerCase();
  const ext = posix.extname(base);
  if (base === "dockerfile" || base.startsWith("dockerfile.") || base === "containerfile" || ext === ".dockerfile") return HASH;
  if (base === ".env" || base.startsWith(".env.") || base.endsWith(".env")) return HASH;
  if (base === "gemfile" || base === "pipfile" || base === "makefile" || base === ".gitmodules") return HASH;
  if ([".py", ".sh", ".bash", ".zsh", ".rb", ".yml", ".yaml", ".toml", ".cfg", ".ini", ".properties", ".txt", ".gemspec", ".r"].includes(ext)) {
    return ext === ".ini" || ext === ".cfg" ? { line: ";" } : ext === ".properties" ? HASH : HASH;
  }
  if ([".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".go", ".java", ".kt", ".kts", ".cs", ".rs", ".php", ".swift", ".scala", ".c", ".cpp", ".h"].includes(ext)) {
    return SLASH;
  }
  if ([".md", ".mdx", ".html", ".htm", ".xml", ".vue", ".svelte"].includes(ext)) return { block: ["<!--", "-->"] };
  if ([".sql", ".lua", ".hs"].includes(ext)) return { line: "--" };
  return undefined;
}

export function formatMarker(syntax: CommentSyntax, text: string): string {
  if (syntax.line) return `${syntax.line} ${text}`;
  const [open, close] = syntax.block!;
  return `${open} ${text} ${close}`;
}

/**
 * Inserts a marker line above a 1-based line, with that line's indentation,
 * unless the same marker already stands there. Returns the text unchanged
 * (and false) when the file has no comment syntax or the marker exists.
 */
export function insertMarkerAbove(text: string, line: number, file: string, ruleId: RuleId, advice: string): { text: string; added: boolean } {
  const syntax = commentSyntaxFor(file);
  if (!syntax) return { text, added: false };
  const lines = text.split("\n");
  const index = Math.min(Math.max(line - 1, 0), lines.length - 1);
  const body = markerText(ruleId, advice);
  if (hasMarkerNear(lines, index, ruleId)) return { text, added: false };
  const indent = /^[ \t]*/.exec(lines[index] ?? "")![0];
  lines.splice(index, 0, `${indent}${formatMarker(syntax, body)}`);
  return { text: lines.join("\n"), added: true };
}

/** A marker for the same rule on the line itself or in the comment lines right above it. */
export function hasMarkerNear(lines: readonly string[], index: number, ruleId: RuleId): boolean {
  const needle = `${MARKER_TAG}: ${ruleId}:`;
  if (lines[index]?.includes(needle)) return true;
  for (let i = index - 1; i >= 0 && i >= index - 5; i--) {
    const l = lines[i]!;
    if (l.includes(needle)) return true;
    if (!l.includes(MARKER_TAG)) break;
  }
  return false;
}
