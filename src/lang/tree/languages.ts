/**
 * Which tree-sitter grammar parses a file, by its name: the one table from
 * file extension to grammar, so that it can join the other per-extension facts.
 */
import { posix } from "node:path";

export type TreeLanguage = "python" | "go" | "php" | "c_sharp" | "ruby" | "java" | "kotlin" | "dart";

const LANGUAGE_BY_EXTENSION: Readonly<Record<string, TreeLanguage>> = {
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".php": "php",
  ".cs": "c_sharp",
  ".rb": "ruby",
  ".rake": "ruby",
  ".java": "java",
  ".kt": "kotlin",
  ".kts": "kotlin",
  ".dart": "dart",
};

export function treeLanguageOf(file: string): TreeLanguage | undefined {
  return LANGUAGE_BY_EXTENSION[posix.extname(file).toLowerCase()];
}

/** The grammar's file in the `tree-sitter-wasms` package. */
export function grammarFileOf(language: TreeLanguage): string {
  return `tree-sitter-wasms/out/tree-sitter-${language}.wasm`;
}
