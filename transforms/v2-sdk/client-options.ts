/**
 * `new ComfyDeployClient({ apiToken, apiBase })` options → V2 `{ bearer,
 * serverURL? }`. V1 read only these two keys and built its base URL as
 * `${apiBase}/api` when apiBase was truthy (else the V1 default); V2 takes
 * serverURL verbatim and falls back to its own default when it is empty.
 *
 * - apiToken → bearer.
 * - apiBase literal naming the default host (V1's, or V2's production host,
 *   which an earlier endpoint rewrite may have put there) → dropped: the V2
 *   default is that host's `/api` base.
 * - another literal L → `serverURL: "L/api"`, plus a review marker.
 * - an expression E → `serverURL: compat.serverUrlFromApiBase(E)`: the
 *   configured value keeps its meaning (/api appended as V1 did), and a value
 *   that still names the retired V1 host is moved to the V2 host at run
 *   time; a marker says which value to change.
 */
import type { JSCodeshift } from "jscodeshift";
import { HOSTS, JS_SDK_SHAPES } from "../../src/knowledge/migration.js";
import { expressionFrom, type PrintOptions, printedNode } from "./snippets.js";

type AnyNode = { type: string; [key: string]: unknown };

const OPTIONS = JS_SDK_SHAPES.constructorOptions;
export const V1_OPTION_KEYS = Object.keys(OPTIONS) as ReadonlyArray<keyof typeof OPTIONS>;

export type OptionsOutcome =
  | { kind: "rewritten"; notes: string[]; review?: string; replacement?: AnyNode; env?: string }
  | { kind: "unsupported"; reason: string };

/** The compat module's local name in the file (asking for it adds the import). */
export type CompatName = () => string;

/** Hosts whose `/api` base is V2's default server: an apiBase naming them can go. */
const DEFAULT_BASES = new Set([`https://${HOSTS.v1.host}`, `https://${HOSTS.v2.host}`]);
const V2_BASES = new Set([`https://${HOSTS.v2Staging.host}`]);

function keyName(prop: AnyNode): string | undefined {
  if (prop.computed) return undefined;
  const key = prop.key as AnyNode;
  if (key.type === "Identifier") return key.name as string;
  if ((key.type === "StringLiteral" || key.type === "Literal") && typeof key.value === "string") return key.value;
  return undefined;
}

function isPlainProperty(prop: AnyNode): boolean {
  return (
    (prop.type === "ObjectProperty" || prop.type === "Property") &&
    prop.kind !== "get" &&
    prop.kind !== "set" &&
    !prop.method
  );
}

/** The literal string of a node, when it is a string literal or a template without expressions. */
function literalString(node: AnyNode): string | undefined {
  if ((node.type === "StringLiteral" || node.type === "Literal") && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    const quasi = (node.quasis as AnyNode[])[0]!;
    return (quasi.value as { cooked: string }).cooked;
  }
  return undefined;
}

/** `process.env.NAME` → NAME, for the message about env files. */
export function envVariableOf(node: AnyNode): string | undefined {
  if (node.type !== "MemberExpression" || node.computed) return undefined;
  const object = node.object as AnyNode;
  const property = node.property as AnyNode;
  const isEnv =
    object.type === "MemberExpression" &&
    !object.computed &&
    (object.property as AnyNode).type === "Identifier" &&
    (object.property as AnyNode).name === "env" &&
    (((object.object as AnyNode).type === "Identifier" && (object.object as AnyNode).name === "process") ||
      (object.object as AnyNode).type === "MetaProperty");
  return isEnv && property.type === "Identifier" ? (property.name as string) : undefined;
}

function envAdvice(variable: string | undefined, compat: string): string {
  const what = variable ?? "the configured apiBase value";
  return `serverURL comes from ${what} through ${compat}.serverUrlFromApiBase, which appends /api as V1 did and sends a value still naming https://${HOSTS.v1.host} to https://${HOSTS.v2.host} at run time: set ${what} to https://${HOSTS.v2.host} wherever it is configured (env files, CI secrets, hosting settings), or leave it empty for the default ${HOSTS.v2.apiBase}`;
}

/** What becomes of a V1 apiBase value: dropped, a serverURL (source text), and whether a person should look. */
type ServerUrl =
  | { kind: "drop"; note: string }
  | { kind: "set"; code: string; note: string; review?: string; env?: string };

/**
 * The serverURL for an apiBase `value` (a node of the options literal);
 * `read` is how the generated code reads the value when it is not a literal.
 */
