/**
 * Values the resolver reaches through objects rather than plain names:
 * another module's constant (`settings.API_BASE` with `from . import
 * settings`), a settings or config object's field (`settings.base_url` with
 * `settings = Settings()` and `base_url: str = "…"` in the class body, a
 * keyword given to the constructor, a dataclass default, `self.base_url`
 * set in `__init__`), an annotated attribute's class (`config: ClientConfig`
 * in a dataclass), and the helpers whose return value builds a URL.
 */
import { HOLE } from "../../core/urls.js";
import { classAt, classAttribute, classNamed, methodNamed, type PyClass } from "./classes.js";
import type { PyDef, PyModule } from "./module.js";
import { settingsFieldVariables } from "./settings-classes.js";
import type { PyRange } from "./syntax.js";
import type { PyValues } from "./values.js";

/** What an imported local name is: a module (no `name`), or a name defined in one. */
export type PyLink = (local: string) => { values: PyValues; name?: string } | undefined;

type PyObject =
  | { kind: "module"; values: PyValues }
  | { kind: "instance"; values: PyValues; cls: PyClass; call?: { values: PyValues; open: number } };

const MAX_DEPTH = 12;
/** Module scope: an offset before every line. */
const MODULE_SCOPE = -1;

/** The value of a name (imported) or a dotted attribute chain that plain assignments do not resolve. */
export function memberValue(values: PyValues, segments: readonly string[], offset: number, depth: number): string {
  if (depth > MAX_DEPTH) return HOLE;
  if (segments.length === 1) {
    const target = values.link?.(segments[0]!);
    return target?.name !== undefined ? moduleValue(target.values, target.name, depth + 1) : HOLE;
  }
  const owner = objectOf(values, segments.slice(0, -1), offset, depth + 1);
  return owner ? attributeValue(owner, segments[segments.length - 1]!, depth + 1) : HOLE;
}

/** An attribute chain read off a call's result (`get_settings().comfy_base`, `Settings().api.url`). */
export function resultAttributeValue(
  values: PyValues,
  callee: readonly string[],
  attributes: readonly string[],
  depth: number,
): string {
  let owner: PyObject | undefined = instanceOf(values, callee, depth + 1) ?? returnedObject(values, callee, depth + 1);
  for (const name of attributes.slice(0, -1)) {
    const found = owner?.kind === "instance" ? attributeRange(owner, name) : undefined;
    owner = found && objectOfValue(found.values, found.range, depth + 1);
  }
  return owner ? attributeValue(owner, attributes[attributes.length - 1]!, depth + 1) : HOLE;
}

/** The value under `key` of the dict a local or module name holds (`COMFY`, `settings.COMFY`, imported either way). */
export function entryValue(
  values: PyValues,
  segments: readonly string[],
  key: string,
  offset: number,
  depth: number,
): string {
  if (depth > MAX_DEPTH) return HOLE;
  if (segments.length === 1) {
    const assignment = values.module.resolve(segments[0]!, offset);
    if (assignment) return values.dictEntry(assignment.value, key, depth + 1);
    const target = values.link?.(segments[0]!);
    return target?.name !== undefined ? entryValue(target.values, [target.name], key, MODULE_SCOPE, depth + 1) : HOLE;
  }
  const module = segments.length === 2 ? values.link?.(segments[0]!) : undefined;
  return module && module.name === undefined
    ? entryValue(module.values, [segments[1]!], key, MODULE_SCOPE, depth + 1)
    : HOLE;
}

/** The helper a call names: a method of the class the call is in (`self._url(…)`), or a function of the module. */
export function helperOf(
  module: PyModule,
  segments: readonly string[],
  offset: number,
): { def: PyDef; method: boolean } | undefined {
  if (segments.length === 2 && (segments[0] === "self" || segments[0] === "cls")) {
    const cls = classAt(module, offset);
    const def = cls && methodNamed(module, cls, segments[1]!);
    return def ? { def, method: true } : undefined;
  }
  if (segments.length !== 1) return undefined;
  const fn = module.moduleFunction(segments[0]!);
  const def = fn && module.defs.get(fn.scope);
  return def ? { def, method: false } : undefined;
}

/** A module-level name's value, following re-exports. */
function moduleValue(values: PyValues, name: string, depth: number): string {
  if (depth > MAX_DEPTH) return HOLE;
  const assignment = values.module.resolve(name, MODULE_SCOPE);
  if (assignment) return values.valueAt(assignment.value, depth + 1);
  const target = values.link?.(name);
  return target?.name !== undefined ? moduleValue(target.values, target.name, depth + 1) : HOLE;
}

function objectOf(values: PyValues, segments: readonly string[], offset: number, depth: number): PyObject | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const module = values.module;
  const onSelf = segments.length === 2 && (segments[0] === "self" || segments[0] === "cls");
  if (segments.length === 1 || onSelf) {
    const assignment = module.resolve(onSelf ? `self.${segments[1]}` : segments[0]!, offset);
    if (assignment) return objectOfValue(values, assignment.value, depth + 1);
    if (onSelf) {
      // `config: ClientConfig` declared in the class body (a dataclass field, an annotated attribute).
      const cls = classAt(module, offset);
      const type = cls && classAttribute(module, cls, segments[1]!)?.type;
      return type ? instanceOf(values, type.split("."), depth + 1) : undefined;
    }
    const cls = classNamed(module, segments[0]!);
    if (cls) return { kind: "instance", values, cls };
    const target = values.link?.(segments[0]!);
    if (!target) return undefined;
    return target.name === undefined
      ? { kind: "module", values: target.values }
      : objectOf(target.values, [target.name], MODULE_SCOPE, depth + 1);
  }
  const outer = objectOf(values, segments.slice(0, -1), offset, depth + 1);
  const last = segments[segments.length - 1]!;
  if (outer?.kind === "module") return objectOf(outer.values, [last], MODULE_SCOPE, depth + 1);
  const found = outer && attributeRange(outer, last);
  return found ? objectOfValue(found.values, found.range, depth + 1) : undefined;
}

