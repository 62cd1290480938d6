/**
 * Edits to the pieces of a URL expression that keep the file's formatting:
 * in-place changes to string literals and template parts (their own quote
 * and escapes kept), and appending `/${id}` to a URL.
 */
import type { ASTPath, JSCodeshift } from "jscodeshift";
import { applyEdits, type TextEdit } from "./urls.js";

type Node = { type: string; [key: string]: unknown };
type Quote = "single" | "double";

/** Applies value edits to a StringLiteral or TemplateElement, keeping its raw form where it can. */
export function editStringPart(path: ASTPath, edits: readonly TextEdit[]): void {
  const node = path.node as Node;
  if (node.type === "TemplateElement") {
    const value = node.value as { raw: string; cooked?: string | null };
    const cooked = value.cooked ?? value.raw;
    const next = applyEdits(cooked, edits);
    const raw =
      value.raw === cooked
        ? applyEdits(
            value.raw,
            edits.map((e) => ({ ...e, text: templateRaw(e.text) })),
          )
        : templateRaw(next);
    node.value = { raw, cooked: next };
    return;
  }
  const current = node.value as string;
  const next = applyEdits(current, edits);
  const extra = node.extra as { raw?: string; rawValue?: string } | undefined;
  const quote = extra?.raw?.[0] === "'" ? "'" : '"';
  const body = extra?.raw?.slice(1, -1);
  const raw =
    body === current
      ? quote +
        applyEdits(
          body,
          edits.map((e) => ({ ...e, text: escapeFor(e.text, quote) })),
        ) +
        quote
      : quoted(next, quote);
  node.value = next;
  node.extra = { ...(extra ?? {}), raw, rawValue: next };
  if (node.type === "Literal") node.raw = raw;
}

/** A new string literal in the file's quote style. */
export function newStringLiteral(j: JSCodeshift, value: string, quote: Quote): Node {
  const q = quote === "single" ? "'" : '"';
  const literal = j.stringLiteral(value) as unknown as Node;
  literal.extra = { raw: quoted(value, q), rawValue: value };
  return literal;
}

function quoted(value: string, quote: string): string {
  return quote + escapeFor(value, quote) + quote;
}

function escapeFor(value: string, quote: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(new RegExp(quote, "g"), `\\${quote}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r");
}

function templateRaw(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

/**
 * A copy of a node without its source position, for moving it elsewhere:
 * recast reprints a parent whole when a child keeps a position from outside it.
 */
export function detached<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => detached(item)) as T;
  if (!node || typeof node !== "object") return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      key === "loc" ||
      key === "start" ||
      key === "end" ||
      key === "range" ||
      key === "original" ||
      key === "tokens" ||
      key === "comments"
    )
      continue;
    copy[key] = detached(value);
  }
  return copy as T;
}

/**
 * Appends `/${segment}` to a URL expression whose string ends with the run
 * path: a template gains a part, a string literal becomes a template, a
 * concatenation gains operands, a name is wrapped in a template. `slash`
 * is false when the URL already ends with `/`.
 */
export function appendPathSegment(j: JSCodeshift, url: ASTPath, segment: Node, slash: boolean, quote: Quote): void {
  const node = url.node as Node;
  const sep = slash ? "/" : "";
  if (node.type === "TemplateLiteral") {
    const quasis = node.quasis as Node[];
    const last = quasis[quasis.length - 1]!;
    const value = last.value as { raw: string; cooked?: string | null };
    last.value = { raw: value.raw + sep, cooked: (value.cooked ?? value.raw) + sep };
    last.tail = false;
    (node.expressions as Node[]).push(segment);
    quasis.push(j.templateElement({ raw: "", cooked: "" }, true) as unknown as Node);
    return;
  }
  if (node.type === "StringLiteral" || (node.type === "Literal" && typeof node.value === "string")) {
    const value = `${node.value as string}${sep}`;
    url.replace(
      j.templateLiteral(
        [
          j.templateElement({ raw: templateRaw(value), cooked: value }, false),
          j.templateElement({ raw: "", cooked: "" }, true),
        ],
        [segment as never],
      ),
    );
    return;
  }
  if (node.type === "BinaryExpression" && node.operator === "+") {
    const right = node.right as Node;
    if (right.type === "StringLiteral" && slash) {
      editStringPart(url.get("right") as ASTPath, [
        { start: (right.value as string).length, end: (right.value as string).length, text: "/" },
      ]);
      url.replace(j.binaryExpression("+", node as never, segment as never));
      return;
    }
    const withSlash = slash ? j.binaryExpression("+", node as never, newStringLiteral(j, "/", quote) as never) : node;
    url.replace(j.binaryExpression("+", withSlash as never, segment as never));
    return;
  }
  url.replace(
    j.templateLiteral(
      [
        j.templateElement({ raw: "", cooked: "" }, false),
        j.templateElement({ raw: sep, cooked: sep }, false),
        j.templateElement({ raw: "", cooked: "" }, true),
      ],
      [node as never, segment as never],
    ),
  );
}
