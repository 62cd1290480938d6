/**
 * New code from source text, parsed with the file's own parser. Existing
 * nodes go into it as their printed text (`printed`), so they keep their
 * formatting and any rewrite already made inside them. Multi-line text is
 * written relative to the line it starts on: recast re-indents it there.
 */
import type { ASTPath, JSCodeshift } from "jscodeshift";

type AnyNode = { type: string; [key: string]: unknown };

export interface PrintOptions {
  quote: "single" | "double";
  trailingComma: boolean;
  arrowParensAlways: boolean;
  /** Tab-indented files keep their tabs in reprinted code. */
  useTabs: boolean;
}

/**
 * The top-level statements of `code` as parsed. The nodes are read from the
 * tree's known shape instead of searched for: a search visits every node of
 * the snippet, which cost more than its parse.
 */
function parsedBody<Statement = AnyNode>(j: JSCodeshift, code: string): Statement[] {
  const file = j(code).nodes()[0] as unknown as { program: { body: Statement[] } };
  return file.program.body;
}

/** An expression built from `code`. */
export function expressionFrom(j: JSCodeshift, code: string): AnyNode {
  const [declaration] = parsedBody<{ declarations: Array<{ init: AnyNode }> }>(j, `const __cdm_value__ = ${code};`);
  return declaration!.declarations[0]!.init;
}

/** A TypeScript type built from `code`. */
export function typeFrom(j: JSCodeshift, code: string): AnyNode {
  const [alias] = parsedBody<{ typeAnnotation: AnyNode }>(j, `type __CdmType__ = ${code};`);
  return alias!.typeAnnotation;
}

/** Top-level statements built from `code`. */
export function statementsFrom(j: JSCodeshift, code: string): AnyNode[] {
  return parsedBody(j, code);
}

/** The current text of a node (its original text where it is unchanged), lines after the first relative to its own line. */
export function printed(j: JSCodeshift, path: ASTPath, options: PrintOptions): string {
  return j(path).toSource(options);
}

/** The current text of a node that has no path at hand (see `printed`). */
export function printedNode(j: JSCodeshift, node: unknown, options: PrintOptions): string {
  return j(node as Parameters<JSCodeshift>[0]).toSource(options);
}
