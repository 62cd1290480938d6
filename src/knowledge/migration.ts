/**
 * Everything the tool knows about the V1 -> V2 migration, as data.
 * The scanner, the transforms, the reports and the docs all read from here;
 * facts come from shared/docs/v1-to-v2.md and the service interface spec.
 */

export const CUTOFF_DATE = "2025-04-15";

/** The flag the migration check sends (the spec's neutral name for the vendor's flag). */
export const MIGRATION_FLAG = "partner_v2";

export const HOSTS = {
  v1: { host: "www.comfydeploy.com", apiBase: "https://www.comfydeploy.com/api" },
  v2: { host: "api.comfydeploy.com", apiBase: "https://api.comfydeploy.com/api" },
  v2Staging: { host: "staging.api.comfydeploy.com", apiBase: "https://staging.api.comfydeploy.com/api" },
} as const;

export interface EndpointChange {
  operation: string;
  v1: { method: "GET" | "POST"; path: string; query?: string };
  v2: { method: "GET" | "POST"; path: string };
}

/** Paths are relative to the API base (which ends in /api). */
export const ENDPOINTS = {
  createRun: {
    operation: "Create run",
    v1: { method: "POST", path: "/run" },
    v2: { method: "POST", path: "/run/deployment/queue" },
  },
  getRun: {
    operation: "Get run",
    v1: { method: "GET", path: "/run", query: "run_id" },
    v2: { method: "GET", path: "/run/{run_id}" },
  },
} as const satisfies Record<string, EndpointChange>;

/** Fields V1's POST /run took that V2's queue endpoint does not. */
export const V1_ONLY_CREATE_FIELDS = [
  "workflow_api",
  "workflow_api_json",
  "workflow_id",
  "machine_id",
  "concurrency_limit",
  "private_volume_name",
  "timeout",
  "run_origin",
  "inputs_json",
  "stream",
  "batch_number",
] as const;

export const V2_QUEUE_FIELDS = [
  "deployment_id",
  "inputs",
  "webhook",
  "webhook_intermediate_status",
  "gpu",
  "flags",
] as const;

export const GPU_TYPES = ["T4", "L4", "A10G", "L40S", "A100", "A100-80GB", "H100"] as const;

export type RewriteClass = "mechanical" | "guarded" | "manual";

/** The npm package name is the same for both SDK generations. */
export const JS_SDK = {
  packageName: "comfydeploy",
  /** Every version below this targets V1. */
  firstV2Version: "2.0.0-0",
  v2Pin: "2.0.0-beta.69",
  /** V2 declares zod as a peer dependency. */
  v2PeerDependencies: { zod: "^3" },
  latestTagIsV1: "0.0.19",
} as const;

export interface SdkExportMapping {
  v1: string;
  v2: string;
  rewrite: RewriteClass;
  reason: string;
}

/** Named exports of the V1 JS SDK and what replaces them. */
export const V1_SDK_EXPORTS: readonly SdkExportMapping[] = [
  { v1: "ComfyDeployClient", v2: "ComfyDeploy", rewrite: "mechanical", reason: "class renamed" },
  {
    v1: "parseWebhookDataSafe",
    v2: "client.validateWebhook({ request })",
    rewrite: "guarded",
    reason: "returns a tuple in V1 and throws in V2; parsed keys become camelCase",
  },
  {
    v1: "WebookRequestBody",
    v2: "WorkflowRunWebhookBody",
    rewrite: "guarded",
    reason: "type-only use is a rename; parsed keys change case",
  },
  { v1: "OutputFileType", v2: "MediaItem", rewrite: "guarded", reason: "V2 adds a required `type`" },
];

export interface SdkMethodMapping {
  v1: string;
  v2: string | null;
  rewrite: RewriteClass;
  advice: string;
}

