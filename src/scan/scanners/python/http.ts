/**
 * V1 endpoints in Python HTTP code: requests, httpx, aiohttp and urllib
 * calls whose URL (followed through constants, f-strings, concatenation,
 * client `base_url` and `params=`) is `{V1 base}/run`. URLs built but never
 * seen going into a known call are reported where they are built, method unknown.
 */
import { endpointMessage } from "../../messages.js";
import { fixesDeployment } from "../../local-client.js";
import {
  HOLE,
  type HostSet,
  isVendorHost,
  parseUrlText,
  type V1Endpoint,
  v1EndpointOf,
  v1SignatureOnUnknownBase,
} from "../../../core/urls.js";
import { classAt } from "../../../lang/python/classes.js";
import {
  CLIENT_FACTORIES,
  clientConstruction,
  constructionAtCall,
  constructionBase,
} from "../../../lang/python/client-objects.js";
import { type HeldBase, heldBaseFor } from "../../held-base.js";
import { pythonRequestScope } from "./request-scope.js";
import { helperOf } from "../../../lang/python/members.js";
import type { PyDef } from "../../../lang/python/module.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { PyCallee, PyRange } from "../../../lang/python/syntax.js";
import { isOp, isString } from "../../../lang/python/tokens.js";
import type { PyValues } from "../../../lang/python/values.js";
import { paramsRunIdSite } from "./run-id-site.js";
import { airflowRequest } from "./airflow-http.js";
import type { AirflowConnection } from "./airflow-connections.js";

export interface EndpointUse {
  range: PyRange;
  endpoint: V1Endpoint;
  method: string | undefined;
  /** V1's signature on a base that is not resolved here (a parameter, a setting from elsewhere). */
  unknownBase?: boolean;
  /** V1's signature on a base not resolved here, taken to be the ComfyDeploy base the repository sets there. */
  heldBase?: HeldBase;
  /** A V1 path on the V2 host: the request is V1, the base is already the current one. */
  onCurrentHost?: boolean;
  /**
   * The request takes its connection settings from the instance it is sent
   * in: its URL or auth reads `self`/`cls`, or a relative path goes out on
   * `self` or one of its members (a session built with the base).
   */
  viaInstance?: boolean;
  /** The URL resolved to a ComfyDeploy host here (not V1's shape on a base held elsewhere). */
  onVendorHost?: boolean;
  /** A status request's `run_id` entry in `params=` on a later line than the URL: where it is reported. */
  runIdAt?: PyRange;
  /**
   * A create-run body whose `deployment_id` is fixed where it is sent (a
   * setting, a constant) rather than a parameter of the function sending it:
   * the function takes the app's inputs, not the API's.
   */
  fixesDeployment?: boolean;
}

export interface PyRequest {
  url: PyRange;
  method: string | undefined;
  base?: string;
  queryKeys: string[];
  /** Top-level keys of a `json=` body. */
  bodyKeys: string[];
  /** The method argument when it is not a literal (a wrapper's `method` parameter). */
  methodRange?: PyRange;
  /** The URL's value, when it was worked out through a wrapper. */
  value?: string;
  /** Where the base is defined when it is not in code (an Airflow connection): the request is left for review. */
  heldAt?: HeldBase;
  /** Keyword arguments holding the query, when not `params=`. */
  queryKeywords?: string[];
}

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);
/** Callables taking (method, url, ...). */
const METHOD_FIRST = new Set(["request", "stream", "api_request"]);
export { CLIENT_FACTORIES };

/**
 * `repo`: the module's file and where the repository sets a ComfyDeploy
 * base, if it does: a V1-shaped request on a base not resolved here is
 * taken to be on it unless the module says otherwise (`../../held-base.ts`).
 * `airflowConnection` gives the connections the repository defines.
 */
