/**
 * Requests of Airflow's HTTP provider: `HttpOperator` (and the older
 * `SimpleHttpOperator`), `HttpSensor`, and `HttpHook(...).run(endpoint, data)`.
 * Each names a connection (`http_conn_id`, "http_default" when left out) and
 * an `endpoint` joined onto that connection's base; a GET's `data` (and a
 * sensor's `request_params`) is its query. The base comes from the
 * connection the repository defines (`airflow-connections.ts`); a connection
 * it does not define leaves the call unread.
 */
import type { PyModule } from "../../../lang/python/module.js";
import type { PyCallee, PyRange } from "../../../lang/python/syntax.js";
import { isName, isOp, isString } from "../../../lang/python/tokens.js";
import type { PyValues } from "../../../lang/python/values.js";
import type { AirflowConnection } from "./airflow-connections.js";
import type { PyRequest } from "./http.js";

/** Its URL is the `endpoint` argument, its base the connection's, `heldAt` where the connection is defined. */
export type AirflowRequest = PyRequest & Required<Pick<PyRequest, "base" | "heldAt" | "queryKeywords">>;

/** Operator and sensor classes, with the method each sends when none is given. */
const OPERATORS: ReadonlyMap<string, string> = new Map([
  ["HttpOperator", "POST"],
  ["SimpleHttpOperator", "POST"],
  ["HttpSensor", "GET"],
]);
const HOOK = "HttpHook";
const HOOK_DEFAULT_METHOD = "POST";
const DEFAULT_CONN_ID = "http_default";

/** The Airflow HTTP request a call makes, when its connection is one the repository defines. */
export function airflowRequest(
  module: PyModule,
  values: PyValues,
  callee: PyCallee,
  open: number,
  connection: (id: string) => AirflowConnection | undefined,
): AirflowRequest | undefined {
  const name = callee.segments[callee.segments.length - 1]!;
  const args = module.callArguments(open);
  const fixedMethod = OPERATORS.get(name);
  let settings = args;
  let method: string | undefined;
  let endpoint: PyRange | undefined;
  let data: PyRange | undefined;
  if (fixedMethod !== undefined) {
    endpoint = args.keyword.get("endpoint");
    data = args.keyword.get("data");
    method = methodOf(values, args.keyword.get("method")) ?? fixedMethod;
  } else if (name === "run") {
    const hook = hookConstruction(module, callee, open);
    if (hook === undefined) return undefined;
    settings = module.callArguments(hook);
    endpoint = args.keyword.get("endpoint") ?? args.positional[0];
    data = args.keyword.get("data") ?? args.positional[1];
    method = methodOf(values, settings.keyword.get("method") ?? settings.positional[0]) ?? HOOK_DEFAULT_METHOD;
  } else return undefined;
  if (!endpoint) return undefined;
  const id = settings.keyword.get("http_conn_id");
  const found = connection(
    id ? (values.staticString(id) ?? "") : (defaultArgsConnection(module, values) ?? DEFAULT_CONN_ID),
  );
  if (!found) return undefined;
  const params = args.keyword.get("request_params");
  const dataKeys = data ? values.dictKeys(unwrapDumps(module, data)) : [];
  const get = method === "GET";
  return {
    url: endpoint,
    method,
    base: baseFor(found.base, values.stringOf(endpoint)),
    heldAt: { file: found.file, line: found.line },
    queryKeys: [...(get ? dataKeys : []), ...(params ? values.dictKeys(params) : [])],
    bodyKeys: get ? [] : dataKeys,
    queryKeywords: get ? ["data", "request_params"] : ["request_params"],
  };
}

/**
 * The connection's base for this endpoint: a base path the endpoint writes
 * again (`https://host/api` with `api/run`) is written once.
 */
function baseFor(base: string, endpoint: string): string {
  const m = /^([a-z][\w+.-]*:\/\/[^/]+)(\/.*)?$/i.exec(base);
  const path = m?.[2]?.replace(/\/+$/, "");
  if (!m || !path) return base;
  const written = `/${endpoint.replace(/^\/+/, "")}`;
  return written === path || written.startsWith(`${path}/`) ? m[1]! : base;
}

/** `default_args = {"http_conn_id": "comfy", …}`: the DAG gives it to every operator that names none. */
function defaultArgsConnection(module: PyModule, values: PyValues): string | undefined {
  const t = module.tokens;
  for (let i = 0; i + 2 < t.length; i++) {
    if (!isString(t[i]) || !isOp(t[i + 1], ":") || values.staticString({ lo: i, hi: i + 1 }) !== "http_conn_id")
      continue;
    const next = module.findTopLevel(i + 2, t.length, (tok) => isOp(tok, ",") || isOp(tok, "}"));
    return values.staticString({ lo: i + 2, hi: next < 0 ? i + 3 : next });
  }
  return undefined;
}

function methodOf(values: PyValues, range: PyRange | undefined): string | undefined {
  return range ? values.staticString(range)?.toUpperCase() : undefined;
}

/** `json.dumps({...})` as a request's `data`: the dict it encodes. */
function unwrapDumps(module: PyModule, range: PyRange): PyRange {
  const t = module.tokens;
  const open = range.lo + 3;
  if (
    isName(t[range.lo], "json") &&
    isOp(t[range.lo + 1], ".") &&
    isName(t[range.lo + 2], "dumps") &&
    isOp(t[open], "(")
  )
    return module.callArguments(open).positional[0] ?? range;
  return range;
}

/** The `(` of the `HttpHook(...)` a `.run(...)` is called on: chained, or bound to the receiver's name. */
function hookConstruction(module: PyModule, callee: PyCallee, open: number): number | undefined {
  const t = module.tokens;
  const isHook = (at: number | undefined): boolean => {
    const built = at !== undefined ? module.calleeOf(at) : undefined;
    return built !== undefined && built.segments[built.segments.length - 1] === HOOK;
  };
  if (callee.receiverCall !== undefined) return isHook(callee.receiverCall) ? callee.receiverCall : undefined;
  const receiver = callee.segments.slice(0, -1).join(".");
  if (!receiver) return undefined;
  const bound = module.resolve(receiver, t[open]!.start);
  if (!bound) return undefined;
  const call = bound.value.hi - 1;
  if (!isOp(t[call], ")")) return undefined;
  const start = module.partner(call);
  return start !== undefined && start > bound.value.lo && isHook(start) ? start : undefined;
}
