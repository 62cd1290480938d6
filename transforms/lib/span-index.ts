/**
 * The one bridge from a finding to the code it is about: the nodes of a
 * jscodeshift tree found by the finding's span.
 *
 * A finding's span holds offsets into the text the transform received. recast
 * does not hand Babel that text: it re-counts each line's leading whitespace
 * as spaces (a tab advances to the next stop of 4) and joins the lines with
 * the platform's line terminator, and Babel's `start`/`end` count in that
 * text. So spans are converted before nodes are looked up; otherwise every
 * tab-indented line would miss.
 */
import { EOL } from "node:os";
import type { ASTPath, Collection, JSCodeshift } from "jscodeshift";
import { type Finding, spanOf } from "../../src/core/finding.js";
import type { Span } from "../../src/core/location.js";
import { findPaths } from "./node-paths.js";

type AnyNode = { type: string; start?: number | null; end?: number | null };

/** recast's defaults, which jscodeshift parses with. */
const RECAST_TAB_WIDTH = 4;
const RECAST_LINE_BREAKS = /\r\n|\r(?!\n)|\n|\u2028|\u2029/g;

const WRAPPERS = new Set([
  "TSAsExpression",
  "TSNonNullExpression",
  "TSSatisfiesExpression",
  "TSTypeAssertion",
  "ParenthesizedExpression",
]);

interface LineShape {
  /** Offset of the line in the source. */
  start: number;
  /** Length of its leading whitespace in the source, and the spaces recast writes for it. */
  lead: number;
  indent: number;
  /** Offset of the line in the text Babel parsed. */
  parsedStart: number;
}

export class SpanIndex {
  private readonly lines: LineShape[] = [];
  private readonly byStart = new Map<number, ASTPath[]>();
  private readonly parts: ASTPath[] = [];
  /** Every node path of the tree as it was when indexed, in the order `root.find(j.Node)` gives. */
  readonly paths: readonly ASTPath[];

  constructor(
    j: JSCodeshift,
    root: Collection,
    readonly source: string,
  ) {
    this.measureLines();
    this.paths = findPaths(j, root, "Node");
    this.paths.forEach((path) => {
      const node = path.node as AnyNode;
      if (typeof node.start !== "number") return;
      if (isStringPart(node)) this.parts.push(path);
      const list = this.byStart.get(node.start);
      if (list) list.push(path);
      else this.byStart.set(node.start, [path]);
    });
  }

  /** A span of the source as Babel offsets [start, end). */
  toParsed(span: Span): [number, number] {
    return [this.parsedOffset(span.start), this.parsedOffset(span.end)];
  }

  /** A finding's span as Babel offsets. */
  rangeOf(finding: Finding): [number, number] {
    return this.toParsed(spanOf(finding));
  }

  /** Every node that starts where the finding starts, outermost first. */
  at(finding: Finding): ASTPath[] {
    return this.startingAt(spanOf(finding));
  }

  /** Every node that starts where the span starts, outermost first. */
  startingAt(span: Span): ASTPath[] {
    return this.byStart.get(this.parsedOffset(span.start)) ?? [];
  }

  /** The outermost expression a finding spans exactly (or the widest one starting there that fits). */
  expressionAt(finding: Finding): ASTPath | undefined {
    let [start, end] = this.rangeOf(finding);
    const parsed = this.parsedText();
    // Babel keeps no node for parentheses: `(url as string)` starts after them.
    let parens = 0;
    for (; /[(\s]/.test(parsed[start] ?? "") && start < end; start++) if (parsed[start] === "(") parens++;
    for (; parens > 0 && /[)\s]/.test(parsed[end - 1] ?? "") && end > start; end--)
      if (parsed[end - 1] === ")") parens--;
    const candidates = (this.byStart.get(start) ?? []).filter((p) => isExpression(p.node as AnyNode));
    const fitting = candidates.filter((p) => ((p.node as AnyNode).end ?? 0) <= end);
    const pick = (list: ASTPath[]): ASTPath | undefined =>
      list.reduce<ASTPath | undefined>((best, p) => (!best || width(p) > width(best) ? p : best), undefined);
    const exact = fitting.filter((p) => (p.node as AnyNode).end === end);
    const found = pick(exact) ?? pick(fitting) ?? pick(candidates);
    return found && unwrapPath(found);
  }

  /** The innermost string literal or template part holding a finding's start. */
  stringPartAt(finding: Finding): ASTPath | undefined {
    const [start] = this.rangeOf(finding);
    let best: ASTPath | undefined;
    for (const path of this.parts) {
      const node = path.node as AnyNode;
      // A template part's finding starts at the backtick or `}` just before it.
      const from = node.type === "TemplateElement" ? node.start! - 1 : node.start!;
      const to = node.end! + (node.type === "TemplateElement" ? 1 : 0);
      if (start < from || start >= to) continue;
      if (!best || width(path) < width(best)) best = path;
    }
    return best;
  }

  private measureLines(): void {
    let start = 0;
    let parsedStart = 0;
    const breaks = [...this.source.matchAll(RECAST_LINE_BREAKS)];
    for (let i = 0; i <= breaks.length; i++) {
      const end = i < breaks.length ? breaks[i]!.index : this.source.length;
      const line = this.source.slice(start, end);
      const lead = /^\s*/.exec(line)![0];
      const indent = countSpaces(lead);
      this.lines.push({ start, lead: lead.length, indent, parsedStart });
      parsedStart += indent + line.length - lead.length + EOL.length;
      start = end + (i < breaks.length ? breaks[i]![0].length : 0);
    }
  }

  private parsedOffset(offset: number): number {
    let lo = 0;
    let hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lines[mid]!.start <= offset) lo = mid;
      else hi = mid - 1;
    }
    const line = this.lines[lo]!;
    const column = offset - line.start;
    return line.parsedStart + (column >= line.lead ? line.indent + column - line.lead : Math.min(column, line.indent));
  }

  private parsed: string | undefined;

  /** The text Babel parsed, for looking at the characters around a span. */
  private parsedText(): string {
    this.parsed ??= this.lines
      .map((line, i) => {
        const end = i + 1 < this.lines.length ? this.lines[i + 1]!.start : this.source.length;
        const text = this.source.slice(line.start, end).replace(/(\r\n|\r|\n|\u2028|\u2029)$/, "");
        return " ".repeat(line.indent) + text.slice(line.lead);
      })
      .join(EOL);
    return this.parsed;
  }
}

/** Width of leading whitespace as recast counts it. */
function countSpaces(lead: string): number {
  let count = 0;
  for (const c of lead) {
    if (c === "\t") {
      const stop = Math.ceil(count / RECAST_TAB_WIDTH) * RECAST_TAB_WIDTH;
      count = stop === count ? count + RECAST_TAB_WIDTH : stop;
    } else if (c !== "\v" && c !== "\f" && c !== "\r" && c !== "\ufeff") {
      count += 1;
    }
  }
  return count;
}

export function isStringPart(node: AnyNode): boolean {
  if (node.type === "TemplateElement") return true;
  if (node.type === "StringLiteral") return true;
  return node.type === "Literal" && typeof (node as { value?: unknown }).value === "string";
}

function isExpression(node: AnyNode): boolean {
  return /Expression$|Literal$|^Identifier$|^TemplateLiteral$/.test(node.type) && node.type !== "ExpressionStatement";
}

function width(path: ASTPath): number {
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
