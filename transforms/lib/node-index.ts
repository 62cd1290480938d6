/**
 * Finds the Babel nodes scan findings point at. Findings come from the
 * scanner's TypeScript parse (1-based columns; a template part starts at its
 * backtick or `}`); Babel nodes carry 0-based offsets, and a template element
 * starts after that character. Both count UTF-16 code units.
 */
import type { ASTPath, Collection, JSCodeshift } from "jscodeshift";
import type { Finding } from "../../src/core/finding.js";

type AnyNode = { type: string; start?: number | null; end?: number | null; loc?: unknown };

const WRAPPERS = new Set(["TSAsExpression", "TSNonNullExpression", "TSSatisfiesExpression", "TSTypeAssertion", "ParenthesizedExpression"]);

export class NodeIndex {
  private readonly lineStarts: number[] = [0];
  private readonly byStart = new Map<number, ASTPath[]>();
  private readonly parts: ASTPath[] = [];

  constructor(j: JSCodeshift, root: Collection, readonly source: string) {
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    root.find(j.Node).forEach((found) => {
      const path = found as unknown as ASTPath;
      const node = path.node as AnyNode;
      if (typeof node.start !== "number") return;
      if (isStringPart(node)) this.parts.push(path);
      const list = this.byStart.get(node.start) ?? [];
      list.push(path);
      this.byStart.set(node.start, list);
    });
  }

  /** Offset of a finding's start and end in the source. */
  rangeOf(finding: Finding): [number, number] {
    return [this.offset(finding.line, finding.column), this.offset(finding.endLine, finding.endColumn)];
  }

  offset(line: number, column: number): number {
    return (this.lineStarts[line - 1] ?? this.source.length) + column - 1;
  }

  /** The outermost expression a finding spans exactly (or the widest one starting there that fits). */
  expressionAt(finding: Finding): ASTPath | undefined {
    let [start, end] = this.rangeOf(finding);
    // Babel keeps no node for parentheses: `(url as string)` starts after them.
    let parens = 0;
    for (; /[(\s]/.test(this.source[start] ?? "") && start < end; start++) if (this.source[start] === "(") parens++;
    for (; parens > 0 && /[)\s]/.test(this.source[end - 1] ?? "") && end > start; end--) if (this.source[end - 1] === ")") parens--;
    const candidates = (this.byStart.get(start) ?? []).filter((p) => isExpression(p.node as AnyNode));
    const fitting = candidates.filter((p) => ((p.node as AnyNode).end ?? 0) <= end);
    const pick = (list: ASTPath[]): ASTPath | undefined =>
      list.reduce<ASTPath | undefined>((best, p) => (!best || span(p) > span(best) ? p : best), undefined);
    const exact = fitting.filter((p) => (p.node as AnyNode).end === end);
    const found = pick(exact) ?? pick(fitting) ?? pick(candidates);
    return found && unwrapPath(found);
  }

  /** The string literal or template part holding a finding's start. */
  stringPartAt(finding: Finding): ASTPath | undefined {
    const [start] = this.rangeOf(finding);
    let best: ASTPath | undefined;
    for (const path of this.parts) {
      const node = path.node as AnyNode;
      // A template part's finding starts at the backtick or `}` just before it.
      const from = node.type === "TemplateElement" ? node.start! - 1 : node.start!;
      const to = node.end! + (node.type === "TemplateElement" ? 1 : 0);
      if (start < from || start >= to) continue;
      if (!best || span(path) < span(best)) best = path;
    }
    return best;
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

export function isStringPart(node: AnyNode): boolean {
  if (node.type === "TemplateElement") return true;
  if (node.type === "StringLiteral") return true;
  return node.type === "Literal" && typeof (node as { value?: unknown }).value === "string";
}

function isExpression(node: AnyNode): boolean {
  return /Expression$|Literal$|^Identifier$|^TemplateLiteral$/.test(node.type) && node.type !== "ExpressionStatement";
}

function span(path: ASTPath): number {
  const node = path.node as AnyNode;
  return (node.end ?? 0) - (node.start ?? 0);
}

/** Looks through type assertions and parentheses to the expression that holds the value. */
export function unwrapPath(path: ASTPath): ASTPath {
  let current = path;
  while (WRAPPERS.has((current.node as AnyNode).type)) current = current.get("expression") as ASTPath;
  return current;
}

export function startOf(node: unknown): number {
  return (node as AnyNode).start ?? -1;
}

export function endOf(node: unknown): number {
  return (node as AnyNode).end ?? -1;
}