export function findPythonEndpoints(
  module: PyModule,
  values: PyValues,
  hosts: HostSet,
  repo?: { file: string; legacyBase?: HeldBase; airflowConnection?: (id: string) => AirflowConnection | undefined },
): EndpointUse[] {
  const uses: EndpointUse[] = [];
  const consumed = new Set<number>();
  const wrappers = new Map<number, WrappedRequest | null>();
  const t = module.tokens;
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    const request =
      callee &&
      (recognise(module, values, callee, open) ??
        (repo?.airflowConnection && airflowRequest(module, values, callee, open, repo.airflowConnection)) ??
        wrapperRequest(module, values, callee, open, wrappers));
    if (!request) continue;
    const viaInstance = readsInstance(module, values, callee, open, request.url);
    const fixesDeployment = fixedDeployment(module, open);
    const trail = new Set<number>();
    let url = request.value ?? values.stringOf(request.url, trail);
    if (request.base !== undefined && !url.startsWith(HOLE)) url = joinBase(request.base, url);
    for (const key of request.queryKeys) url += `${url.includes("?") ? "&" : "?"}${key}=${HOLE}`;
    const info = parseUrlText(url, hosts);
    // The V1 paths are V1 on any ComfyDeploy host; on the V2 host only the exact V1 path is (its prefixes are V2 paths).
    const endpoint = isVendorHost(info) ? v1EndpointOf(info, request.method) : undefined;
    const signature = endpoint ? undefined : v1SignatureOnUnknownBase(url, request.method, new Set(request.bodyKeys));
    const runIdAt =
      (endpoint ?? signature) === "get-run"
        ? paramsRunIdSite(module, values, open, request.url, request.queryKeywords)
        : undefined;
    if (signature) {
      const heldBase = repo && heldBaseFor(repo, pythonRequestScope(module, repo.file, request.url, open));
      if (heldBase === "other-service") continue;
      uses.push({
        range: request.url,
        endpoint: signature,
        method: request.method,
        ...(heldBase ? { heldBase } : { unknownBase: true }),
        ...(runIdAt ? { runIdAt } : {}),
        ...(viaInstance ? { viaInstance } : {}),
        ...(fixesDeployment ? { fixesDeployment } : {}),
      });
    }
    if (!endpoint) continue;
    if (request.heldAt) {
      uses.push({
        range: request.url,
        endpoint,
        method: request.method,
        heldBase: request.heldAt,
        ...(runIdAt ? { runIdAt } : {}),
      });
      consumed.add(request.url.lo);
      continue;
    }
    uses.push({
      range: request.url,
      endpoint,
      method: request.method,
      ...(info.hostKind === "current" ? { onCurrentHost: true } : {}),
      ...(runIdAt ? { runIdAt } : {}),
      ...(viaInstance ? { viaInstance } : {}),
      ...(fixesDeployment ? { fixesDeployment } : {}),
      onVendorHost: true,
    });
    consumed.add(request.url.lo);
    for (const lo of trail) consumed.add(lo);
  }
  // URL expressions that no recognised call consumed: the method is unknown.
  const seen = new Set<number>();
  for (const line of module.lines) {
    if (module.isStringStatement(line)) continue;
    for (let i = line.lo; i < line.hi; i++) {
      if (!isString(t[i])) continue;
      const range = module.expressionAround(i);
      if (seen.has(range.lo) || consumed.has(range.lo)) continue;
      seen.add(range.lo);
      const url = values.stringOf(range);
      // Only a legacy host with a /run path can name a V1 endpoint.
      if (!url.includes("/run") || !hosts.legacy.some((host) => url.toLowerCase().includes(host))) continue;
      const info = parseUrlText(url, hosts);
      const endpoint = info.hostKind === "legacy" ? v1EndpointOf(info, undefined) : undefined;
      if (endpoint) uses.push({ range, endpoint, method: undefined });
    }
  }
  return uses;
}

export function endpointFindingInput(use: EndpointUse): {
  ruleId: "legacy-create-run" | "legacy-get-run";
  message: string;
  fix?: "review";
} {
  const ruleId = use.endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run";
  const certain = use.method !== undefined && use.endpoint !== "run-ambiguous";
  return { ruleId, message: endpointMessage(use.endpoint), ...(certain ? {} : { fix: "review" as const }) };
}

