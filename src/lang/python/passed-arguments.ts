/**
 * What the callers in the package pass for a parameter with no default: the
 * arguments of every call of the class (`__init__`'s parameters) or the
 * module function the parameter belongs to. Values followed this way are
 * taken only when every caller agrees.
 */
import { HOLE } from "../../core/urls.js";
import { classAt } from "./classes.js";
import type { PyRange } from "./syntax.js";
import type { PyValues } from "./values.js";

const MAX_DEPTH = 8;

/** The argument each call in the package gives `name`, a parameter of the function enclosing `offset`. */
export function passedArguments(
  values: PyValues,
  name: string,
  offset: number,
): Array<{ values: PyValues; range: PyRange }> | undefined {
  const module = values.module;
  const scopes = module.scopesAt(offset);
  const def = module.defs.get(scopes[scopes.length - 1]!);
  const index = def?.parameters.findIndex((p) => p.name === name) ?? -1;
  if (!def || index < 0 || def.parameters[index]!.default) return undefined;
  const cls = def.name === "__init__" ? classAt(module, def.start) : undefined;
  if (!cls && scopes.length !== 2) return undefined;
  const position = cls ? index - 1 : index;
  const out: Array<{ values: PyValues; range: PyRange }> = [];
  for (const site of values.sources?.callers?.(cls ? cls.name : def.name) ?? []) {
    const args = site.values.module.callArguments(site.open);
    const range = args.keyword.get(name) ?? args.positional[position];
    if (range) out.push({ values: site.values, range });
  }
  return out;
}

/**
 * The value every call of the class passes for a constructor parameter with
 * no default (`ComfyAPI(base_url=settings.COMFY_API_URL)` for
 * `def __init__(self, base_url)`), when it is a ComfyDeploy API base
 * (`PySources.isApiBase`): other bases stay unknown, as they were.
 */
export function passedValue(values: PyValues, name: string, offset: number, depth: number): string | undefined {
  const module = values.module;
  const scopes = module.scopesAt(offset);
  if (depth > MAX_DEPTH || module.defs.get(scopes[scopes.length - 1]!)?.name !== "__init__") return undefined;
  let found: string | undefined;
  for (const arg of passedArguments(values, name, offset) ?? []) {
    const value = arg.values.valueAt(arg.range, depth + 1);
    if (value.includes(HOLE) || (found !== undefined && found !== value)) return undefined;
    found = value;
  }
  return found !== undefined && values.sources?.isApiBase?.(found) ? found : undefined;
}
