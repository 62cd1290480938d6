/**
 * Functions whose return value is a V1 SDK run call: `def fetch(run_id):
 * return client.run.get(run_id=run_id)`, or a name bound to one and
 * returned. A name assigned from a call of such a function holds a run
 * result as much as one assigned from the SDK call itself, whether the
 * function is in the same file or in another module of the repository that
 * the file imports (`from app.comfy import wait_for`, `from app import
 * comfy` … `comfy.wait_for(…)`, a package `__init__` re-exporting it).
 */
import type { PythonRunCall } from "../../../knowledge/python-sdk-shapes.js";
import type { PyModule } from "../../../lang/python/module.js";
import { isName } from "../../../lang/python/tokens.js";
import type { PyValues } from "../../../lang/python/values.js";
import { runCallAt } from "./sdk-imports.js";

/** The run call (as the caller decides it) each returning function name returns. */
export function runReturningFunctions<Call>(
  module: PyModule,
  runCallAt: (open: number) => Call | undefined,
): Map<string, Call> {
  const out = new Map<string, Call>();
  const t = module.tokens;
  for (const line of module.lines) {
    if (!isName(t[line.lo], "return") || line.hi - line.lo < 2) continue;
    const scopes = module.scopesAt(t[line.lo]!.start);
    const def = module.defs.get(scopes[scopes.length - 1]!);
    if (!def || out.has(def.name)) continue;
    const call = returnedCall(module, { lo: line.lo + 1, hi: line.hi }, runCallAt);
    if (call !== undefined) out.set(def.name, call);
  }
  return out;
}

function returnedCall<Call>(
  module: PyModule,
  range: { lo: number; hi: number },
  runCallAt: (open: number) => Call | undefined,
): Call | undefined {
  const open = module.callSpanning(range);
  if (open !== undefined) return runCallAt(open);
  // `res = client.run.get(...)` then `return res`.
  const name = module.tokens[range.lo];
  if (range.hi - range.lo !== 1 || name?.kind !== "name") return undefined;
  const assignment = module.resolve(name.value, name.start);
  const bound = assignment && module.callSpanning(assignment.value);
  return bound === undefined ? undefined : runCallAt(bound);
}

/** A run call another module makes and returns, with that module (whose imports say whether it is the SDK's). */
export interface ImportedRunCall {
  call: PythonRunCall;
  module: PyModule;
}

const MAX_DEPTH = 6;
const returnsByModule = new WeakMap<PyModule, Map<string, ImportedRunCall>>();

/** The run call that a call of `segments`, a function imported from another module, returns. */
export function importedRunReturn(
  values: PyValues,
  segments: readonly string[],
  depth = 0,
): ImportedRunCall | undefined {
  const target = depth <= MAX_DEPTH ? importedFunction(values, segments) : undefined;
  return target && returningIn(target.values, depth).get(target.name);
}

/** Run-returning functions of a module, a helper there calling one it imports in turn included. */
function returningIn(values: PyValues, depth: number): Map<string, ImportedRunCall> {
  const module = values.module;
  let found = returnsByModule.get(module);
  if (found) return found;
  returnsByModule.set(module, new Map()); // a cycle of imports finds nothing
  found = runReturningFunctions<ImportedRunCall>(module, (open) => {
    const call = runCallAt(module, open);
    if (call) return { call, module };
    const callee = module.calleeOf(open);
    return callee && callee.receiverCall === undefined
      ? importedRunReturn(values, callee.segments, depth + 1)
      : undefined;
  });
  returnsByModule.set(module, found);
  return found;
}

/**
 * The module-level function `f` of another repository module that a call of
 * `segments` here names: `f` imported by name, or `m.f` on an imported module,
 * followed through re-exports (`from .comfy import wait_for` in `__init__.py`).
 */
export function importedFunction(
  values: PyValues,
  segments: readonly string[],
): { values: PyValues; name: string } | undefined {
  if (segments.length > 2 || values.module.moduleFunction(segments[0]!)) return undefined;
  const bound = values.link?.(segments[0]!);
  if (!bound) return undefined;
  if (segments.length === 2 && bound.name !== undefined) return undefined;
  let here: PyValues = bound.values;
  let name = segments.length === 2 ? segments[1] : bound.name;
  for (let hop = 0; name !== undefined && hop < MAX_DEPTH; hop++) {
    if (here.module.moduleFunction(name)) return { values: here, name };
    // Not defined there: re-exported from a module that module imports.
    const next: { values: PyValues; name?: string } | undefined = here.link?.(name);
    if (!next) return undefined;
    here = next.values;
    name = next.name;
  }
  return undefined;
}