function recognise(module: PyModule, values: PyValues, callee: PyCallee, open: number): PyRequest | undefined {
  const args = module.callArguments(open);
  const verb = callee.segments[callee.segments.length - 1]!;
  const lower = verb.toLowerCase();
  const staticArg = (range: PyRange | undefined): string | undefined =>
    range ? values.staticString(range) : undefined;
  let url: PyRange | undefined;
  let method: string | undefined;
  let methodRange: PyRange | undefined;
  if (verb === "Request") {
    // urllib.request.Request(url, data=None, headers={}, origin_req_host=None, unverifiable=False, method=None)
    url = args.positional[0] ?? args.keyword.get("url");
    const explicit = args.keyword.get("method") ?? args.positional[5];
    const hasData = (args.positional[1] ?? args.keyword.get("data")) !== undefined;
    method = explicit ? staticArg(explicit)?.toUpperCase() : hasData ? "POST" : "GET";
  } else if (lower === "urlopen") {
    url = args.positional[0] ?? args.keyword.get("url");
    method = (args.positional[1] ?? args.keyword.get("data")) !== undefined ? "POST" : "GET";
  } else if (METHOD_FIRST.has(lower) && callee.segments.length + (callee.receiverCall !== undefined ? 1 : 0) >= 2) {
    const methodArg = args.keyword.get("method") ?? args.positional[0];
    url = args.keyword.get("url") ?? (args.keyword.has("method") ? args.positional[0] : args.positional[1]);
    method = staticArg(methodArg)?.toUpperCase();
    if (method === undefined && methodArg) methodRange = methodArg;
  } else if (VERBS.has(lower) && (callee.segments.length >= 2 || callee.receiverCall !== undefined)) {
    // Any object's .get/.post: the name says the method; the URL decides whether it counts.
    url = args.positional[0] ?? args.keyword.get("url");
    method = lower.toUpperCase();
  }
  if (!url) return undefined;
  const request: PyRequest = { url, method, queryKeys: [], bodyKeys: [], ...(methodRange ? { methodRange } : {}) };
  const params = args.keyword.get("params");
  if (params) request.queryKeys = values.dictKeys(params);
  const json = args.keyword.get("json");
  if (json) request.bodyKeys = values.dictKeys(json);
  const base = clientBase(module, values, callee);
  if (base !== undefined) request.base = base;
  return request;
}

const INSTANCE_NAMES = new Set(["self", "cls"]);

