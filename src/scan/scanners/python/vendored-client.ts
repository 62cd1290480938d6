/**
 * Local copies of the V1 client in Python (a port of the JS client pasted
 * into `vendor/`): a class with the V1 client's method names (`run`,
 * `get_run`, …) that sends V1's get-run request. The class is reported at
 * its declaration; app code that imports it from another module of the
 * repository is reported where it switches to V2: the import, the
 * construction, and the calls of V1 methods on the instance.
 */
import { V1_CLIENT_METHODS } from "../../../knowledge/migration.js";
import { classAt, classNamed, methodNamed, type PyClass } from "../../../lang/python/classes.js";
import type { PyModule } from "../../../lang/python/module.js";
import { isName, isOp, isString } from "../../../lang/python/tokens.js";
import { type HostSet, parseUrlText } from "../../../core/urls.js";
import type { RuleId } from "../../../rules/catalog.js";
import { CONNECTION_SETTING, SETTING_VALUE } from "../../local-client.js";
import { CLIENT_FACTORIES, type EndpointUse } from "./http.js";
import { clientInstances } from "./client-instances.js";

export interface VendoredUse {
  start: number;
  end: number;
  ruleId: RuleId;
  /** The class's name, or the V1 method called. */
  name: string;
}

/** V1 client method names, also in Python's spelling (`get_run`). */
const V1_METHODS: ReadonlySet<string> = new Set(
  V1_CLIENT_METHODS.flatMap((m) => [m.v1, m.v1.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
);
const COMFY_NAME = /comfy/i;

/** What another module exports as a copy of the V1 client: a class and its V1 methods, or a function that sends a V1 request. */
export type VendoredExport = { kind: "class"; methods: ReadonlySet<string> } | { kind: "function" };

interface Block {
  keyword: "class" | "def";
  name: { value: string; start: number; end: number };
  indent: number;
  /** Offsets of the block's body: from its name to the first line indented no deeper than it. */
  end: number;
}

/** Every `class` and `def` of the module with the extent of its body. */
function blocksOf(module: PyModule): Block[] {
  const t = module.tokens;
  const blocks: Block[] = [];
  module.lines.forEach((line, index) => {
    const at = isName(t[line.lo], "async") ? line.lo + 1 : line.lo;
    const keyword = isName(t[at], "class") ? "class" : isName(t[at], "def") ? "def" : undefined;
    if (!keyword || !isName(t[at + 1])) return;
    const indent = indentOf(module, t[line.lo]!.start);
    let end = module.text.length;
    for (const next of module.lines.slice(index + 1)) {
      const first = t[next.lo]!;
      if (indentOf(module, first.start) <= indent) {
        end = first.start;
        break;
      }
    }
    blocks.push({ keyword, name: t[at + 1]!, indent, end });
  });
  return blocks;
}

/** Offsets of the V1 requests the module sends on a ComfyDeploy base (or on V1's signature where the repository holds a V1 base). */
function requestOffsets(
  module: PyModule,
  endpoints: readonly EndpointUse[],
): Array<{
  at: number;
  endpoint: string;
  resolved: boolean;
  onVendorHost: boolean;
  viaInstance: boolean;
  fixesDeployment: boolean;
}> {
  // V1 paths on the V2 host are fixed where they are sent: the module is not a copy of the V1 client.
  return endpoints
    .filter((use) => !use.onCurrentHost)
    .map((use) => ({
      at: module.tokens[use.range.lo]!.start,
      endpoint: use.endpoint,
      resolved: use.unknownBase !== true,
      onVendorHost: use.onVendorHost === true,
      viaInstance: use.viaInstance === true,
      fixesDeployment: use.fixesDeployment === true,
    }));
}

/**
 * True when the class's strings, or the module-level ones, name another
 * service's host and none names a ComfyDeploy host: its `/run` calls are
 * that service's.
 */
function namesOtherService(module: PyModule, block: Block, blocks: readonly Block[], hosts: HostSet): boolean {
  const inBlock = (at: number, b: Block) => at > b.name.end && at < b.end;
  let other = false;
  for (const token of module.tokens) {
    if (!isString(token)) continue;
    if (!inBlock(token.start, block) && blocks.some((b) => inBlock(token.start, b))) continue;
    for (const match of token.value.matchAll(/https?:\/\/[^\s"'{}/]+/g)) {
      const kind = parseUrlText(match[0], hosts).hostKind;
      if (kind === "legacy" || kind === "current") return false;
      if (kind === "other") other = true;
    }
  }
  return other;
}

/**
 * Whether a class holds the connection settings of its V1 requests: it is an
 * HTTP session itself (`requests.Session` subclass), or one of its requests
 * reads the base or auth from the instance (`f"{self.api_base}/run"`,
 * `self._http.post("/run")` on a client built in `__init__`).
 */
function holdsConnection(module: PyModule, cls: Block, own: ReadonlyArray<{ viaInstance: boolean }>): boolean {
  const pyClass = classAt(module, cls.name.start + 1);
  if (!pyClass) return false;
  if (pyClass.bases.some((base) => CLIENT_FACTORIES.has(base.split(".").pop()!))) return true;
  return own.some((r) => r.viaInstance) && takesConnectionSettings(module, pyClass, 0);
}

/**
 * Whether the class is configured with a base URL or API key: a constructor
 * parameter or a class-body attribute (a dataclass field) named like one, or
 * an attribute whose declared class of this module is (`config: ClientConfig`).
 * The app's whole settings object does not count: a service reads it too.
 */
function takesConnectionSettings(module: PyModule, cls: PyClass, depth: number): boolean {
  const init = methodNamed(module, cls, "__init__");
  if (init?.parameters.slice(1).some((p) => CONNECTION_SETTING.test(p.name))) return true;
  const t = module.tokens;
  for (const line of module.lines) {
    const first = t[line.lo]!;
    if (first.start <= cls.start || first.start >= cls.end || classAt(module, first.start) !== cls) continue;
    if (!isName(first) || module.scopesAt(first.start).length !== 1) continue;
    if (!isOp(t[line.lo + 1], ":") && !isOp(t[line.lo + 1], "=")) continue;
    if (CONNECTION_SETTING.test(first.value)) return true;
    const type =
      isOp(t[line.lo + 1], ":") && isName(t[line.lo + 2]) ? classNamed(module, t[line.lo + 2]!.value) : undefined;
    if (type && type !== cls && depth < 2 && takesConnectionSettings(module, type, depth + 1)) return true;
  }
  return false;
}

/** Its runs are created only with a deployment it fixes itself: an app service taking the app's inputs (a prompt), not the API's. */
function takesAppInputs(own: ReadonlyArray<{ endpoint: string; fixesDeployment: boolean }>): boolean {
  const creates = own.filter((r) => r.endpoint === "create-run");
  return creates.length > 0 && creates.every((r) => r.fixesDeployment);
}

/**
 * Whether a module of functions binds its connection settings itself at
 * its top level: a name for a base URL or key, an environment read, a URL
 * literal or a session built with its base (`session =
 * BaseUrlSession(base_url=…)`). Functions that read the app's shared
 * settings object (`settings.comfy.api_url`) are the app's own code.
 */
function moduleHoldsConnection(module: PyModule): boolean {
  for (const list of module.assignments.values()) {
    for (const assignment of list) {
      if (assignment.scope !== 0 || assignment.key.startsWith("self.")) continue;
      const { lo, hi } = assignment.value;
      const t = module.tokens;
      if (isName(t[lo], "lambda")) continue;
      if (CONNECTION_SETTING.test(assignment.key)) return true;
      const value = module.text.slice(t[lo]!.start, t[hi - 1]!.end);
      if (SETTING_VALUE.test(value)) return true;
      const open = module.callSpanning(assignment.value);
      const callee = open !== undefined ? module.calleeOf(open) : undefined;
      if (callee && CLIENT_FACTORIES.has(callee.segments[callee.segments.length - 1]!)) return true;
    }
  }
  return false;
}

/**
 * With no request on a resolved base, the V1 client's shape: V1's status
 * request, and V1's method names or both V1 requests.
 */
function v1ClientByShape(defs: readonly Block[], own: ReadonlyArray<{ endpoint: string }>, name: string): boolean {
  const kinds = new Set(own.map((r) => r.endpoint));
  if (!kinds.has("get-run")) return false;
  if (kinds.has("create-run")) return true;
  const named = defs.filter((d) => V1_METHODS.has(d.name.value)).length;
  return named >= 2 || (named === 1 && COMFY_NAME.test(name));
}

/**
 * The module's local V1 clients (fixtures/real-shapes/README.md, "Local V1
 * clients"), recognised by what they do: a class whose methods send V1
 * requests and that holds their connection settings, with the methods that
 * send V1 requests directly or through `self.<method>(…)`; and module-level
 * functions that send one on a resolved base (the module holds the settings).
 * A class whose requests go to no resolved base needs V1's shape besides.
 */
export function vendoredExports(
  module: PyModule,
  endpoints: readonly EndpointUse[],
  hosts: HostSet,
): Map<string, VendoredExport & { start: number; end: number }> {
  const out = new Map<string, VendoredExport & { start: number; end: number }>();
  const requests = requestOffsets(module, endpoints);
  const blocks = blocksOf(module);
  const inside = (at: number, b: Block) => at > b.name.end && at < b.end;
  for (const cls of blocks) {
    if (cls.keyword !== "class") continue;
    const defs = blocks.filter((b) => b.keyword === "def" && b.indent > cls.indent && inside(b.name.start, cls));
    const sends = new Set(defs.filter((d) => requests.some((r) => inside(r.at, d))).map((d) => d.name.value));
    // Methods that call a sending method on self (`wait` polling `self.get_run`).
    for (let grew = true; grew; ) {
      grew = false;
      for (const d of defs) {
        if (sends.has(d.name.value)) continue;
        const body = module.text.slice(d.name.end, d.end);
        if ([...sends].some((m) => body.includes(`self.${m}(`))) {
          sends.add(d.name.value);
          grew = true;
        }
      }
    }
    const own = requests.filter((r) => inside(r.at, cls));
    // A client holds its connection settings; an app service sending V1 on the app's settings is app code.
    if (sends.size === 0 || !holdsConnection(module, cls, own) || takesAppInputs(own)) continue;
    // Requests on a ComfyDeploy host say where they go; others only by the V1 shape, unless the class names another service.
    if (!own.some((r) => r.onVendorHost)) {
      if (namesOtherService(module, cls, blocks, hosts)) continue;
      if (!own.some((r) => r.resolved) && !v1ClientByShape(defs, own, cls.name.value)) continue;
    }
    for (const d of defs) if (V1_METHODS.has(d.name.value)) sends.add(d.name.value);
    out.set(cls.name.value, { kind: "class", methods: sends, start: cls.name.start, end: cls.name.end });
  }
  const holdsSettings =
    moduleHoldsConnection(module) &&
    !takesAppInputs(requests.filter((r) => !blocks.some((b) => b.keyword === "class" && inside(r.at, b))));
  for (const fn of blocks) {
    // A function counts only on a resolved ComfyDeploy base, in a module that binds the settings: its name says nothing.
    if (fn.keyword !== "def" || fn.indent !== 0 || !holdsSettings) continue;
    if (!requests.some((r) => r.resolved && inside(r.at, fn))) continue;
    out.set(fn.name.value, { kind: "function", start: fn.name.start, end: fn.name.end });
  }
  return out;
}

/** Classes of this module that copy the V1 client, by name, with the offsets of the name. */
export function vendoredClasses(
  module: PyModule,
  endpoints: readonly EndpointUse[],
  hosts: HostSet,
): Map<string, { start: number; end: number }> {
  const out = new Map<string, { start: number; end: number }>();
  for (const [name, info] of vendoredExports(module, endpoints, hosts))
    if (info.kind === "class") out.set(name, { start: info.start, end: info.end });
  return out;
}

/** The names a module imports with `from <dotted> import name [as local]`, which it re-exports. */
export function reExports(module: PyModule): Array<{ dotted: string; name: string; local: string }> {
  const t = module.tokens;
  const out: Array<{ dotted: string; name: string; local: string }> = [];
  for (const line of module.lines) {
    if (!isName(t[line.lo], "from")) continue;
    let i = line.lo + 1;
    let dotted = "";
    while (i < line.hi && !isName(t[i], "import")) dotted += t[i++]!.value;
    for (let k = i + 1; k < line.hi; k++) {
      if (!isName(t[k]) || isName(t[k], "as") || isName(t[k - 1], "as")) continue;
      out.push({
        dotted,
        name: t[k]!.value,
        local: isName(t[k + 1], "as") && isName(t[k + 2]) ? t[k + 2]!.value : t[k]!.value,
      });
    }
  }
  return out;
}

/**
 * Where a module uses a vendored class of another module: `from m import C`
 * lines, `C(...)` calls, and V1 method calls on a name bound to one (or on
 * a call of a function of this module that returns such a name).
 */
export function vendoredUses(
  module: PyModule,
  imported: (moduleName: string, name: string) => VendoredExport | undefined,
): VendoredUse[] {
  const t = module.tokens;
  const uses: VendoredUse[] = [];
  const locals = new Set<string>();
  const functions = new Set<string>();
  const methods = new Set<string>();
  for (const line of module.lines) {
    if (!isName(t[line.lo], "from")) continue;
    let i = line.lo + 1;
    let dotted = "";
    while (i < line.hi && !isName(t[i], "import")) dotted += t[i++]!.value;
    let isImport = false;
    for (let k = i + 1; k < line.hi; k++) {
      if (!isName(t[k]) || isName(t[k], "as") || isName(t[k - 1], "as")) continue;
      const found = imported(dotted, t[k]!.value);
      if (!found) continue;
      isImport = true;
      const local = isName(t[k + 1], "as") && isName(t[k + 2]) ? t[k + 2]!.value : t[k]!.value;
      if (found.kind === "function") functions.add(local);
      else {
        locals.add(local);
        for (const m of found.methods) methods.add(m);
      }
    }
    if (isImport)
      uses.push({ start: t[line.lo]!.start, end: t[line.hi - 1]!.end, ruleId: "v1-sdk-import", name: dotted });
  }
  // Module-level functions of a copy (`run_workflow(…)`): each call sends a V1 request.
  for (let open = 0; open < t.length && functions.size > 0; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    if (
      callee?.receiverCall === undefined &&
      callee?.segments.length === 1 &&
      functions.has(callee.segments[0]!) &&
      !isName(t[open - 2], "def")
    ) {
      uses.push({
        start: t[open - 1]!.start,
        end: t[open - 1]!.end,
        ruleId: "vendored-v1-client",
        name: callee.segments[0]!,
      });
    }
  }
  if (locals.size === 0) return uses;
  const constructors = new Set<number>();
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    if (callee?.receiverCall === undefined && callee?.segments.length === 1 && locals.has(callee.segments[0]!)) {
      constructors.add(open);
      uses.push({
        start: t[callee.start]!.start,
        end: t[module.partner(open)]?.end ?? t[open]!.end,
        ruleId: "v1-sdk-client",
        name: callee.segments[0]!,
      });
    }
  }
  const isClient = clientInstances(module, constructors);
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    const method = callee?.segments[callee.segments.length - 1];
    if (!callee || !method || !methods.has(method)) continue;
    const receiver = callee.segments.slice(0, -1);
    if (receiver.length === 0 && callee.receiverCall === undefined) continue;
    if (isClient(receiver, callee.receiverCall))
      uses.push({ start: t[open - 1]!.start, end: t[open - 1]!.end, ruleId: "vendored-v1-client", name: method });
  }
  return uses;
}

function indentOf(module: PyModule, offset: number): number {
  return offset - (module.text.lastIndexOf("\n", offset - 1) + 1);
}