/** Methods of a V1 `ComfyDeployClient` instance. */
export const V1_CLIENT_METHODS: readonly SdkMethodMapping[] = [
  {
    v1: "run",
    v2: "client.run.deployment.queue({ deploymentId, inputs, webhook })",
    rewrite: "guarded",
    advice: "V2 throws instead of returning null and answers `{ runId }`",
  },
  {
    v1: "getRun",
    v2: "client.run.get({ runId })",
    rewrite: "guarded",
    advice: "V2 throws instead of returning null; result keys are camelCase",
  },
  {
    v1: "runSync",
    v2: null,
    rewrite: "manual",
    advice: "no V2 equivalent: queue with run.deployment.queue, then poll run.get until a terminal status",
  },
  {
    v1: "getUploadUrl",
    v2: "client.file.upload({ file })",
    rewrite: "manual",
    advice: "the presigned two-step upload became one multipart upload",
  },
  {
    v1: "getWebsocketUrl",
    v2: null,
    rewrite: "manual",
    advice: "the websocket endpoint is gone; the nearest V2 API is run.deployment.stream (SSE)",
  },
];

/** Properties of a V1 client that are internal in V2. */
export const V1_CLIENT_PROPERTIES = ["apiBase", "apiToken"] as const;

export const PYTHON_SDK = {
  packageName: "comfydeploy",
  /** Below this version the Python SDK talks to V1. */
  firstV2Version: "0.6.0",
  recommendedRange: ">=0.7.0",
  /** The V2 release an exact or bounded pin moves to, keeping the user's operator (`==0.3.4` → `==0.7.0`). */
  v2Version: "0.7.0",
} as const;

export const RUBY_SDK = { gemName: "comfydeploy", hasV2: false } as const;

/** The ComfyUI node component every machine runs. */
export const NODE_COMPONENT = {
  repository: "BennyKok/comfyui-deploy",
  registryName: "comfyui-deploy",
  minimumVersion: "2.1.0",
  minimumCommit: "62f8e388bb5217bb0472cb14bd7bf2d417225017",
  tags: [
    { tag: "v0.1.0", commit: "5443dcd20bd1df8de41123dd65c416142baea0b8", date: "2024-01-27" },
    { tag: "v0.1.1", commit: "42aaf1acb9b4fe989f1725c08bf1937182ab7547", date: "2024-01-28" },
    { tag: "v0.1.2", commit: "b0b23783bad4bf07425246bf298ac15924ebef47", date: "2024-01-30" },
    { tag: "v0.1.3", commit: "eb5e2f36cd862b7d6fbc64386fa4c105aa9d2483", date: "2024-02-02" },
    { tag: "v2.0.0", commit: "7e640a0da474d8d8a788ff20dda9eee100dd69a2", date: "2025-03-24" },
    { tag: "v2.1.0", commit: "62f8e388bb5217bb0472cb14bd7bf2d417225017", date: "2025-04-01" },
    { tag: "v2.3.1", commit: "967709dd07f1c973999eaef86eb074568551cbce", date: "2025-08-21" },
    { tag: "v2.3.2", commit: "a91edf6371e153fabcd82c6ca62ba5f29ec60a40", date: "2025-08-26" },
    { tag: "v2.3.3", commit: "7d65d23f84d7ec3e9772d00f62146cbe36e3d267", date: "2025-08-26" },
    { tag: "v2.3.4", commit: "31c38ddb9baf9bfb503493a8af3c5a35fdf2e5ce", date: "2025-08-29" },
    { tag: "v2.3.5", commit: "ffda951cfaf565ada0661854167294901e23a6fe", date: "2025-09-10" },
    { tag: "v2.3.6", commit: "c13828af5625683043f700800cd9ab5622985d5f", date: "2025-09-11" },
    { tag: "v2.3.7", commit: "1a8e089c7dd2f4040ac7e5271ba4cfc5b0a54e7d", date: "2025-09-12" },
    { tag: "v2.3.8", commit: "60c93b65f49f966d4aa87cc989c3f53ea48efb6b", date: "2025-09-22" },
    { tag: "v2.3.9", commit: "a4e3bc2571968f20e534c206be1d0bc2b1031a8f", date: "2025-10-10" },
    { tag: "v2.3.10", commit: "98c1aca606b18ec945baabc820a436583cee4e6a", date: "2025-11-12" },
  ],
  /** Commits known to predate v2.1.0 (pinned by old worker releases). */
  knownOutdatedCommits: [
    "d9f83dadd1acf36133a2e81301488a2b1672ffb4",
    "6b99b8a66adc5fb17b42508dea3f9814f08f81a6",
    "824ce16b4e7fd89d8ce309428cff32e08b581633",
    "744a222e2652014e4d09af6b54fc11263b15e2f7",
    "fa2638f66d7670c7e9d101eb36a20e9f82c9eb50",
    "8628480362512644463729c38c602a1ef07d1bd5",
    "7ec3e1c0c8393366f5273f39ccca5e01d271bc74",
    "6e068590a0831d10009074e65d23a083b31dd2d7",
    "9b24b120061058c5b05f2d72f0aa1e49ee0ecb1d",
    "73853a60ff48a83fff1f71c6f7b26104ca75123d",
  ],
  /** Registry versions published before v2.1.0. */
  outdatedRegistryVersions: ["1.0.0", "1.1.0", "2.0.0"],
} as const;

