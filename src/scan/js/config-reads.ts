/**
 * Reads of an app's configuration by key, `config.get("comfy.baseUrl")`:
 * node-config (`require("config")`, whose values live in config/default.json
 * or .js), NestJS's ConfigService (the objects `registerAs("comfy", () => ({…}))`
 * and `ConfigModule.forRoot({ load: [factory] })` give it, and the env files),
 * then the reader's own default (`get("COMFY_API", "https://…")`). The
 * repository's Nest config factories are looked for once, on the first read
 * through a parameter typed ConfigService.
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { type FileContext, unwrap } from "./file-context.js";
import { returnedExpressions } from "./call-returns.js";
import { jsonDocument } from "./json-modules.js";
import { isSenderFunction } from "./v1-senders.js";
import type { Values } from "./values.js";

type Located = { context: FileContext; expr: ts.Expression };
/** An object of config values and the key prefix it answers (`comfy` for a `registerAs("comfy", …)` namespace). */
type ConfigRoot = { prefix: string; value: Located };

const SOURCE_FILE = /\.[cm]?[jt]s$/;
const NEST_CONFIG_TEXT = /\bregisterAs\s*(?:<[^>]*>)?\s*\(|\bload\s*:/;
/** node-config's default file, in the repository's (or a package's) config folder. */
const NODE_CONFIG_FILE = /(?:^|\/)config\/default\.(?:json|[cm]?js|ts)$/;

/** `config.get(…)`, `this.configService.get(…)`, `getOrThrow`: a config reader (Nest's ConfigService, node-config). */
export function isConfigRead(callee: ts.PropertyAccessExpression): boolean {
  if (callee.name.text !== "get" && callee.name.text !== "getOrThrow") return false;
  const owner = unwrap(callee.expression);
  const name = ts.isIdentifier(owner) ? owner.text : ts.isPropertyAccessExpression(owner) ? owner.name.text : "";
  return /config/i.test(name);
}

/** The string a config read gives (HOLE when unknown), undefined when the call is not a config read. */
export function configReadString(
  values: Values,
  call: ts.CallExpression,
  context: FileContext,
  consume: Set<ts.Node> | null,
  depth: number,
): string | undefined {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || !isConfigRead(callee)) return undefined;
  const [name, fallback] = call.arguments;
  const key = values.staticString(name, context);
  if (key !== undefined) {
    for (const root of configRoots(values, callee.expression, context)) {
      const found = valueAtPath(values, root, key);
      const text = found ? values.stringValue(found.expr, found.context, consume, depth + 1) : HOLE;
      if (!text.startsWith(HOLE)) return text;
    }
    // `config.get("COMFY_API")`: an env variable the repository's env files set.
    const set = values.envValue(key);
    if (set !== undefined) return set;
  }
  // `get("COMFY_API", "https://…")`; an options object (`{ infer: true }`) is no default.
  if (fallback && !ts.isObjectLiteralExpression(unwrap(fallback)))
    return values.stringValue(fallback, context, consume, depth + 1);
  return HOLE;
}

/**
 * `@Inject(comfyConfig.KEY) private readonly comfy: ConfigType<typeof comfyConfig>`:
 * the object the injected `registerAs` namespace's factory returns.
 */
export function injectedConfig(
  values: Values,
  param: ts.ParameterDeclaration,
  context: FileContext,
): Located | undefined {
  for (const decorator of ts.canHaveDecorators(param) ? (ts.getDecorators(param) ?? []) : []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.expression.text !== "Inject") continue;
    const key = call.arguments[0] && unwrap(call.arguments[0]);
    if (!key || !ts.isPropertyAccessExpression(key) || key.name.text !== "KEY" || !ts.isIdentifier(key.expression))
      continue;
    const value = values.valueOf(values.definitionOf(key.expression, context));
    const registered = value && namespaceOf(values, value.expr, value.context);
    if (registered) return registered.value;
  }
  return undefined;
}

export const NODE_CONFIG_MODULE = "config";

/** node-config's values: the object in config/default.json (or .js). */
export function nodeConfigRoot(values: Values): Located | undefined {
  return nodeConfigRoots(values)[0]?.value;
}

function configRoots(values: Values, owner: ts.Expression, context: FileContext): ConfigRoot[] {
  const e = unwrap(owner);
  if (ts.isIdentifier(e)) {
    const def = values.definitionOf(e, context);
    if (def?.kind === "external" && def.module === NODE_CONFIG_MODULE) return nodeConfigRoots(values);
  }
  return isNestConfigService(owner, context) ? nestConfigRoots(values) : [];
}

/** The value under a dotted key (`comfy.baseUrl`), walking object literals from the root. */
function valueAtPath(values: Values, root: ConfigRoot, key: string): Located | undefined {
  let rest = key;
  if (root.prefix) {
    if (!key.startsWith(`${root.prefix}.`)) return undefined;
    rest = key.slice(root.prefix.length + 1);
  }
  let current: Located | undefined = root.value;
  for (const part of rest.split(".")) {
    const object: ReturnType<Values["objectLiteral"]> = current && values.objectLiteral(current.expr, current.context);
    current = values.property(object, part);
  }
  return current;
}