function serverUrlFor(
  j: JSCodeshift,
  value: AnyNode,
  read: string | undefined,
  print: PrintOptions,
  compat: CompatName,
): ServerUrl {
  const literal = literalString(value);
  if (literal !== undefined) {
    if (literal === "" || DEFAULT_BASES.has(literal)) {
      return {
        kind: "drop",
        note:
          literal === ""
            ? "empty apiBase dropped (V1 used its default)"
            : `apiBase ${literal} dropped: V2's default server is ${HOSTS.v2.apiBase}`,
      };
    }
    const url = `${literal}/api`;
    const q = print.quote === "single" ? "'" : '"';
    const code = `${q}${url.replace(/\\/g, "\\\\").replace(new RegExp(q, "g"), `\\${q}`)}${q}`;
    if (V2_BASES.has(literal)) return { kind: "set", code, note: `apiBase ${literal} → serverURL ${url}` };
    return {
      kind: "set",
      code,
      note: `apiBase ${literal} → serverURL ${url}`,
      review: `apiBase ${literal} became serverURL "${url}" (V1 appended /api, V2 does not): check that it serves the V2 API (${HOSTS.v2.apiBase} is the default)`,
    };
  }
  const text = read ?? printedNode(j, value, print);
  const name = compat();
  const variable = envVariableOf(value);
  return {
    kind: "set",
    code: `${name}.serverUrlFromApiBase(${text})`,
    note: `apiBase → serverURL: ${name}.serverUrlFromApiBase(${text})`,
    review: envAdvice(variable, name),
    ...(variable ? { env: variable } : {}),
  };
}

/**
 * Rewrites a V1 options object literal in place. Only `apiToken` and
 * `apiBase` are understood; anything else (spreads, other keys, getters)
 * leaves the object untouched and reports why.
 */
export function rewriteOptionsObject(
  j: JSCodeshift,
  object: AnyNode,
  print: PrintOptions,
  compat: CompatName,
): OptionsOutcome {
  const unsupported = unsupportedOptions(object);
  if (unsupported) return { kind: "unsupported", reason: unsupported };
  const notes: string[] = [];
  let review: string | undefined;
  let env: string | undefined;
  const kept: AnyNode[] = [];
  for (const prop of object.properties as AnyNode[]) {
    if (keyName(prop) === "apiToken") {
      prop.shorthand = false;
      prop.key = j.identifier(OPTIONS.apiToken);
      notes.push(`apiToken → ${OPTIONS.apiToken}`);
      kept.push(prop);
      continue;
    }
    const url = serverUrlFor(j, prop.value as AnyNode, undefined, print, compat);
    notes.push(url.note);
    if (url.kind === "drop") continue;
    prop.shorthand = false;
    prop.key = j.identifier(OPTIONS.apiBase);
    prop.value = expressionFrom(j, url.code);
    review ??= url.review;
    env ??= url.env;
    kept.push(prop);
  }
  const dropped = kept.length < (object.properties as AnyNode[]).length;
  object.properties = kept;
  const outcome: OptionsOutcome = { kind: "rewritten", notes, ...(review ? { review } : {}), ...(env ? { env } : {}) };
  // recast would print the shortened object over several lines: a one-line object stays on one line.
  if (dropped && isOneLine(object)) {
    const parts = kept.map((prop) => printedNode(j, prop, print));
    outcome.replacement = expressionFrom(j, parts.length > 0 ? `{ ${parts.join(", ")} }` : "{}");
  }
  return outcome;
}

function isOneLine(node: AnyNode): boolean {
  const loc = node.loc as { start: { line: number }; end: { line: number } } | undefined;
  return loc !== undefined && loc.start.line === loc.end.line;
}

/** Why an options literal cannot be mapped, or undefined when it holds only apiToken and apiBase. */
function unsupportedOptions(object: AnyNode): string | undefined {
  for (const prop of object.properties as AnyNode[]) {
    if (!isPlainProperty(prop)) return "the options object has spreads, methods or accessors";
    const name = keyName(prop);
    if (!name || !(V1_OPTION_KEYS as readonly string[]).includes(name)) {
      return `the option ${name ?? "(computed)"} has no V2 counterpart here (V1 ignored it, V2 may not)`;
    }
  }
  return undefined;
}

/** Keys of an object literal when every property is a plain, non-computed one; undefined otherwise. */
export function plainKeys(object: AnyNode): string[] | undefined {
  const keys: string[] = [];
  for (const prop of object.properties as AnyNode[]) {
    if (!isPlainProperty(prop)) return undefined;
    const name = keyName(prop);
    if (!name) return undefined;
    keys.push(name);
  }
  return keys;
}

/**
 * Options held in a `const` whose object literal is in view: `{ bearer:
 * opts.apiToken, serverURL: … }` reads the same two keys V1 read, at the same
 * moment; a literal apiBase follows the literal rules.
 */
export function optionsFromVariable(
  j: JSCodeshift,
  name: string,
  object: AnyNode,
  print: PrintOptions,
  compat: CompatName,
): OptionsOutcome & { node?: AnyNode } {
  const unsupported = unsupportedOptions(object);
  if (unsupported) return { kind: "unsupported", reason: unsupported };
  const parts = [`${OPTIONS.apiToken}: ${name}.apiToken`];
  const notes = [`apiToken → ${OPTIONS.apiToken}: ${name}.apiToken`];
  let review: string | undefined;
  let env: string | undefined;
  const base = (object.properties as AnyNode[]).find((p) => keyName(p) === "apiBase");
  if (base) {
    const url = serverUrlFor(j, base.value as AnyNode, `${name}.apiBase`, print, compat);
    notes.push(url.note);
    if (url.kind === "set") {
      parts.push(`${OPTIONS.apiBase}: ${url.code}`);
      review = url.review;
      env = url.env;
    }
  }
  const node = expressionFrom(j, `{ ${parts.join(", ")} }`);
  return { kind: "rewritten", notes, node, ...(review ? { review } : {}), ...(env ? { env } : {}) };
}