/** The partner GPU platform's prebuilt worker image. */
export const WORKER_IMAGE = {
  image: "bennykok/comfydeploy-runpod-worker",
  /** The first release whose image pins the node at v2.1.0. */
  firstReadyTag: "v2.2.10",
  /** Tags that float and so pin nothing. */
  floatingTags: ["latest", "dev"],
  note: "The worker's own v2.1.0 tag is unrelated to the node's v2.1.0 and is outdated.",
} as const;

/** This tool's repository (package.json `repository`); its README holds the rule reference. */
export const REPOSITORY_URL = "https://github.com/comfydeploy-migrate/comfydeploy-migrate";
/** Rule docs: the README's rule table, one `#rule-<id>` anchor per rule (src/docs/rules-markdown.ts). */
export const DOCS_BASE = `${REPOSITORY_URL}#`;

// ---------------------------------------------------------------------------
// Python and Ruby SDK call shapes (shared/docs/v1-to-v2.md §4).
// ---------------------------------------------------------------------------

export interface PythonSdkCallMapping {
  /** The call below the client, e.g. "run.create". */
  v1: string;
  v2: string;
  /** The result accessor in V1 and its replacement in V2. */
  v1Result: string;
  v2Result: string;
  rewrite: RewriteClass;
}

/** Where V2 keeps what the V1 Python SDK's input-definition calls returned. */
const PYTHON_INPUT_TYPES_ADVICE =
  "the nearest V2 data is the input_types list of the deployment's entry in deployments.list() (components.InputModel items: input_id, class_type, default_value, …)";

/**
 * The V1 Python SDK (comfydeploy 0.2.1–0.4.1) next to V2 (0.6.0 and later).
 * Beyond shared/docs/v1-to-v2.md §4, from the SDK's own repository
 * (comfy-deploy/comfy-deploy-python): the V1 namespaces and method names of
 * `sdk.py` and `docs/sdks/*` in the 0.4-era tree (the `websocket` namespace
 * from an earlier 0.x tree), and V2's awaitable methods (`run.get_async` in
 * the V2 README, `Deployment.queue_async` in `deployment.py`).
 */
