/**
 * The source of the compat module `fix` writes once per package (as
 * TypeScript; JavaScript flavours are derived from it). It must compile
 * under the strictest settings an app may use (strict,
 * noUncheckedIndexedAccess, exactOptionalPropertyTypes, noUnused*,
 * verbatimModuleSyntax) against comfydeploy 2.0.0-beta.69 and zod 3, and
 * keep to simple lines: the writer adapts quotes, semicolons and indentation
 * to the package's style, so strings hold no quotes and no line starts with
 * `(` or `[`. test/transforms/compat-module.test.ts type-checks and runs it.
 *
 * Facts come from the migration data (hosts, the outputs lists, V1's webhook
 * failure); the V1 contracts it keeps are those of comfydeploy 0.0.19.
 */
import { HOSTS, JS_SDK, JS_SDK_SHAPES } from "../../../src/knowledge/migration.js";
import { TERMINAL_RUN_STATUSES } from "../../../src/knowledge/run-record.js";

/** The module's name in the package, without its extension. */
export const COMPAT_MODULE_NAME = "comfydeploy-v1-compat";

/** V1 kept these statuses in its run enum; a webhook with any other status was answered with a 500. */
const V1_STATUSES = ["not-started", "running", "uploading", "success", "failed", "started", "queued", "timeout"];

const FAILURE = JS_SDK_SHAPES.webhookFailureStatus;
const FILE_LISTS = JS_SDK_SHAPES.outputFileLists;
const TEXT_LIST = JS_SDK_SHAPES.outputTextList;

const list = (items: readonly string[]): string => items.map((item) => `"${item}"`).join(", ");