/** The object an expression builds or names: `Settings()`, `httpx.Client(…)` aside (no class here), or another name. */
function objectOfValue(values: PyValues, range: PyRange, depth: number): PyObject | undefined {
  const module = values.module;
  const open = module.callSpanning(range);
  if (open !== undefined) {
    const callee = module.calleeOf(open);
    if (!callee || callee.receiverCall !== undefined) return undefined;
    const found = instanceOf(values, callee.segments, depth + 1);
    if (found) return { ...found, call: { values, open } };
    // `get_settings()` (an `lru_cache`d factory), `Depends(get_settings)`: what the function returns.
    const args = module.callArguments(open).positional;
    const dependency = callee.segments.join(".").endsWith("Depends") && args.length === 1 ? args[0] : undefined;
    const fn = dependency ? dottedOf(module, dependency) : callee.segments;
    return fn ? returnedObject(values, fn, depth + 1) : undefined;
  }
  const t = module.tokens;
  const segments: string[] = [];
  for (let i = range.lo; i < range.hi; i += 2) {
    if (t[i]?.kind !== "name" || (i + 1 < range.hi && t[i + 1]?.value !== ".")) return undefined;
    segments.push(t[i]!.value);
  }
  return segments.length > 0 ? objectOf(values, segments, t[range.lo]!.start, depth + 1) : undefined;
}

/** The object a function returns: a function of this module, or one imported from another. */
function returnedObject(values: PyValues, segments: readonly string[], depth: number): PyObject | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const fn = segments.length === 1 ? values.module.moduleFunction(segments[0]!) : undefined;
  if (fn) {
    for (const value of values.module.returnValues(fn.scope)) {
      const found = objectOfValue(values, value, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const target = values.link?.(segments[0]!);
  if (target?.name !== undefined && segments.length === 1)
    return returnedObject(target.values, [target.name], depth + 1);
  if (target && target.name === undefined && segments.length === 2)
    return returnedObject(target.values, [segments[1]!], depth + 1);
  return undefined;
}

function dottedOf(module: PyModule, range: PyRange): string[] | undefined {
  const t = module.tokens;
  const segments: string[] = [];
  for (let i = range.lo; i < range.hi; i += 2) {
    if (t[i]?.kind !== "name" || (i + 1 < range.hi && t[i + 1]?.value !== ".")) return undefined;
    segments.push(t[i]!.value);
  }
  return segments.length > 0 ? segments : undefined;
}

/** An instance of the class a dotted name names, here or in the module it is imported from. */
function instanceOf(
  values: PyValues,
  segments: readonly string[],
  depth: number,
): Extract<PyObject, { kind: "instance" }> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const here = segments.length === 1 ? classNamed(values.module, segments[0]!) : undefined;
  if (here) return { kind: "instance", values, cls: here };
  const target = values.link?.(segments[0]!);
  if (!target) return undefined;
  if (target.name !== undefined && segments.length === 1) return instanceOf(target.values, [target.name], depth + 1);
  if (target.name === undefined && segments.length === 2) return instanceOf(target.values, [segments[1]!], depth + 1);
  return undefined;
}

function attributeValue(owner: PyObject, name: string, depth: number): string {
  if (owner.kind === "module") return moduleValue(owner.values, name, depth);
  const found = attributeRange(owner, name);
  const value = found ? found.values.valueAt(found.range, depth + 1) : HOLE;
  if (value.replaceAll(HOLE, "").trim() !== "") return value;
  // A settings class's field with no default here: what the repository's env files set.
  const env = owner.values.sources?.env;
  for (const variable of (env && settingsFieldVariables(owner.values.module, owner.cls, name)) ?? []) {
    const set = env!(variable) ?? env!(variable.toUpperCase());
    if (set !== undefined) return set;
  }
  return value;
}

/** Where an instance's attribute gets its value: the constructor's keyword, the class body, `self.<name> = …` in a method, a base class. */
function attributeRange(
  owner: Extract<PyObject, { kind: "instance" }>,
  name: string,
  seen = new Set<PyClass>(),
): { values: PyValues; range: PyRange } | undefined {
  const keyword = owner.call?.values.module.callArguments(owner.call.open).keyword.get(name);
  if (keyword && owner.call) return { values: owner.call.values, range: keyword };
  const { values, cls } = owner;
  const module = values.module;
  const declared = classAttribute(module, cls, name)?.value;
  if (declared) return { values, range: declared };
  const assigned = module.assignments.get(`self.${name}`)?.find((a) => a.at > cls.start && a.at < cls.end);
  if (assigned) return { values, range: assigned.value };
  seen.add(cls);
  for (const base of cls.bases) {
    const parent = classNamed(module, base);
    if (parent && !seen.has(parent)) {
      const found = attributeRange({ kind: "instance", values, cls: parent }, name, seen);
      if (found) return found;
    }
  }
  return undefined;
}
