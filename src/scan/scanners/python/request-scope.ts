/**
 * What a Python file says about the base of a V1-shaped request the scanner
 * could not resolve: whether it is a parameter of the enclosing function
 * (the caller decides it), and the class or module the request sits in,
 * for the repository-level evidence in `../../held-base.ts`.
 */
import { classAt } from "../../../lang/python/classes.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { PyRange } from "../../../lang/python/syntax.js";
import type { BaseOrigin, RequestScope } from "../../held-base.js";

/** How many local bindings (`url = f"{base}/run"`) are followed back to the base. */
const MAX_DEPTH = 4;

/** The request whose URL is `url`, sent by the call opening at token `open`. */
export function pythonRequestScope(module: PyModule, file: string, url: PyRange, open: number): RequestScope {
  const at = module.tokens[open]!.start;
  const cls = classAt(module, at);
  return {
    file,
    fileText: module.text,
    scopeText: cls ? module.text.slice(cls.start, cls.end) : module.text,
    ...(cls ? { scopeName: cls.name } : {}),
    urlText: textOf(module, url),
    origin: originOf(module, url, parametersAt(module, at)),
  };
}

function originOf(module: PyModule, url: PyRange, parameters: ReadonlySet<string>, depth = 0): BaseOrigin {
  const t = module.tokens;
  // `f"{base}/run"`, `base + "/run"`, `"{}/run".format(base)` aside: a member (`settings.base`) is not the caller's.
  const text = textOf(module, url);
  const name =
    /^[rRbBuU]?[fF][rR]?["']{1,3}\{\s*([A-Za-z_]\w*)\s*[}!:=]/.exec(text)?.[1] ??
    /^([A-Za-z_]\w*)\s*\+/.exec(text)?.[1] ??
    (url.hi - url.lo === 1 && t[url.lo]!.kind === "name" ? t[url.lo]!.value : undefined);
  if (name === undefined) return "unresolved";
  if (parameters.has(name)) return "parameter";
  const local = module.resolve(name, t[url.lo]!.start);
  return local?.value && depth < MAX_DEPTH ? originOf(module, local.value, parameters, depth + 1) : "unresolved";
}

/** The parameter names of the function the offset is in (none at module level). */
function parametersAt(module: PyModule, offset: number): Set<string> {
  const scopes = module.scopesAt(offset);
  const def = module.defs.get(scopes[scopes.length - 1]!);
  return new Set(def?.parameters.map((p) => p.name) ?? []);
}

function textOf(module: PyModule, range: PyRange): string {
  const t = module.tokens;
  return module.text.slice(t[range.lo]!.start, t[range.hi - 1]!.end);
}
