/**
 * Local copies of the V1 client in Python (a port of the JS client pasted
 * into `vendor/`): a class with the V1 client's method names (`run`,
 * `get_run`, …) that sends V1's get-run request. The class is reported at
 * its declaration; app code that imports it from another module of the
 * repository is reported where it switches to V2: the import, the
 * construction, and the calls of V1 methods on the instance.
 */
import { posix } from "node:path";
import { V1_CLIENT_METHODS } from "../../../knowledge/migration.js";
import type { PyModule } from "../../../lang/python/module.js";
import { isName, isOp } from "../../../lang/python/tokens.js";
import type { RuleId } from "../../../rules/catalog.js";
import type { EndpointUse } from "./http.js";

export interface VendoredUse {
  start: number;
  end: number;
  ruleId: RuleId;
  /** The class's name, or the V1 method called. */
  name: string;
}

/** V1 client method names, also in Python's spelling (`get_run`). */
const V1_METHODS: ReadonlySet<string> = new Set(V1_CLIENT_METHODS.flatMap((m) => [m.v1, m.v1.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]));
const COMFY_NAME = /comfy/i;

/** Classes of this module that copy the V1 client, by name, with the offsets of the name. */
export function vendoredClasses(module: PyModule, endpoints: readonly EndpointUse[]): Map<string, { start: number; end: number }> {
  const t = module.tokens;
  const out = new Map<string, { start: number; end: number }>();
  module.lines.forEach((line, index) => {
    if (!isName(t[line.lo], "class") || !isName(t[line.lo + 1])) return;
    const name = t[line.lo + 1]!;
    const indent = indentOf(module, t[line.lo]!.start);
    let end = module.text.length;
    const methods = new Set<string>();
    for (const next of module.lines.slice(index + 1)) {
      const first = t[next.lo]!;
      if (indentOf(module, first.start) <= indent) {
        end = first.start;
        break;
      }
      const def = isName(first, "async") ? next.lo + 1 : next.lo;
      if (isName(t[def], "def") && V1_METHODS.has(t[def + 1]?.value ?? "")) methods.add(t[def + 1]!.value);
    }
    if (methods.size === 0 || (methods.size < 2 && !COMFY_NAME.test(name.value))) return;
    const getsRuns = endpoints.some((use) => use.endpoint === "get-run" && t[use.range.lo]!.start > name.end && t[use.range.lo]!.start < end);
    if (getsRuns) out.set(name.value, { start: name.start, end: name.end });
  });
  return out;
}

/** The repository file a dotted module name (`vendor.comfydeploy_client`) names, from the importing file or the root. */
export function moduleFile(dotted: string, importer: string, files: readonly string[]): string | undefined {
  const relative = dotted.replace(/^\.+/, "");
  const dots = dotted.length - relative.length;
  const path = relative.split(".").join("/");
  const candidates: string[] = [];
  if (dots > 0) {
    let dir = posix.dirname(importer);
    for (let i = 1; i < dots; i++) dir = posix.dirname(dir);
    candidates.push(posix.join(dir, path));
  } else {
    // Absolute imports from the repository root or from any source root above the importer (`src/`).
    for (let dir = posix.dirname(importer); ; dir = posix.dirname(dir)) {
      candidates.push(dir === "." ? path : `${dir}/${path}`);
      if (dir === "." || dir === "/") break;
    }
  }
  const set = new Set(files);
  for (const candidate of candidates) {
    for (const file of [`${candidate}.py`, `${candidate}/__init__.py`]) if (set.has(file)) return file;
  }
  return undefined;
}

/**
 * Where a module uses a vendored class of another module: `from m import C`
 * lines, `C(...)` calls, and V1 method calls on a name bound to one (or on
 * a call of a function of this module that returns such a name).
 */
export function vendoredUses(module: PyModule, importedClass: (moduleName: string, name: string) => boolean): VendoredUse[] {
  const t = module.tokens;
  const uses: VendoredUse[] = [];
  const locals = new Set<string>();
  for (const line of module.lines) {
    if (!isName(t[line.lo], "from")) continue;
    let i = line.lo + 1;
    let dotted = "";
    while (i < line.hi && !isName(t[i], "import")) dotted += t[i++]!.value;
    let imported = false;
    for (let k = i + 1; k < line.hi; k++) {
      if (!isName(t[k]) || isName(t[k], "as") || isName(t[k - 1], "as") || !importedClass(dotted, t[k]!.value)) continue;
      imported = true;
      locals.add(isName(t[k + 1], "as") && isName(t[k + 2]) ? t[k + 2]!.value : t[k]!.value);
    }
    if (imported) uses.push({ start: t[line.lo]!.start, end: t[line.hi - 1]!.end, ruleId: "v1-sdk-import", name: dotted });
  }
  if (locals.size === 0) return uses;
  const constructors = new Set<number>();
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    if (callee?.receiverCall === undefined && callee?.segments.length === 1 && locals.has(callee.segments[0]!)) {
      constructors.add(open);
      uses.push({ start: t[callee.start]!.start, end: t[module.partner(open)]?.end ?? t[open]!.end, ruleId: "v1-sdk-client", name: callee.segments[0]! });
    }
  }
  const clientKeys = new Set<string>();
  for (const list of module.assignments.values()) {
    for (const assignment of list) {
      const open = module.callSpanning(assignment.value);
      if (open !== undefined && constructors.has(open)) clientKeys.add(assignment.key);
    }
  }
  const isClient = (segments: string[], receiverCall: number | undefined): boolean => {
    if (receiverCall !== undefined) {
      if (constructors.has(receiverCall)) return true;
      // `comfy().run(...)` with `def comfy(): … return _client`.
      const factory = module.calleeOf(receiverCall);
      const fn = factory && factory.segments.length === 1 && factory.receiverCall === undefined ? module.moduleFunction(factory.segments[0]!) : undefined;
      return fn !== undefined && module.returnValues(fn.scope).some((value) => value.hi - value.lo === 1 && clientKeys.has(t[value.lo]!.value));
    }
    const key = segments.length === 1 ? segments[0] : segments.length === 2 && segments[0] === "self" ? `self.${segments[1]}` : undefined;
    return key !== undefined && clientKeys.has(key);
  };
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    const method = callee?.segments[callee.segments.length - 1];
    if (!callee || !method || !V1_METHODS.has(method)) continue;
    const receiver = callee.segments.slice(0, -1);
    if (receiver.length === 0 && callee.receiverCall === undefined) continue;
    if (isClient(receiver, callee.receiverCall)) uses.push({ start: t[open - 1]!.start, end: t[open - 1]!.end, ruleId: "vendored-v1-client", name: method });
  }
  return uses;
}

function indentOf(module: PyModule, offset: number): number {
  return offset - (module.text.lastIndexOf("\n", offset - 1) + 1);
}
