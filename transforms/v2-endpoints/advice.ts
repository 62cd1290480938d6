/**
 * What the v2-endpoints transform says: the advice in its review markers and
 * the messages of its events, worded alike for code, config and docs and
 * built from the migration data.
 */
import { CREATE_RUN_BODY_FIELD, ENDPOINTS, HOSTS, V2_QUEUE_FIELDS } from "../../src/knowledge/migration.js";

/** The endpoints in words: `POST {base}/run` and so on. */
export const ENDPOINT_TEXT = {
  createV1: `${ENDPOINTS.createRun.v1.method} {base}${ENDPOINTS.createRun.v1.path}`,
  createV2: `${ENDPOINTS.createRun.v2.method} {base}${ENDPOINTS.createRun.v2.path}`,
  getV1: `${ENDPOINTS.getRun.v1.method} {base}${ENDPOINTS.getRun.v1.path}?${ENDPOINTS.getRun.v1.query}=<id>`,
  getV2: `${ENDPOINTS.getRun.v2.method} {base}${ENDPOINTS.getRun.v2.path}`,
} as const;

const { createV1: CREATE_V1, createV2: CREATE_V2, getV1: GET_V1, getV2: GET_V2 } = ENDPOINT_TEXT;

/** The body fields a V2 queue request takes (`flags` only serves the migration check). */
const QUEUE_BODY_FIELDS = V2_QUEUE_FIELDS.filter((field) => field !== "flags").join(", ");

export const advice = {
  methodUnknown: (): string =>
    `the HTTP method of this V1 /run request is not known: a create (POST) becomes ${CREATE_V2}, a read (GET ?${ENDPOINTS.getRun.v1.query}=<id>) becomes ${GET_V2}`,
  v1OnlyFields: (fields: readonly string[]): string =>
    `V2 ${ENDPOINTS.createRun.v2.method} ${ENDPOINTS.createRun.v2.path} takes only ${QUEUE_BODY_FIELDS}; move ${fields.join(", ")} elsewhere (V2 queues a deployment by its ${CREATE_RUN_BODY_FIELD})`,
  otherLegacyHost: (host: string): string =>
    `${host} is configured as a V1 host but is not the vendor's: point it at its V2 API base (the vendor's is ${HOSTS.v2.apiBase}), then ${CREATE_V1} becomes ${CREATE_V2} and ${GET_V1} becomes ${GET_V2}`,
  baseNotVendor: (): string =>
    `the base URL of this V1 /run request is not provably ${HOSTS.v1.apiBase}: if it serves ComfyDeploy, move it to ${HOSTS.v2.apiBase} and use the V2 paths: ${CREATE_V1} becomes ${CREATE_V2}, ${GET_V1} becomes ${GET_V2}`,
  createUnproven: (url?: { from: string; to: string }): string =>
    `this V1 /run URL is a create (POST) by its use or name, which could not be proven here: if it is, make ${url ? `${url.from} into ${url.to}` : `the path ${ENDPOINTS.createRun.v2.path}`} (${CREATE_V2})`,
  createBuiltElsewhere: (): string =>
    `this request's V1 /run path is written where its URL is built (a constant or another module), not here: make it ${ENDPOINTS.createRun.v2.path} there if only create requests use it (${CREATE_V2})`,
  createPathHere: (): string =>
    `this V1 /run path builds a URL that other code uses too (another request, or code this file cannot follow), so it was left as it is: make it ${ENDPOINTS.createRun.v2.path} if every request it reaches creates runs (${CREATE_V2})`,
  /** A request on a base the scan could not resolve, taken to be the one the repository sets: neither host nor path is rewritten. */
  heldBase: (endpoint: "create" | "get", at: { file: string; line: number }): string =>
    `the base of this V1 /run request is not known here (the repository sets a ComfyDeploy API base at ${at.file}:${at.line}): if it is sent on that base, move the base to ${HOSTS.v2.apiBase} and make ${endpoint === "create" ? `${CREATE_V1} into ${CREATE_V2}` : `${GET_V1} into ${GET_V2}`}`,
  getNotRewritable: (): string =>
    `V2 reads a run with ${GET_V2}: put the ${ENDPOINTS.getRun.v1.query} value into the path instead of the query (it could not be moved automatically here)`,
  createNotRewritable: (): string => `V2 creates a run with ${CREATE_V2}: change the /run path of this request`,
  /** The same, naming the URL as written here and what it becomes. */
  createPathAt: (url: { from: string; to: string }): string =>
    `V2 creates a run with ${CREATE_V2}: make ${url.from} into ${url.to} in this request`,
  /** A read whose id the text shows: the URL it becomes, with the id escaped as the language escapes a path segment. */
  getPathAt: (path: string, id: string, escaped: string | undefined): string =>
    `V2 reads a run with ${GET_V2}: put ${escaped ?? id} after ${path}/ in place of the ${ENDPOINTS.getRun.v1.query} query${escaped ? ` (${id} escaped as a path segment)` : ""}`,
} as const;

export const messages = {
  host: (from: string, to: string): string => `V1 host ${from.split("?")[0]} → ${to.split("?")[0]}`,
  create: (): string => `${CREATE_V1} → ${CREATE_V2}`,
  get: (): string => `${GET_V1} → ${GET_V2}`,
  /** A read rewritten with its id put into the path as it is: fine for V2's UUID run ids, not for ids that hold `/`, `?` or `#`. */
  getUnescaped: (why: string): string =>
    `${GET_V1} → ${GET_V2}; the id goes into the path unescaped (${why}): escape it as a path segment if it can hold "/", "?" or "#"`,
} as const;