export const PYTHON_SDK_SHAPES = {
  clientClass: "ComfyDeploy",
  /** The constructor option: `ComfyDeploy(bearer_auth=…)` in V1, `ComfyDeploy(bearer=…)` in V2. */
  authOption: { v1: "bearer_auth", v2: "bearer" },
  /** Constructor options V2 takes under the same name and meaning. */
  sameOptions: ["client", "async_client", "retry_config", "timeout_ms"],
  /** Constructor options that choose the server: V2 keeps them, but a V1 value sends V2 calls to the V1 host. */
  serverUrlOptions: ["server_url", "url_params"],
  /** Picks an entry of the SDK's own server list, which is not the same list in V2. */
  serverIndexOption: "server_idx",
  /**
   * Both generations are generated by Speakeasy: every method has an
   * awaitable twin of this suffix, with the same arguments and result.
   */
  asyncSuffix: "_async",
  calls: [
    {
      v1: "run.create",
      v2: "run.deployment.queue",
      v1Result: "object",
      v2Result: "create_run_response",
      rewrite: "guarded",
    },
    { v1: "run.get", v2: "run.get", v1Result: "object", v2Result: "workflow_run_model", rewrite: "guarded" },
  ] as readonly PythonSdkCallMapping[],
  /** Attributes of every response in both generations (the raw HTTP exchange): reading them needs no change. */
  sharedResultFields: ["http_meta"],
  /**
   * Client namespaces that exist only in V1 (V2 has run, with run.deployment
   * below it, file, deployments, session, models, search), with their V1
   * methods: manual. Methods are
   * listed without the async suffix; a call to one is known by its name even
   * on a client the scan cannot follow (`get_client().files.get_upload_url(…)`).
   */
  v1OnlyNamespaces: {
    files: ["get_upload_url"],
    websocket: ["get"],
    workflows: [
      "get_websocket_deployment_id_",
      "post_machine_endpoint",
      "get_v1_workflows",
      "post_v1_workflows",
      "get_v1_workflows_workflow_id_",
      "get_v1_workflows_workflow_id_outputs",
    ],
    machines: ["post_gpu_event", "get_v1_machines", "post_v1_machines", "get_v1_machines_machine_id_"],
    // An earlier 0.x surface, known from V1 apps and from the V1 Ruby gem of the same API (0.0.10).
    deployment: ["get_input_definition", "get"],
    comfyui: [
      "get_auth_response_request_id_",
      "post_workflow",
      "get_workflow_version_version_id_",
      "get_workflow_id_",
      "get_deployment_id_inputs",
      "get_deployment",
    ],
  } as Readonly<Record<string, readonly string[]>>,
  /** The nearest V2 call for a V1-only method, where one exists. */
  v1OnlyAdvice: {
    "files.get_upload_url":
      'V2 uploads in one call instead of a presigned URL and a PUT: file.upload(request={"file": {"file_name": …, "content": …}}), answered in .file_upload_response',
    "websocket.get":
      "the websocket endpoint is gone; the nearest V2 call is run.deployment.stream(request=…) (server-sent events)",
    "workflows.get_websocket_deployment_id_":
      "the websocket endpoint is gone; the nearest V2 call is run.deployment.stream(request=…) (server-sent events)",
    "comfyui.get_deployment_id_inputs": PYTHON_INPUT_TYPES_ADVICE,
    "deployment.get_input_definition": PYTHON_INPUT_TYPES_ADVICE,
    "deployment.get": "the nearest V2 call is deployments.list()",
    "comfyui.get_deployment": "the nearest V2 call is deployments.list()",
  } as Readonly<Record<string, string>>,
  /** The module of the SDK's request and response types, which V2 renamed. */
  modelsModule: "comfydeploy.models",
  modelsRenameExample: "operations.PostRunRequestBody → components.DeploymentRunRequest",
  /** V1 run outputs hold `data` as an object with these lists; in V2 `data` is a dict of lists under the same keys. */
  outputLists: ["images", "files", "gifs", "text"],
  /** The one list of strings; the others hold files (`.url`, `.filename`). */
  outputTextList: "text",
  /** How findings name a read of one of those lists (`outputs[].data.images`). */
  outputRead: "outputs[].data",
} as const;

/** A written `run.<method>` call of the V1 Python SDK (sync or its awaitable twin), with its V2 name. */
export interface PythonRunCall {
  mapping: PythonSdkCallMapping;
  /** As written, e.g. "run.create_async". */
  v1: string;
  /** The V2 call of the same kind, e.g. "run.deployment.queue_async". */
  v2: string;
  awaitable: boolean;
}

export function pythonRunCall(call: string): PythonRunCall | undefined {
  const suffix = PYTHON_SDK_SHAPES.asyncSuffix;
  const awaitable = call.endsWith(suffix);
  const base = awaitable ? call.slice(0, -suffix.length) : call;
  const mapping = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === base);
  return mapping && { mapping, v1: call, v2: awaitable ? `${mapping.v2}${suffix}` : mapping.v2, awaitable };
}

