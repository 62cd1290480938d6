/**
 * A file's own style, read from its text, so that code a transform writes
 * looks like the code around it: quotes, semicolons, indentation and
 * trailing commas.
 */

export interface SourceStyle {
  quote: "single" | "double";
  semicolons: boolean;
  /** One level of indentation: a tab or 2 to 8 spaces. */
  indent: string;
  /** Multi-line lists end with a comma. */
  trailingComma: boolean;
}

export function sourceStyleOf(source: string): SourceStyle {
  return {
    quote: preferredQuote(source),
    semicolons: usesSemicolons(source),
    indent: indentUnit(source),
    trailingComma: usesTrailingCommas(source),
  };
}

/** The quote character the file mostly uses for strings. */
export function preferredQuote(source: string): "single" | "double" {
  const singles = (source.match(/'[^'\n]*'/g) ?? []).length;
  const doubles = (source.match(/"[^"\n]*"/g) ?? []).length;
  return singles > doubles ? "single" : "double";
}

/**
 * Whether statements end with semicolons: a file that ends none of its
 * statement lines with one is semicolon-free. Lines that end a block or a
 * comment say nothing either way.
 */
export function usesSemicolons(source: string): boolean {
  let withSemicolon = 0;
  let without = 0;
  for (const raw of source.split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trimEnd();
    if (line === "" || /^\s*(\*|\/\*)/.test(line)) continue;
    if (line.endsWith(";")) withSemicolon++;
    else if (/^\s*(import|export|const|let|var|return|throw)\b.*[\w)\]"'`]$/.test(line)) without++;
  }
  return withSemicolon > 0 || without === 0;
}

export function indentUnit(source: string): string {
  if (/^\t/m.test(source)) return "\t";
  const widths = [...source.matchAll(/^( +)\S/gm)].map((m) => m[1]!.length);
  const smallest = widths.length > 0 ? Math.min(...widths) : 2;
  return " ".repeat(smallest >= 2 && smallest <= 8 ? smallest : 2);
}

export function usesTrailingCommas(source: string): boolean {
  return /,\n\s*[}\])]/.test(source);
}

/**
 * A codemod's output in a semicolon-free file without the semicolons recast
 * printed on the lines it wrote; lines the file already had keep theirs.
 */
export function matchSemicolons(before: string, after: string): string {
  if (after === before || usesSemicolons(before)) return after;
  const existing = new Set(before.split("\n"));
  return after
    .split("\n")
    .map((line) => (existing.has(line) || /^\s*(\/\/|\*|\/\*|for\b)/.test(line) ? line : line.replace(/;(\s*)$/, "$1")))
    .join("\n");
}

const DIRECTIVE = /^\s*(["'])use [^"'\n]+\1;*[ \t]*$/;

/**
 * The file's directive prologue ("use server", "use strict") as it was:
 * recast reprints a program whose top-level statements changed with a
 * second semicolon after each directive and without the blank lines that
 * followed them.
 */
export function restoreDirectives(before: string, after: string): string {
  const original = before.split("\n");
  const printed = after.split("\n");
  let i = 0;
  while (i < original.length && i < printed.length && DIRECTIVE.test(original[i]!) && DIRECTIVE.test(printed[i]!)) {
    printed[i] = original[i]!;
    i++;
  }
  if (i === 0) return after;
  const blanksBefore = countBlank(original, i);
  const blanksAfter = countBlank(printed, i);
  printed.splice(i, blanksAfter, ...Array<string>(blanksBefore).fill(""));
  return printed.join("\n");
}

function countBlank(lines: readonly string[], from: number): number {
  let n = 0;
  while (lines[from + n]?.trim() === "") n++;
  return n;
}