/** See `EndpointUse.viaInstance`: the URL, `headers=` or `auth=` read the instance, or a relative URL is sent on it. */
function readsInstance(module: PyModule, values: PyValues, callee: PyCallee, open: number, url: PyRange): boolean {
  const t = module.tokens;
  const readsSelf = (range: PyRange | undefined): boolean => {
    if (!range) return false;
    for (let i = range.lo; i < range.hi; i++) if (INSTANCE_NAMES.has(t[i]!.value) && t[i]!.kind === "name") return true;
    // f-string fields are inside the string token.
    const text = module.text.slice(t[range.lo]!.start, t[range.hi - 1]!.end);
    return /[{(\s]\s*(?:self|cls)\./.test(text);
  };
  const args = module.callArguments(open);
  // `url = f"{self.base}/run"` on an earlier line.
  const local = url.hi - url.lo === 1 ? module.resolve(t[url.lo]!.value, t[url.lo]!.start) : undefined;
  if (
    readsSelf(url) ||
    readsSelf(local?.value) ||
    readsSelf(args.keyword.get("headers")) ||
    readsSelf(args.keyword.get("auth"))
  )
    return true;
  if (callee.receiverCall !== undefined || !INSTANCE_NAMES.has(callee.segments[0]!) || callee.segments.length < 2)
    return false;
  const value = values.stringOf(url);
  return !value.startsWith(HOLE) && !/^[a-z][a-z0-9+.-]*:/i.test(value);
}

/** See `EndpointUse.fixesDeployment`: the `json=` body (or the local it names) sets `deployment_id` from no parameter. */
function fixedDeployment(module: PyModule, open: number): boolean {
  const t = module.tokens;
  const body = module.callArguments(open).keyword.get("json");
  if (!body) return false;
  const scopes = module.scopesAt(t[open]!.start);
  const def = module.defs.get(scopes[scopes.length - 1]!);
  if (!def) return false;
  const parameters = new Set(def.parameters.map((p) => p.name));
  const single = body.hi - body.lo === 1 ? t[body.lo]!.value : undefined;
  if (single !== undefined && parameters.has(single)) return false;
  const local = single !== undefined ? module.resolve(single, t[body.lo]!.start) : undefined;
  const range = local?.value ?? body;
  return fixesDeployment(module.text.slice(t[range.lo]!.start, t[range.hi - 1]!.end), parameters);
}

/** A helper's own request, whose URL is built from one of its parameters. */
interface WrappedRequest {
  def: PyDef;
  method: boolean;
  request: PyRequest;
  /** The parameter the URL is built from. */
  parameter: string;
  index: number;
}

/**
 * A call of a request wrapper of this module (`self._request("POST", "/run",
 * json=body)` with `def _request(self, method, path, **kw)` sending
 * `self.session.request(method, f"{self.base_url}{path}", **kw)`): a request
 * whose URL, method, body and query come from the call's arguments.
 */
function wrapperRequest(
  module: PyModule,
  values: PyValues,
  callee: PyCallee,
  open: number,
  cache: Map<number, WrappedRequest | null>,
): PyRequest | undefined {
  if (callee.receiverCall !== undefined) return undefined;
  const helper = helperOf(module, callee.segments, module.tokens[open]!.start);
  if (!helper) return undefined;
  if (!cache.has(helper.def.scope))
    cache.set(helper.def.scope, wrappedRequestOf(module, values, helper.def, helper.method) ?? null);
  const wrapped = cache.get(helper.def.scope);
  if (!wrapped) return undefined;
  const args = module.callArguments(open);
  const url = args.keyword.get(wrapped.parameter) ?? args.positional[wrapped.index];
  if (!url) return undefined;
  const inner = wrapped.request;
  const methodText =
    inner.method ??
    (inner.methodRange ? values.stringInCall(inner.methodRange, wrapped.def, wrapped.method, open) : undefined);
  const method = methodText && !methodText.includes(HOLE) ? methodText.toUpperCase() : undefined;
  const params = args.keyword.get("params");
  const json = args.keyword.get("json");
  return {
    url,
    value: values.stringInCall(inner.url, wrapped.def, wrapped.method, open),
    method,
    queryKeys: params ? values.dictKeys(params) : inner.queryKeys,
    bodyKeys: json ? values.dictKeys(json) : inner.bodyKeys,
    ...(inner.base !== undefined ? { base: inner.base } : {}),
  };
}

function wrappedRequestOf(module: PyModule, values: PyValues, def: PyDef, method: boolean): WrappedRequest | undefined {
  const t = module.tokens;
  const parameters = (method ? def.parameters.slice(1) : def.parameters).map((p) => p.name);
  const header = module.statementAt(module.tokenFrom(def.start));
  for (let i = header.hi + 1; i < t.length; i++) {
    if (!module.scopesAt(t[i]!.start).includes(def.scope)) break;
    if (!isOp(t[i], "(")) continue;
    const callee = module.calleeOf(i);
    const request = callee && recognise(module, values, callee, i);
    if (!request) continue;
    // The URL names a parameter, directly or through a local built from it (f-string fields included).
    const source = (range: PyRange): string => module.text.slice(t[range.lo]!.start, t[range.hi - 1]!.end);
    let text = source(request.url);
    for (const word of new Set(text.match(/[A-Za-z_]\w*/g) ?? [])) {
      const local = module.resolve(word, t[request.url.lo]!.start);
      if (local && local.scope === def.scope) text += ` ${source(local.value)}`;
    }
    const index = parameters.findIndex((p) => new RegExp(`(?<![\\w.])${p}\\b`).test(text));
    if (index >= 0) return { def, method, request, parameter: parameters[index]!, index };
  }
  return undefined;
}

/** The `base_url` of the client a call is made on, when it was built from a known client class. */
function clientBase(module: PyModule, values: PyValues, callee: PyCallee): string | undefined {
  const offset = module.tokens[callee.start]!.start;
  const receiver = callee.segments.slice(0, -1);
  if (callee.receiverCall === undefined && receiver.length === 1 && receiver[0] === "self")
    return subclassBase(module, values, offset);
  const found =
    callee.receiverCall !== undefined
      ? constructionAtCall(values, callee.receiverCall)
      : clientConstruction(values, receiver, offset);
  return found && constructionBase(found);
}

/**
 * `self.post("run", …)` in a subclass of a client class (`requests.Session`,
 * `httpx.Client`) that keeps its own base: the subclass joins its paths onto it.
 */
function subclassBase(module: PyModule, values: PyValues, offset: number): string | undefined {
  const cls = classAt(module, offset);
  if (!cls?.bases.some((base) => CLIENT_FACTORIES.has(base.split(".").pop()!))) return undefined;
  const candidates = [...module.assignments.keys()].filter(
    (key) => /^self\.\w*base\w*$/i.test(key) || /^self\.\w*url$/i.test(key),
  );
  for (const key of candidates.sort((a, b) => Number(b === "self.base_url") - Number(a === "self.base_url"))) {
    const assignment = module.assignments.get(key)!.find((a) => a.at > cls.start && a.at < cls.end);
    const value = assignment && values.stringOf(assignment.value);
    if (value && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  }
  return undefined;
}

function joinBase(base: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//")) return path;
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
