/**
 * Node pins in JS/TS code that writes the commands installing the node: a
 * script generating a Dockerfile (`RUN git -C … reset --hard ${DEPLOY_SHA}`),
 * a git command a script runs through child_process, an array of lines joined into a file. Each
 * string expression (literals, template literals, `+` chains, arrays of
 * lines) is rebuilt with the file's constants filled in (`const SHA = "…"`,
 * object constants, `process.env.X ?? "default"`), then read by the same
 * tracker as Python code that does this. A SHA kept in a constant is
 * reported where the constant is written.
 */
import type { ts as TS } from "ts-morph";
import { loadTypeScript, scriptKindOf, type TypeScript } from "../../../platform/typescript.js";
import { NodeCommandTracker } from "./node-pin-commands.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { append, type Built, emptyBuilt, placeholder, readGenerated, unwritten } from "./node-pin-generated.js";

const MAX_DEPTH = 5;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", $: "$" };

/** A JS/TS file is parsed only when it could run or write an install command, not for naming the node. */
const JS_COMMAND_HINT = /\bgit\b|\bcomfy\b|\bpip3?\b|\buv\b|\bcurl\b|\bwget\b/;

export function jsCodePins(file: string, text: string): NodePinSite[] {
  if (!JS_COMMAND_HINT.test(text)) return [];
  return new JsPinReader(loadTypeScript(), file, text).pins();
}

class JsPinReader {
  private readonly source: TS.SourceFile;
  /** Names bound once in the file, to the expression they hold (scopes are not told apart: constants are module-level). */
  private readonly bindings = new Map<string, TS.Expression>();
  private readonly tracker = new NodeCommandTracker("dockerfile");

  constructor(
    private readonly ts: TypeScript,
    file: string,
    private readonly text: string,
  ) {
    this.source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file, ts));
  }

  pins(): NodePinSite[] {
    const { ts } = this;
    const collect = (node: TS.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        // A name bound twice is not a constant: neither value is trusted.
        if (this.bindings.has(node.name.text)) this.bindings.delete(node.name.text);
        else this.bindings.set(node.name.text, node.initializer);
      }
      ts.forEachChild(node, collect);
    };
    collect(this.source);
    const visit = (node: TS.Node): void => {
      if (ts.isArrayLiteralExpression(node) && node.elements.some((e) => this.isStringish(e))) {
        readGenerated(this.joined(node, 0), this.tracker);
        return;
      }
      if (this.isStringish(node)) {
        readGenerated(this.value(node as TS.Expression, 0), this.tracker);
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(this.source);
    return this.tracker.sites();
  }

  /** A literal, a template, or a `+` chain with a literal in it. */
  private isStringish(node: TS.Node): boolean {
    const { ts } = this;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node))
      return true;
    if (ts.isParenthesizedExpression(node)) return this.isStringish(node.expression);
    return (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
      (this.isStringish(node.left) || this.isStringish(node.right))
    );
  }

  /** The text an expression evaluates to, as far as the file says; a placeholder for what it does not. */
  private value(node: TS.Expression, depth: number): Built {
    const { ts } = this;
    if (depth > MAX_DEPTH) return this.unknown(node);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      return this.literal(node.getStart() + 1, node.end - 1);
    if (ts.isTemplateExpression(node)) {
      const out = this.literal(node.head.getStart() + 1, node.head.end - 2);
      for (const span of node.templateSpans) {
        append(out, this.value(span.expression, depth + 1));
        const tail = ts.isTemplateTail(span.literal);
        append(out, this.literal(span.literal.getStart() + 1, span.literal.end - (tail ? 1 : 2)));
      }
      return out;
    }
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression(node)
    )
      return this.value(node.expression, depth);
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind;
      if (operator === ts.SyntaxKind.PlusToken) {
        const out = this.value(node.left, depth + 1);
        append(out, this.value(node.right, depth + 1));
        return out;
      }
      // `process.env.SHA ?? "<sha>"`: the default is the value the file knows.
      if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken)
        return this.isStringish(node.right) ? this.value(node.right, depth + 1) : this.unknown(node);
    }
    if (ts.isArrayLiteralExpression(node)) return this.joined(node, depth + 1);
    if (ts.isCallExpression(node)) {
      // `[...lines].join("\n")` and `LINES.join("\n")`.
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === "join") {
        const array = this.resolved(callee.expression, depth);
        const separator = node.arguments[0];
        if (array && ts.isArrayLiteralExpression(array))
          return this.joined(array, depth + 1, separator && ts.isStringLiteral(separator) ? separator.text : ",");
      }
      return this.unknown(node);
    }
    const resolved = this.resolved(node, depth);
    return resolved ? this.value(resolved, depth + 1) : this.unknown(node);
  }

  /** What a name, `OBJ.key` or `OBJ["key"]` is bound to in the file. */
  private resolved(node: TS.Expression, depth: number): TS.Expression | undefined {
    const { ts } = this;
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isIdentifier(node)) return this.bindings.get(node.text);
    const key = ts.isPropertyAccessExpression(node)
      ? node.name.text
      : ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)
        ? node.argumentExpression.text
        : undefined;
    if (key === undefined || !(ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)))
      return undefined;
    let owner = this.resolved(node.expression, depth + 1);
    while (
      owner &&
      (ts.isAsExpression(owner) || ts.isSatisfiesExpression(owner) || ts.isParenthesizedExpression(owner))
    )
      owner = owner.expression;
    if (!owner || !ts.isObjectLiteralExpression(owner)) return undefined;
    for (const property of owner.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const name = property.name;
      const text = ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
      if (text === key) return property.initializer;
    }
    return undefined;
  }

  /** The array's string elements, one a line (or joined by `separator`). */
  private joined(array: TS.ArrayLiteralExpression, depth: number, separator = "\n"): Built {
    const out = emptyBuilt();
    for (const element of array.elements) {
      if (!this.isStringish(element) && !this.ts.isIdentifier(element)) continue;
      if (out.text !== "") append(out, unwritten(separator, element.getStart()));
      append(out, this.value(element, depth + 1));
    }
    return out;
  }

  private unknown(node: TS.Node): Built {
    return placeholder(node.getText(this.source), node.getStart());
  }

  /** A literal body with its escapes decoded; each character keeps the offset of what wrote it. */
  private literal(start: number, end: number): Built {
    const out = emptyBuilt();
    const { text } = this;
    for (let pos = start; pos < end; pos++) {
      const c = text[pos]!;
      if (c === "\\" && pos + 1 < end) {
        const next = text[pos + 1]!;
        if (next !== "\n") {
          out.text += ESCAPES[next] ?? next;
          out.offsets.push(pos);
        }
        pos++;
        continue;
      }
      out.text += c;
      out.offsets.push(pos);
    }
    return out;
  }
}