/** A V1-only method as written (`files.get_upload_url_async`), with the advice for it; undefined for other calls. */
export function pythonV1OnlyCall(namespace: string, method: string): { known: boolean; advice?: string } | undefined {
  const methods = PYTHON_SDK_SHAPES.v1OnlyNamespaces[namespace];
  if (!methods) return undefined;
  const suffix = PYTHON_SDK_SHAPES.asyncSuffix;
  const base = method.endsWith(suffix) ? method.slice(0, -suffix.length) : method;
  const advice = PYTHON_SDK_SHAPES.v1OnlyAdvice[`${namespace}.${base}`];
  return { known: methods.includes(base), ...(advice ? { advice } : {}) };
}

/** The Ruby gem (V1 only; no V2 Ruby SDK exists, so its users move to raw HTTP). */
export const RUBY_SDK_SHAPES = {
  requirePath: "comfydeploy",
  clientConstant: "OpenApiSDK::ComfyDeploy",
  publishedVersions: ["0.0.10"],
} as const;

// ---------------------------------------------------------------------------
// Run endpoints in other languages, config and docs (generic text scan).
// ---------------------------------------------------------------------------

/** The body field of a create-run request, in V1 and V2 alike: with a POST to `/api/run` it marks the V1 create. */
export const CREATE_RUN_BODY_FIELD = "deployment_id";

/**
 * Run endpoints that are not the cloud API: the partner GPU platform's
 * serverless API (`https://api.runpod.ai/v2/<endpoint>/run`, `/runsync`).
 * The node's local `/comfyui-deploy/run` never has the `/api/run` shape.
 */
export const NOT_CLOUD_RUN_API = {
  partnerHosts: ["api.runpod.ai"],
  /**
   * Other inference services whose APIs also end in `/run` (`POST {endpoint}/run`,
   * `/run?…`): a file, class or namespace named after one of them is that
   * service's client, even in a repository that also holds the V1 base.
   */
  otherServices: [
    "runpod",
    "replicate",
    "fal",
    "modal",
    "banana",
    "baseten",
    "together",
    "openai",
    "stability",
    "huggingface",
    "beam",
    "salad",
    "vast",
    "novita",
    "deepinfra",
    "fireworks",
    "runware",
    "segmind",
  ],
} as const;

// ---------------------------------------------------------------------------
// Partner worker image status (added for the worker-image rule's advice).
// Source: the vendor's upgrade doc (shared/docs/v1-to-v2.md, section 7).
// ---------------------------------------------------------------------------

export const WORKER_IMAGE_STATUS = {
  /** "Image not actively maintained" per the upgrade doc: rebuilding your own is the durable fix. */
  activelyMaintained: false,
  /** The worker's source repository, for rebuilding the image. */
  sourceRepository: "BennyKok/comfy-deploy-runpod-worker",
} as const;

// ---------------------------------------------------------------------------
// V1 JS SDK shapes the v2-sdk transform keeps, and their V2 names
// (shared/docs/v1-to-v2.md §2; V1 = comfydeploy.js 0.0.19 src/index.ts).
// ---------------------------------------------------------------------------

export const JS_SDK_SHAPES = {
  /** The options V1's constructor read, and V2's names (serverURL is verbatim; V1 appended /api to apiBase). */
  constructorOptions: { apiToken: "bearer", apiBase: "serverURL" },
  /** The keys V1's `run({ … })` sent, and `run.deployment.queue({ … })`'s names for them. */
  runKeys: { deployment_id: "deploymentId", inputs: "inputs", webhook: "webhook" },
  /** Lists V1 kept under `outputs[].data`: files as `{ url, filename }`, and text as strings. */
  outputFileLists: ["images", "files", "gifs"],
  outputTextList: "text",
  /** V1's answer to a webhook body it could not parse: a 500 with this status text. */
  webhookFailureStatus: { status: 500, statusText: "Invalid request" },
  /** Where ESM code imports V2 model types from (the package has no exports map). */
  componentsModule: "comfydeploy/models/components/index.js",
} as const;

/** The dict keys a V1 Python `run.create(request={…})` may carry to map 1:1 onto V2's `run.deployment.queue`. */
export const PYTHON_QUEUE_REQUEST_KEYS = ["deployment_id", "inputs", "webhook"] as const;
