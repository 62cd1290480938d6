/**
 * The string a JS/TS expression builds, for URLs: literals, templates, `+`,
 * `??` defaults, names and imports followed through Values, `this.<field>`,
 * `new URL(path, base)`, `URLSearchParams` and string normalisers. Parts that
 * are not statically known become HOLE.
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { type FileContext, isFallbackAssignment, unwrap } from "./file-context.js";
import { resolveAgainst } from "./url-join.js";
import { readReturned } from "./call-returns.js";
import { configReadString } from "./config-reads.js";
import type { Values } from "./values.js";

const STRING_NORMALISERS: ReadonlySet<string> = new Set(["trim", "trimEnd", "trimStart", "toLowerCase"]);

/**
 * What Values.stringValue reads below its depth guard; nested parts go back
 * through Values.stringValue, so every level keeps the guard.
 * Nodes visited through names are marked consumed when `consume` is set.
 */
export function expressionString(
  values: Values,
  expr: ts.Expression,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  const e = unwrap(expr);
  consume?.add(e);
  if (ts.isStringLiteralLike(e)) return e.text;
  if (ts.isTemplateExpression(e)) {
    let out = e.head.text;
    for (const span of e.templateSpans) {
      out += values.stringValue(span.expression, context, consume, depth + 1) + span.literal.text;
    }
    return out;
  }
  if (ts.isNumericLiteral(e)) return e.text;
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken) {
      return (
        values.stringValue(e.left, context, consume, depth + 1) +
        values.stringValue(e.right, context, consume, depth + 1)
      );
    }
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      // `process.env.X ?? "default"`: the default is the value we can know.
      const left = values.stringValue(e.left, context, consume, depth + 1);
      return left.startsWith(HOLE) ? values.stringValue(e.right, context, consume, depth + 1) : left;
    }
    return HOLE;
  }
  // `opts.baseUrl ? opts.baseUrl : DEFAULT`: the branch that is known, as for `??`.
  if (ts.isConditionalExpression(e)) {
    const whenTrue = values.stringValue(e.whenTrue, context, consume, depth + 1);
    return whenTrue.startsWith(HOLE) ? values.stringValue(e.whenFalse, context, consume, depth + 1) : whenTrue;
  }
  // `BASES["production"]`, `BASES[env]`: a static key's entry, else the first entry that is known.
  if (ts.isElementAccessExpression(e)) {
    // `process.env["COMFY_API"]`: an env read, as `process.env.COMFY_API`.
    const name = isEnvObject(e.expression) ? values.staticString(e.argumentExpression, context) : undefined;
    if (name !== undefined) return values.envValue(name) ?? HOLE;
    return elementString(values, e, context, consume, depth);
  }
  if (ts.isIdentifier(e)) return identifierString(values, e, context, consume, depth);
  if (ts.isPropertyAccessExpression(e)) {
    const name = e.name.text;
    if (name === "href" || name === "toString") return values.stringValue(e.expression, context, consume, depth + 1);
    const envName = envVariableOf(e);
    if (envName !== undefined) {
      const set = values.envValue(envName);
      if (set !== undefined || isEnvAccess(e)) return set ?? HOLE;
    }
    if (e.expression.kind === ts.SyntaxKind.ThisKeyword) return thisMemberString(values, e, context, consume, depth);
    const value = values.propertyValue(e, context, depth + 1);
    return value ? values.stringValue(value.expr, value.context, consume, depth + 1) : HOLE;
  }
  if (ts.isCallExpression(e)) return callString(values, e, context, consume, depth);
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression)) {
    if (e.expression.text === "URL") return urlConstructorString(values, e, context, consume, depth);
    if (e.expression.text === "URLSearchParams")
      return searchParamsString(values, e.arguments?.[0], context, consume, depth);
  }
  return HOLE;
}

function elementString(
  values: Values,
  e: ts.ElementAccessExpression,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  const object = values.objectLiteral(e.expression, context, depth + 1);
  if (!object) return HOLE;
  const key = values.staticString(e.argumentExpression, context);
  const texts = (key !== undefined ? [key] : values.propertyNames(object)).map((name) => {
    const value = values.property(object, name);
    return value ? values.stringValue(value.expr, value.context, consume, depth + 1) : HOLE;
  });
  const known = texts.filter((text) => !text.startsWith(HOLE));
  // A key chosen at run time: only entries that all go to one host say where the request goes.
  const origins = new Set(known.map((text) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(text)?.[0] ?? text));
  return known.length > 0 && (key !== undefined || origins.size === 1) ? known[0]! : HOLE;
}

function thisMemberString(
  values: Values,
  access: ts.PropertyAccessExpression,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  let fallback = HOLE;
  for (const value of values.thisMemberValues(access, context)) {
    if (value.expr.pos <= access.pos && value.expr.end >= access.end) continue; // `this.x = this.x + …`
    const text = values.stringValue(value.expr, value.context, consume, depth + 1);
    if (!text.startsWith(HOLE)) return text;
    if (fallback === HOLE) fallback = text;
  }
  return fallback;
}