export const COMPAT_TEMPLATE = `/**
 * Written by comfydeploy-migrate when it moved this package from the V1
 * ComfyDeploy SDK to V2 (${JS_SDK.packageName} ${JS_SDK.v2Pin}). It keeps what the code around it
 * relied on from V1 that V2 has no one-to-one replacement for:
 *
 * - toV1RunOutputs: run outputs in V1's shape, for the migrated getRun calls.
 * - runSync: queue, then read the run until it ends, on the V2 SDK.
 * - getUploadUrl, getWebsocketUrl: V2 has no such endpoints; these log what
 *   to use instead and answer null, as V1 did when a call failed.
 * - run, getRun: V1's calls for the argument shapes a call site could not
 *   be rewritten for.
 * - parseWebhookDataSafe: V1's webhook parsing, unchanged (V2's
 *   client.validateWebhook answers in camelCase and throws instead).
 * - WebookRequestBody, OutputFileType: V1's schemas of a webhook's body and
 *   of an output file.
 * - serverUrlFromApiBase, optionsFromV1: V1's constructor options as V2's
 *   (V1 appended /api to apiBase), with the retired V1 host moved to the
 *   V2 host.
 * - apiBaseOf, apiTokenOf: what V1 kept as client.apiBase and
 *   client.apiToken.
 * - V1Client: the V1 client's member types, for type positions.
 *
 * Each call site that still depends on it carries a review marker. Delete
 * this file once nothing imports it.
 */
import type { ComfyDeploy } from "${JS_SDK.packageName}";
import type { WorkflowRunModel } from "${JS_SDK_SHAPES.componentsModule}";
import { z } from "zod";

export const OutputFileType = z.object({ url: z.string(), filename: z.string() });

const runStatus = z.enum([${list(V1_STATUSES)}]);

const runOutputs = z.array(
  z.object({
    data: z.object({
${FILE_LISTS.map((name) => `      ${name}: z.array(OutputFileType).optional(),`).join("\n")}
      ${TEXT_LIST}: z.array(z.string()).optional(),
    }),
  }),
);

export const WebookRequestBody = z.object({ status: runStatus, run_id: z.string(), outputs: runOutputs });

export type V1RunOutputs = z.infer<typeof runOutputs>;

/** What V1's getRun answered. */
export interface V1Run {
  id: string;
  status: string;
  outputs: V1RunOutputs;
  live_status: string | null;
  progress: number;
}

/** What V1's run and runSync took. */
export interface V1RunRequest {
  deployment_id: string;
  inputs?: Record<string, string | number | boolean>;
  webhook?: string;
  /** V1-only fields (workflow_api, machine_id, ...): V2's queue does not take them. */
  [v1Only: string]: unknown;
}

/** The V1 client's members as migrated code keeps them, for types such as V1Client["getRun"]. */
export interface V1Client {
  apiBase: string;
  apiToken: string;
  run(request: V1RunRequest): Promise<{ run_id: string } | null>;
  getRun(runId: string): Promise<V1Run | null>;
  runSync(request: V1RunRequest): Promise<V1Run | { id: string } | null>;
  getUploadUrl(type: string, fileSize: number): Promise<{ upload_url: string; file_id: string; download_url: string } | null>;
  getWebsocketUrl(request: { deployment_id: string }): Promise<{ ws_connection_url: string } | null>;
}

type V2Outputs = WorkflowRunModel["outputs"];

/** V2 run outputs in V1's shape: images, files and gifs as { url, filename } lists, text as strings. */
export function toV1RunOutputs(outputs: V2Outputs): V1RunOutputs {
  return (outputs ?? []).map(({ data }) => {
    const fileList = (name: string) => data[name]?.flatMap((item) => (typeof item === "string" ? [] : [{ url: item.url, filename: item.filename }]));
    const shaped: V1RunOutputs[number]["data"] = {};
${FILE_LISTS.map((name) => `    const ${name} = fileList("${name}");\n    if (${name}) shaped.${name} = ${name};`).join("\n")}
    const ${TEXT_LIST} = data["${TEXT_LIST}"]?.filter((item): item is string => typeof item === "string");
    if (${TEXT_LIST}) shaped.${TEXT_LIST} = ${TEXT_LIST};
    return { data: shaped };
  });
}

/** V1's run(): the V2 queue, resolving to { run_id } or, after logging the error, null. */
export async function run(client: ComfyDeploy, request: V1RunRequest): Promise<{ run_id: string } | null> {
  const { deployment_id, inputs, webhook } = request;
  return client.run.deployment
    .queue({ deploymentId: deployment_id, ...(inputs ? { inputs } : {}), ...(webhook ? { webhook } : {}) })
    .then(
      (queued) => ({ run_id: queued.runId }),
      (error: unknown) => {
        console.error(error);
        return null;
      },
    );
}

/** V1's getRun(): V2's run.get, resolving to V1's run shape or, after logging the error, null. */
export async function getRun(client: ComfyDeploy, runId: string): Promise<V1Run | null> {
  return client.run.get({ runId }).then(
    (found) => ({
      id: found.id,
      status: found.status,
      outputs: toV1RunOutputs(found.outputs),
      live_status: found.liveStatus,
      progress: found.progress ?? 0,
    }),
    (error: unknown) => {
      console.error(error);
      return null;
    },
  );
}

const RUN_SYNC_READS = 300;
const RUN_SYNC_INTERVAL_MS = 1000;
const ENDED = new Set([${list([...TERMINAL_RUN_STATUSES])}]);

/**
 * V1's runSync() on V2: queues the run, then reads it every second until it
 * ends or five minutes pass. Answers as V1 did: the run in V1's shape, { id }
 * when the last read failed, null when queueing failed. One difference: V1
 * kept reading a failed run until the five minutes were up.
 */
export async function runSync(client: ComfyDeploy, request: V1RunRequest): Promise<V1Run | { id: string } | null> {
  const queued = await run(client, request);
  if (!queued) return null;
  let last: V1Run | null = null;
  for (let read = 0; read < RUN_SYNC_READS; read++) {
    last = await getRun(client, queued.run_id);
    if (last && ENDED.has(last.status)) break;
    await new Promise((resolve) => setTimeout(resolve, RUN_SYNC_INTERVAL_MS));
  }
  return last ?? { id: queued.run_id };
}

/** V2 has no presigned uploads: upload the file itself with client.file.upload({ file }), which answers { fileId, fileUrl }. */
export async function getUploadUrl(_client: ComfyDeploy, type: string, fileSize: number): Promise<{ upload_url: string; file_id: string; download_url: string } | null> {
  console.error(\`getUploadUrl(\${type}, \${fileSize}) is V1 only: V2 has no presigned upload URL; upload the file with client.file.upload({ file })\`);
  return null;
}

/** V2 has no websocket endpoint: follow a run with client.run.deployment.stream (server-sent events), or poll client.run.get. */
export async function getWebsocketUrl(_client: ComfyDeploy, request: { deployment_id: string }): Promise<{ ws_connection_url: string } | null> {
  console.error(\`getWebsocketUrl(\${request.deployment_id}) is V1 only: V2 has no websocket endpoint; use client.run.deployment.stream or poll client.run.get\`);
  return null;
}

/**
 * V1's parseWebhookDataSafe(), unchanged: the body (the query string for a
 * GET) parsed with V1's schema, answered as [data, undefined], or as
 * [undefined, a ${FAILURE.status} response] with the schema's field errors.
 */
export async function parseWebhookDataSafe(request: Request, headers?: ResponseInit["headers"]): Promise<[z.infer<typeof WebookRequestBody> | undefined, Response | undefined]> {
  const failed = (body: unknown) => Response.json(body, { status: ${FAILURE.status}, statusText: "${FAILURE.statusText}", ...(headers ? { headers } : {}) });
  try {
    const raw: unknown = request.method === "GET" ? queryOf(request.url) : await request.json();
    const parsed = await WebookRequestBody.safeParseAsync(raw);
    if (parsed.success) return [parsed.data, undefined];
    return [undefined, failed(parsed.error.flatten().fieldErrors)];
  } catch {
    return [undefined, failed({ message: "${FAILURE.statusText}" })];
  }
}

function queryOf(url: string): Record<string, string> {
  const query: Record<string, string> = {};
  new URL(url).searchParams.forEach((value, key) => {
    query[key] = value;
  });
  return query;
}

/** V1's constructor options as V2's: apiToken becomes bearer, apiBase becomes serverURL. */
export function optionsFromV1(options: { apiToken: string; apiBase?: string | undefined }): { bearer: string; serverURL?: string } {
  const serverURL = serverUrlFromApiBase(options.apiBase);
  return serverURL ? { bearer: options.apiToken, serverURL } : { bearer: options.apiToken };
}

/** What V1 kept as client.apiBase: the API base with its /api, from the options V2 keeps. */
export function apiBaseOf(client: ComfyDeploy): string {
  return client._options.serverURL ?? "${HOSTS.v2.apiBase}";
}

/** What V1 kept as client.apiToken: the bearer token given as a string (V2 also takes a function, which has no such value). */
export function apiTokenOf(client: ComfyDeploy): string {
  const bearer = client._options.bearer;
  return typeof bearer === "string" ? bearer : "";
}

/** V2's serverURL for a value V1 took as apiBase: V1 appended /api; the retired V1 host becomes the V2 host. */
export function serverUrlFromApiBase(apiBase: string | undefined): string | undefined {
  if (!apiBase) return undefined;
  const base = apiBase.replace(/\\/+$/, "").replace("://${HOSTS.v1.host}", "://${HOSTS.v2.host}");
  return \`\${base}/api\`;
}
`;
