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

/** An expression built from `code`. */
export function expressionFrom(j: JSCodeshift, code: string): AnyNode {
  const program = j(`const __cdm_value__ = ${code};`);
  const declarator = program.find(j.VariableDeclarator).paths()[0]!;
  return declarator.node.init as unknown as AnyNode;
}

/** A TypeScript type built from `code`. */
export function typeFrom(j: JSCodeshift, code: string): AnyNode {
  const program = j(`type __CdmType__ = ${code};`);
  const alias = program.find(j.TSTypeAliasDeclaration).paths()[0]!;
  return alias.node.typeAnnotation as unknown as AnyNode;
}

/** Top-level statements built from `code`. */
export function statementsFrom(j: JSCodeshift, code: string): AnyNode[] {
  const program = j(code);
  return program.find(j.Program).paths()[0]!.node.body as unknown as AnyNode[];
}

/** The current text of a node (its original text where it is unchanged), lines after the first relative to its own line. */
export function printed(j: JSCodeshift, path: ASTPath, options: PrintOptions): string {
  return j(path).toSource(options);
}

/** The current text of a node that has no path at hand (see `printed`). */
export function printedNode(j: JSCodeshift, node: unknown, options: PrintOptions): string {
  return j(node as Parameters<JSCodeshift>[0]).toSource(options);
}
