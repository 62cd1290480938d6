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

/** The specifiers of `import … from`, `require(…)` and `import(…)`, in order. */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(IMPORT_SPECIFIER)].map((match) => match[1]!);
}

/** `export * from`, `export { x } from`, `module.exports = require(…)`. */
export function mayReexport(text: string): boolean {
  return REEXPORTS.some((pattern) => pattern.test(text));
}