/** A parameter or field typed `ConfigService` (the name is NestJS's), reached directly or as `this.<member>`. */
function isNestConfigService(owner: ts.Expression, context: FileContext): boolean {
  const e = unwrap(owner);
  let declarations: ts.Node[] = [];
  if (ts.isIdentifier(e)) declarations = [context.resolve(e)].filter((d): d is ts.Node => d !== undefined);
  else if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
    for (const members of context.classMembers.values()) declarations.push(...(members.get(e.name.text) ?? []));
  }
  return declarations.some(
    (d) =>
      (ts.isParameter(d) || ts.isPropertyDeclaration(d)) &&
      d.type !== undefined &&
      ts.isTypeReferenceNode(d.type) &&
      ts.isIdentifier(d.type.typeName) &&
      d.type.typeName.text === "ConfigService",
  );
}

const nodeConfigCache = new WeakMap<Values, ConfigRoot[]>();
const nestConfigCache = new WeakMap<Values, ConfigRoot[]>();

/** node-config's config/default.json (or .js): the first such file by path. */
function nodeConfigRoots(values: Values): ConfigRoot[] {
  let roots = nodeConfigCache.get(values);
  if (roots) return roots;
  roots = [];
  const { project } = values;
  const file = [...project.files].filter((f) => NODE_CONFIG_FILE.test(f) && !f.includes("node_modules/")).sort()[0];
  if (file?.endsWith(".json")) {
    const doc = jsonDocument(project, file);
    if (doc) roots.push({ prefix: "", value: { context: doc.context, expr: doc.node } });
  } else if (file) {
    const value = values.valueOf(values.exportDefinition(file, "default"));
    if (value) roots.push({ prefix: "", value });
  }
  nodeConfigCache.set(values, roots);
  return roots;
}

/** The repository's `registerAs` namespaces and `ConfigModule.forRoot({ load })` factories, by path. */
function nestConfigRoots(values: Values): ConfigRoot[] {
  let roots = nestConfigCache.get(values);
  if (roots) return roots;
  roots = [];
  const { project } = values;
  for (const file of [...project.files].filter((f) => SOURCE_FILE.test(f) && !f.includes("node_modules/")).sort()) {
    const text = project.textOf(file);
    if (!text || !NEST_CONFIG_TEXT.test(text)) continue;
    const context = project.contextFor(file);
    for (const call of context?.calls ?? []) {
      const namespace = context && namespaceOf(values, call, context);
      if (namespace) roots.push(namespace);
      else if (context) roots.push(...loadedFactories(values, call, context));
    }
  }
  nestConfigCache.set(values, roots);
  return roots;
}

/** `registerAs("comfy", () => ({ baseUrl: … }))`: the namespace and the object its factory returns. */
function namespaceOf(values: Values, expr: ts.Expression, context: FileContext): ConfigRoot | undefined {
  const call = unwrap(expr);
  if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.expression.text !== "registerAs")
    return undefined;
  const [name, factory] = call.arguments;
  const prefix = values.staticString(name, context);
  const value = prefix && factory ? factoryObject(values, factory, context) : undefined;
  return prefix && value ? { prefix, value } : undefined;
}

/** `ConfigModule.forRoot({ load: [configuration] })`: each plain factory's object, at the root of the keys. */
function loadedFactories(values: Values, call: ts.CallExpression, context: FileContext): ConfigRoot[] {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || !callee.name.text.startsWith("forRoot")) return [];
  const load = values.property(values.objectLiteral(call.arguments[0], context), "load");
  const list = load && unwrap(load.expr);
  if (!load || !list || !ts.isArrayLiteralExpression(list)) return [];
  const roots: ConfigRoot[] = [];
  for (const element of list.elements) {
    const value = factoryObject(values, element, load.context);
    if (value) roots.push({ prefix: "", value });
  }
  return roots;
}

/** The object a config factory returns: an arrow or function, given directly or by name. */
function factoryObject(values: Values, expr: ts.Expression, context: FileContext): Located | undefined {
  let fn: ts.Node = unwrap(expr);
  let at = context;
  if (ts.isIdentifier(fn)) {
    const def = values.definitionOf(fn, context);
    if (def?.kind !== "node") return undefined;
    const value = isSenderFunction(def.node) ? undefined : values.valueOf(def);
    fn = value ? unwrap(value.expr) : def.node;
    at = value ? value.context : def.context;
  }
  if (!isSenderFunction(fn)) return undefined;
  for (const returned of returnedExpressions(fn)) {
    const object = values.objectLiteral(returned, at);
    if (object) return { context: object.context, expr: object.object };
  }
  return undefined;
}
