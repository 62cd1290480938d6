/**
 * Module syntax read from JS/TS text without a parser: which modules a file
 * imports, and whether it passes another module's exports on. Byte-level
 * tests that decide whether a module is worth parsing.
 */
const IMPORT_SPECIFIER = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)["']([^"'\n]{1,300})["']/g;

const REEXPORTS = [
  /\bexport\s*(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']/,
  /\b(?:module\.exports|exports\.[\w$]+)\s*=\s*(?:\{[^}]*\brequire\(|require\()/,
];

/** A specifier of `import … from`, `require(…)` or `import(…)`, and where its quoted string starts and ends. */
export interface ImportSpecifier {
  specifier: string;
  start: number;
  end: number;
}

/** The import specifiers of a text, in order. */
export function importSpecifiersIn(text: string): ImportSpecifier[] {
  return [...text.matchAll(IMPORT_SPECIFIER)].map((match) => {
    const end = match.index + match[0].length;
    return { specifier: match[1]!, start: end - match[1]!.length - 2, end };
  });
}

/** The import specifiers of a text, in order. */
export function importSpecifiers(text: string): string[] {
  return importSpecifiersIn(text).map((s) => s.specifier);
}

/** `export * from`, `export { x } from`, `module.exports = require(…)`. */
export function mayReexport(text: string): boolean {
  return REEXPORTS.some((pattern) => pattern.test(text));
}

/** What a pure barrel may hold besides re-exports: space, comments, directives. */
const BARREL_FILLER = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|["']use (?:strict|client|server)["'];?/y;
/** `export * from "x"`, `export * as ns from "x"`, `export { a, b as c } from "x"`, `export type { T } from "x"`. */
const BARREL_REEXPORT = /export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(["'])([^"'\n]+)\1\s*;?/y;

/**
 * The specifiers of a file that only passes other modules' exports on (a
 * barrel: nothing but ESM re-exports, comments and directives), else
 * undefined. Read token by token, so a large generated barrel costs one scan.
 */
export function barrelSpecifiers(text: string): string[] | undefined {
  const specifiers: string[] = [];
  for (let at = 0; at < text.length; ) {
    BARREL_FILLER.lastIndex = at;
    if (BARREL_FILLER.test(text)) {
      at = BARREL_FILLER.lastIndex;
      continue;
    }
    BARREL_REEXPORT.lastIndex = at;
    const match = BARREL_REEXPORT.exec(text);
    if (!match) return undefined;
    specifiers.push(match[2]!);
    at = BARREL_REEXPORT.lastIndex;
  }
  return specifiers.length > 0 ? specifiers : undefined;
}
