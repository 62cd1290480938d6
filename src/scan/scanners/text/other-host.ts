/**
 * V1-shaped run endpoints on hosts that are neither the vendor's nor the
 * app's own: `https://comfy.example.com/api/run?run_id=...`, or a POST to
 * `https://<host>/api/run` with a `deployment_id` body. White-label and
 * self-hosted deployments exist, so these are reported for review only.
 * A bare `/api/run` on another host is too generic to report.
 */
import { CREATE_RUN_BODY_FIELD, ENDPOINTS, HOSTS, NOT_CLOUD_RUN_API } from "../../../knowledge/migration.js";
import { parseUrlText } from "../../../core/urls.js";
import type { HttpMethod } from "./http-methods.js";
import type { TextFile } from "../../../lang/text/text-file.js";

export interface OtherHostShape {
  start: number;
  end: number;
  host: string;
  endpoint: "get-run" | "create-run";
}

/** What the scan knows about the request a URL belongs to. */
export interface RequestFacts {
  method: HttpMethod | undefined;
  /** The text around the request where its body would be (statement, request object, nearby lines). */
  context: string;
}

const ABSOLUTE_URL = /\b(?:https?|wss?):\/\/[^\s"'`<>()[\]{}|\\,;]+/gi;
const LOOPBACK =
  /^(?:localhost|[\w.-]+\.localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[::1\]|host\.docker\.internal)(?::\d+)?$/i;

export function findOtherHostShapes(file: TextFile, requestAt: (offset: number) => RequestFacts): OtherHostShape[] {
  const out: OtherHostShape[] = [];
  for (const match of file.text.matchAll(ABSOLUTE_URL)) {
    const url = match[0].replace(/[.:]+$/, "");
    const info = parseUrlText(url, file.hosts);
    if (info.hostKind !== "other" || !info.host || LOOPBACK.test(info.host)) continue;
    if (NOT_CLOUD_RUN_API.partnerHosts.some((h) => info.host === h || info.host!.endsWith(`.${h}`))) continue;
    if (info.apiPath !== ENDPOINTS.createRun.v1.path && info.apiPath !== `${ENDPOINTS.createRun.v1.path}/`) continue;
    const start = match.index!;
    const shape = { start, end: start + url.length, host: info.host };
    if (info.queryKeys.has(ENDPOINTS.getRun.v1.query)) {
      out.push({ ...shape, endpoint: "get-run" });
      continue;
    }
    const request = requestAt(start);
    if (request.method === "POST" && new RegExp(`\\b${CREATE_RUN_BODY_FIELD}\\b`).test(request.context)) {
      out.push({ ...shape, endpoint: "create-run" });
    }
  }
  return out;
}

export function otherHostMessage(host: string, endpoint: "get-run" | "create-run"): string {
  const shape =
    endpoint === "get-run"
      ? `GET /api/run?run_id=<id> (V2: ${ENDPOINTS.getRun.v2.method} {base}${ENDPOINTS.getRun.v2.path})`
      : `POST /api/run with a ${CREATE_RUN_BODY_FIELD} (V2: ${ENDPOINTS.createRun.v2.method} {base}${ENDPOINTS.createRun.v2.path})`;
  return (
    `V1-shaped endpoint on ${host}: ${shape}. If this host serves ComfyDeploy (white-label or self-hosted), ` +
    `migrate it to ${HOSTS.v2.apiBase} or its V2 equivalent; list it in legacyHosts to have it treated as V1, or in ignoreHosts if it is unrelated.`
  );
}
