/** Finding messages, built from the migration data so every scanner words them alike. */
import { ENDPOINTS, HOSTS, JS_SDK, V1_CLIENT_METHODS, V1_SDK_EXPORTS } from "../knowledge/migration.js";
import type { V1Endpoint } from "../core/urls.js";

export function legacyHostMessage(kind: "api" | "bare", url: string): string {
  if (kind === "bare") {
    return `V1 host ${url}: the V1 SDK appends /api to it. For V2 use ${HOSTS.v2.apiBase} (the V2 SDK takes serverURL verbatim, or omit it).`;
  }
  return `V1 API host in ${url}: use ${HOSTS.v2.apiBase}.`;
}

export function endpointMessage(endpoint: V1Endpoint): string {
  const create = `${ENDPOINTS.createRun.v2.method} {base}${ENDPOINTS.createRun.v2.path}`;
  const get = `${ENDPOINTS.getRun.v2.method} {base}${ENDPOINTS.getRun.v2.path}`;
  switch (endpoint) {
    case "create-run":
      return `V1 create-run POST {base}/run: use ${create} on ${HOSTS.v2.apiBase}; the JSON body stays snake_case.`;
    case "get-run":
      // Whether the method or the run_id query was seen shows in the fix class (auto or review).
      return `V1 get-run GET {base}/run?run_id=<id>: use ${get} on ${HOSTS.v2.apiBase}.`;
    case "run-ambiguous":
      return `V1 /run endpoint, HTTP method not known: POST {base}/run becomes ${create}; GET {base}/run?run_id=<id> becomes ${get}.`;
  }
}

export function sdkImportMessage(name: string): string {
  const mapping = V1_SDK_EXPORTS.find((m) => m.v1 === name);
  const target = mapping ? `${mapping.v2} (${mapping.reason})` : "the V2 SDK";
  return `${name} is V1 SDK API (${JS_SDK.packageName} 0.0.x): use ${target}; pin ${JS_SDK.packageName}@${JS_SDK.v2Pin}.`;
}

export function sdkConstructorMessage(): string {
  return `new ComfyDeployClient({ apiToken, apiBase }) is the V1 SDK: use new ComfyDeploy({ bearer, serverURL? }); V1 appends /api to apiBase, V2 uses serverURL verbatim.`;
}

export function sdkPropertyMessage(name: string): string {
  return `client.${name} is internal in the V2 SDK: keep the value in your own configuration instead.`;
}

export function sdkCallMessage(method: string): string {
  if (method === "parseWebhookDataSafe") {
    return `parseWebhookDataSafe(req) is V1 SDK API: use client.validateWebhook({ request }), which throws instead of returning [data, error] and answers in camelCase.`;
  }
  const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
  if (!mapping) return `client.${method}() is V1 SDK API.`;
  const target = mapping.v2 ? `use ${mapping.v2}; ` : "";
  return `client.${method}() is V1 SDK API: ${target}${mapping.advice}.`;
}

export function otherHostMessage(host: string): string {
  return `V1-shaped endpoint /api/run?run_id= on ${host}: if this is a ComfyDeploy deployment (white-label or self-hosted), move to GET {base}${ENDPOINTS.getRun.v2.path}; list the host under legacyHosts or ignoreHosts in comfydeploy-migrate.config.json to settle it.`;
}

export function sdkTypeMessage(name: string): string {
  const mapping = V1_SDK_EXPORTS.find((m) => m.v1 === name);
  const target = mapping ? `${mapping.v2} (${mapping.reason})` : "the V2 SDK's types";
  return `${name} in a type position is V1 SDK API (${JS_SDK.packageName} 0.0.x): use ${target}; V1 method types such as ${name}["getRun"] have no V2 counterpart of the same shape.`;
}

export function unknownBaseMessage(signature: "create-run" | "get-run"): string {
  const advice = `The base is not known here: if it points at ComfyDeploy, move to ${HOSTS.v2.apiBase}`;
  if (signature === "get-run") {
    return `/run with a run_id query is the V1 status endpoint; V2 is ${ENDPOINTS.getRun.v2.method} {base}${ENDPOINTS.getRun.v2.path}. ${advice}.`;
  }
  return `A POST to {base}/run whose body carries deployment_id is V1's create-run; V2 is ${ENDPOINTS.createRun.v2.method} {base}${ENDPOINTS.createRun.v2.path}. ${advice}.`;
}

export function vendoredClassMessage(otherHost: string | undefined): string {
  const replace = `replace it with the V2 SDK (${JS_SDK.packageName}@${JS_SDK.v2Pin}, new ComfyDeploy) or move its requests to ${ENDPOINTS.createRun.v2.method} {base}${ENDPOINTS.createRun.v2.path} and ${ENDPOINTS.getRun.v2.method} {base}${ENDPOINTS.getRun.v2.path}`;
  if (otherHost) {
    return `V1-shaped API on another host (${otherHost}): this class copies the V1 client. If this host proxies ComfyDeploy, ${replace}; list the host under legacyHosts or ignoreHosts in the config to settle it.`;
  }
  return `Local copy of the V1 client class (POST {base}/run, GET {base}/run?run_id=): ${replace}.`;
}

export function vendoredImportMessage(name: string): string {
  return `${name} is a local copy of the V1 client: import ComfyDeploy from ${JS_SDK.packageName}@${JS_SDK.v2Pin} here instead, once its calls are migrated (or migrate the copy itself).`;
}

export function vendoredConstructorMessage(name: string): string {
  return `new ${name}() builds a local copy of the V1 client (V1 endpoints, usually the V1 base): use new ComfyDeploy({ bearer, serverURL? }) from ${JS_SDK.packageName}@${JS_SDK.v2Pin}; V2 takes serverURL verbatim.`;
}

export function vendoredCallMessage(method: string): string {
  const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
  const target = mapping?.v2 ? `with the V2 SDK this is ${mapping.v2}; ` : "";
  return `.${method}() on a local copy of the V1 client talks to the V1 API: ${target}${mapping?.advice ?? "migrate the class first"}.`;
}

/** What a request on a base its file does not show is reported on: where the repository sets the V1 base. */
export function heldBaseMessage(endpoint: V1Endpoint, at: { file: string; line: number }): string {
  return `${endpointMessage(endpoint)} The base is not in this file; the repository sets the ComfyDeploy API base at ${at.file}:${at.line}.`;
}
