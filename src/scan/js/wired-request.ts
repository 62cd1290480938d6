/**
 * A request read as the file shows it, and, when that leaves a V1 shape (or a
 * relative `/run`) on a base not known here, read again with the
 * repository's wiring: what `new C(…)` passes the class, the base NestJS
 * registers for an injected HttpService. Only a ComfyDeploy base found that
 * way replaces the first reading.
 */
import type { ts } from "./typescript-api.cjs";
import { type HostSet, isVendorHost, parseUrlText, v1EndpointOf, v1SignatureOnUnknownBase } from "../../core/urls.js";
import type { FileContext } from "./file-context.js";
import type { HelperRequests } from "./helper-requests.js";
import type { HttpRequest } from "./http-calls.js";
import type { Values } from "./values.js";

/** A request written as data rather than a call (n8n's declared requests), read already. */
export type DeclaredRequest = { request: HttpRequest; consumed: Set<ts.Node> };

/** A relative `/run` path: the base is the client's, which the app may inject. */
const RUN_PATH = /^\/run(?:[/?#]|$)/;

export function readRequest(
  http: HelperRequests,
  values: Values,
  hosts: HostSet,
  call: ts.CallExpression | DeclaredRequest,
  context: FileContext,
): DeclaredRequest | undefined {
  if ("request" in call) return call;
  const consumed = new Set<ts.Node>();
  const request = http.recognise(call, context, consumed);
  if (!request || v1EndpointOf(parseUrlText(request.url, hosts), request.method))
    return request && { request, consumed };
  if (!RUN_PATH.test(request.url) && !v1SignatureOnUnknownBase(request.url, request.method, request.bodyKeys))
    return { request, consumed };
  const again = new Set<ts.Node>();
  const wired = values.withWiring(() => http.recognise(call, context, again));
  const info = wired && parseUrlText(wired.url, hosts);
  return info && isVendorHost(info) && v1EndpointOf(info, wired.method)
    ? { request: wired, consumed: again }
    : { request, consumed };
}
