/**
 * Where the HTTP client a request goes out on was built, so its `base_url`
 * is known: a client held in a local, a module global (here or imported), an
 * instance or class attribute (set in `__init__`, `__aenter__`, `startup`),
 * a `@property` / `@cached_property` returning it, or a factory function
 * returning it (`async with make_client() as client`), with `or` defaults
 * (`client or httpx.AsyncClient(…)`) followed. HTTP clients by default; a
 * caller may look for another kind of client (the SDK's) with its own test.
 */
import { classAt, methodNamed } from "./classes.js";
import type { PyModule } from "./module.js";
import { passedArguments } from "./passed-arguments.js";
import type { PyRange } from "./syntax.js";
import { isName, isOp } from "./tokens.js";
import type { PyValues } from "./values.js";

/** Client classes whose `base_url` prefixes relative request URLs (httpx, aiohttp, requests-like sessions). */
export const CLIENT_FACTORIES: ReadonlySet<string> = new Set([
  "Client",
  "AsyncClient",
  "ClientSession",
  "Session",
  "AsyncSession",
  "BaseUrlSession",
]);

const MAX_DEPTH = 8;
/** Module scope: an offset before every line. */
const MODULE_SCOPE = -1;

/** Whether the call at `open` builds a client of the kind looked for. */
export type IsConstruction = (values: PyValues, open: number) => boolean;

/** An HTTP client class (CLIENT_FACTORIES) by its name. */
const httpClientCall: IsConstruction = (values, open) =>
  CLIENT_FACTORIES.has(values.module.calleeOf(open)?.segments.at(-1) ?? "");

/** A client class's construction: the module it is in and its call's `(`. */
export interface ClientConstruction {
  values: PyValues;
  open: number;
}

/** The `base_url` a construction gives its client (aiohttp's `ClientSession` also takes it first). */
export function constructionBase(found: ClientConstruction): string | undefined {
  const module = found.values.module;
  const callee = module.calleeOf(found.open);
  const args = module.callArguments(found.open);
  const base =
    args.keyword.get("base_url") ?? (callee?.segments.at(-1) === "ClientSession" ? args.positional[0] : undefined);
  return base ? found.values.stringOf(base) : undefined;
}

/** The construction of the client a receiver (`client`, `self._http`) holds where it is used at `offset`. */
export function clientConstruction(
  values: PyValues,
  receiver: readonly string[],
  offset: number,
  depth = 0,
  isClient: IsConstruction = httpClientCall,
): ClientConstruction | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const module = values.module;
  const onSelf = receiver.length === 2 && (receiver[0] === "self" || receiver[0] === "cls");
  if (receiver.length !== 1 && !onSelf) return undefined;
  const key = onSelf ? `self.${receiver[1]}` : receiver[0]!;
  const assignment = module.resolve(key, offset);
  if (assignment) return constructionIn(values, assignment.value, depth + 1, isClient);
  if (onSelf) {
    // `@cached_property def client(self): return httpx.AsyncClient(…)`.
    const cls = classAt(module, offset);
    const getter = cls && methodNamed(module, cls, receiver[1]!);
    return getter ? returnedConstruction(values, getter.scope, depth + 1, isClient) : undefined;
  }
  const target = values.link?.(receiver[0]!);
  if (target?.name !== undefined)
    return clientConstruction(target.values, [target.name], MODULE_SCOPE, depth + 1, isClient);
  return passedConstruction(values, receiver[0]!, offset, depth + 1, isClient);
}

/**
 * A parameter with no default (`def __init__(self, http: httpx.AsyncClient)`):
 * the client its callers in the package pass (`ComfyAPI(http)` in `main()`),
 * when they all pass clients built on the same base.
 */
function passedConstruction(
  values: PyValues,
  name: string,
  offset: number,
  depth: number,
  isClient: IsConstruction,
): ClientConstruction | undefined {
  if (depth > MAX_DEPTH / 2) return undefined;
  let found: ClientConstruction | undefined;
  for (const arg of passedArguments(values, name, offset) ?? []) {
    const passed = constructionIn(arg.values, arg.range, depth + 1, isClient);
    if (!passed) continue;
    if (found && constructionBase(found) !== constructionBase(passed)) return undefined;
    found = passed;
  }
  return found;
}

/** The construction a call at `open` makes or returns. */
export function constructionAtCall(
  values: PyValues,
  open: number,
  depth = 0,
  isClient: IsConstruction = httpClientCall,
): ClientConstruction | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const module = values.module;
  const callee = module.calleeOf(open);
  if (!callee) return undefined;
  const segments = callee.segments;
  if (isClient(values, open)) return { values, open };
  if (callee.receiverCall !== undefined) return undefined;
  if (segments.length === 2 && (segments[0] === "self" || segments[0] === "cls")) {
    const cls = classAt(module, module.tokens[open]!.start);
    const method = cls && methodNamed(module, cls, segments[1]!);
    return method ? returnedConstruction(values, method.scope, depth + 1, isClient) : undefined;
  }
  if (segments.length !== 1) return undefined;
  const fn = module.moduleFunction(segments[0]!);
  if (fn) return returnedConstruction(values, fn.scope, depth + 1, isClient);
  const target = values.link?.(segments[0]!);
  const there = target?.name !== undefined ? target.values.module.moduleFunction(target.name) : undefined;
  return target && there ? returnedConstruction(target.values, there.scope, depth + 1, isClient) : undefined;
}

function returnedConstruction(
  values: PyValues,
  scope: number,
  depth: number,
  isClient: IsConstruction,
): ClientConstruction | undefined {
  for (const value of values.module.returnValues(scope)) {
    const found = constructionIn(values, value, depth + 1, isClient);
    if (found) return found;
  }
  return undefined;
}

/** The construction an expression makes or names: a call, a name holding one, `a or b`. */
function constructionIn(
  values: PyValues,
  range: PyRange,
  depth: number,
  isClient: IsConstruction,
): ClientConstruction | undefined {
  if (depth > MAX_DEPTH || range.hi <= range.lo) return undefined;
  const module = values.module;
  const t = module.tokens;
  const alternatives = orAlternatives(module, range);
  if (alternatives.length > 1) {
    for (const alternative of alternatives) {
      const found = constructionIn(values, alternative, depth + 1, isClient);
      if (found) return found;
    }
    return undefined;
  }
  const open = module.callSpanning(range);
  if (open !== undefined) return constructionAtCall(values, open, depth + 1, isClient);
  const lo = isName(t[range.lo], "await") ? range.lo + 1 : range.lo;
  const names = dottedNames(module, lo, range.hi);
  return names ? clientConstruction(values, names, t[lo]!.start, depth + 1, isClient) : undefined;
}

function orAlternatives(module: PyModule, range: PyRange): PyRange[] {
  const parts: PyRange[] = [];
  let start = range.lo;
  for (let i = range.lo; i < range.hi; i++) {
    const partner = module.partner(i);
    if (partner > i) i = partner;
    else if (isName(module.tokens[i], "or")) {
      parts.push({ lo: start, hi: i });
      start = i + 1;
    }
  }
  parts.push({ lo: start, hi: range.hi });
  return parts;
}

function dottedNames(module: PyModule, lo: number, hi: number): string[] | undefined {
  const names: string[] = [];
  for (let i = lo; i < hi; i += 2) {
    if (module.tokens[i]?.kind !== "name" || (i + 1 < hi && !isOp(module.tokens[i + 1], "."))) return undefined;
    names.push(module.tokens[i]!.value);
  }
  return names.length > 0 ? names : undefined;
}