function identifierString(
  values: Values,
  id: ts.Identifier,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  if (id.text === "undefined") return HOLE;
  const def = values.definitionOf(id, context, depth);
  const value = values.valueOf(def);
  if (!value || def?.kind !== "node") return HOLE;
  let text = values.stringValue(value.expr, value.context, consume, depth + 1);
  // `let base = process.env.X; base ??= "https://…"`: the fallback given when the first value is unknown.
  for (const later of def.context.assignments.get(def.node) ?? []) {
    if (!text.startsWith(HOLE)) break;
    if (isFallbackAssignment(later)) text = values.stringValue(later, def.context, consume, depth + 1);
  }
  // Query keys added later with url.searchParams.set("run_id", ...).
  const added = def.context.queryMutations.get(def.node);
  if (added) {
    for (const key of added.keys()) text += `${text.includes("?") ? "&" : "?"}${key}=${HOLE}`;
  }
  return text;
}

function callString(
  values: Values,
  call: ts.CallExpression,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  const callee = unwrap(call.expression);
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "toString" && call.arguments.length === 0) {
    return values.stringValue(callee.expression, context, consume, depth + 1);
  }
  // `(env.X || "https://…/api").replace(/\/+$/, "")`, `.trim()`: normalising keeps the host and path that matter here.
  if (ts.isPropertyAccessExpression(callee) && (STRING_NORMALISERS.has(callee.name.text) || stripsTrailing(call))) {
    return values.stringValue(callee.expression, context, consume, depth + 1);
  }
  if (ts.isIdentifier(callee) && callee.text === "String" && call.arguments[0]) {
    return values.stringValue(call.arguments[0], context, consume, depth + 1);
  }
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "join") {
    const array = unwrap(callee.expression);
    const separator = call.arguments[0] ? values.stringValue(call.arguments[0], context, consume, depth + 1) : ",";
    if (ts.isArrayLiteralExpression(array)) {
      return array.elements.map((el) => values.stringValue(el, context, consume, depth + 1)).join(separator);
    }
  }
  // `Deno.env.get("COMFY_API")`: a variable the repository's env files may set.
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "get" && isEnvObject(callee.expression)) {
    const name = call.arguments[0];
    return (name && ts.isStringLiteralLike(name) && values.envValue(name.text)) || HOLE;
  }
  // `config.get("comfy.baseUrl")`, `config.get("COMFY_API", "https://…")`: what the app's config gives the key.
  const configured = configReadString(values, call, context, consume, depth);
  if (configured !== undefined) return configured;
  // `getBaseUrl()`, `this.url("/run")`: what the repository function returns, with the call's arguments.
  return (
    readReturned(values, call, context, depth + 1, (value) => {
      const text = values.stringValue(value.expr, value.context, consume, depth + 1);
      return text.startsWith(HOLE) ? undefined : text;
    }) ?? HOLE
  );
}

function urlConstructorString(
  values: Values,
  expr: ts.NewExpression,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  const [input, base] = expr.arguments ?? [];
  if (!input) return HOLE;
  const path = values.stringValue(input, context, consume, depth + 1);
  if (!base) return path;
  return resolveAgainst(values.stringValue(base, context, consume, depth + 1), path);
}

function searchParamsString(
  values: Values,
  init: ts.Expression | undefined,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string {
  if (!init) return "";
  const object = values.objectLiteral(init, context, depth + 1);
  if (object)
    return values
      .propertyNames(object)
      .map((key) => `${key}=${HOLE}`)
      .join("&");
  return values.stringValue(init, context, consume, depth + 1);
}

/** `.replace(/\/+$/, "")`: a replace anchored at the end (a trailing-slash strip). */
function stripsTrailing(call: ts.CallExpression): boolean {
  const callee = call.expression;
  const pattern = call.arguments[0];
  return (
    ts.isPropertyAccessExpression(callee) &&
    (callee.name.text === "replace" || callee.name.text === "replaceAll") &&
    pattern !== undefined &&
    ts.isRegularExpressionLiteral(pattern) &&
    /\$\/[a-z]*$/.test(pattern.text)
  );
}

/**
 * The variable an env read names: `process.env.X`, `import.meta.env.X`,
 * `Bun.env.X`, and a Worker's or framework's `env.X` / `c.env.X`.
 */
function envVariableOf(e: ts.PropertyAccessExpression): string | undefined {
  return isEnvObject(e.expression) ? e.name.text : undefined;
}

function isEnvObject(expr: ts.Expression): boolean {
  const owner = unwrap(expr);
  return (
    (ts.isIdentifier(owner) && owner.text === "env") ||
    (ts.isPropertyAccessExpression(owner) && owner.name.text === "env")
  );
}

/** `process.env.X` or `import.meta.env.X`. */
function isEnvAccess(e: ts.PropertyAccessExpression): boolean {
  const owner = e.expression;
  if (!ts.isPropertyAccessExpression(owner) || owner.name.text !== "env") return false;
  const root = owner.expression;
  return (ts.isIdentifier(root) && root.text === "process") || ts.isMetaProperty(root);
}
