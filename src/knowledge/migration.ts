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
// Ruby SDK call shapes (shared/docs/v1-to-v2.md §4); the Python ones are in python-sdk-shapes.ts.
// ---------------------------------------------------------------------------

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
