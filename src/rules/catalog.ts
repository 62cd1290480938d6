/**
 * The rule catalog: stable ids and what each rule means. Reports, SARIF rule
 * metadata and the README's rule list are all generated from this table.
 */
import {
  DOCS_BASE,
  ENDPOINTS,
  HOSTS,
  JS_SDK,
  NODE_COMPONENT,
  PYTHON_SDK,
  WORKER_IMAGE,
} from "../knowledge/migration.js";

export type Severity = "error" | "warning" | "info";
export type FixClass = "auto" | "review" | "manual";

export const RULE_IDS = [
  "legacy-base-url",
  "legacy-create-run",
  "legacy-get-run",
  "v1-sdk-import",
  "v1-sdk-client",
  "v1-sdk-call",
  "v1-sdk-dependency",
  "node-component-pin",
  "worker-image",
  "other-host-v1-shape",
  "vendored-v1-client",
  "v1-shape-unknown-base",
  "v1-sdk-type",
  "unreadable-file",
  "review-marker",
  "verify-failed",
  "unused-ignore",
] as const;

export type RuleId = (typeof RULE_IDS)[number];

export interface Rule {
  id: RuleId;
  title: string;
  severity: Severity;
  fix: FixClass;
  /** One or two sentences: why it matters and what replaces it. */
  explanation: string;
  /** README anchor with the rule's documentation. */
  docs: string;
  /** A short example of what the rule catches. */
  example: string;
}

const rules: Omit<Rule, "docs">[] = [
  {
    id: "legacy-base-url",
    title: "V1 API host",
    severity: "error",
    fix: "auto",
    explanation: `The V1 API base ${HOSTS.v1.apiBase} is being retired; V2 lives at ${HOSTS.v2.apiBase}. Links to the vendor's web pages (docs, API keys) are not the API and are not reported.`,
    example: `const BASE = "${HOSTS.v1.apiBase}";`,
  },
  {
    id: "legacy-create-run",
    title: "V1 create-run endpoint",
    severity: "error",
    fix: "auto",
    explanation: `V1 created runs with ${ENDPOINTS.createRun.v1.method} {base}${ENDPOINTS.createRun.v1.path}; V2 uses ${ENDPOINTS.createRun.v2.method} {base}${ENDPOINTS.createRun.v2.path}. The JSON body stays snake_case.`,
    example: `fetch(\`\${BASE}/run\`, { method: "POST", body })`,
  },
  {
    id: "legacy-get-run",
    title: "V1 get-run endpoint",
    severity: "error",
    fix: "auto",
    explanation: `V1 read a run with GET {base}/run?run_id=<id>; V2 uses GET {base}${ENDPOINTS.getRun.v2.path}.`,
    example: `fetch(\`\${BASE}/run?run_id=\${id}\`)`,
  },
  {
    id: "v1-sdk-import",
    title: "V1 SDK import",
    severity: "error",
    fix: "auto",
    explanation: `ComfyDeployClient, parseWebhookDataSafe, WebookRequestBody and OutputFileType exist only in the V1 JS SDK (${JS_SDK.packageName} 0.0.x); V2 exports ComfyDeploy, validateWebhook and the WorkflowRunWebhookBody and MediaItem types. Also Python imports under a V1 pin and Ruby's require of the V1-only gem.`,
    example: `import { ComfyDeployClient } from "comfydeploy";`,
  },
  {
    id: "v1-sdk-client",
    title: "V1 SDK client",
    severity: "error",
    fix: "review",
    explanation:
      "new ComfyDeployClient({ apiToken, apiBase }) becomes new ComfyDeploy({ bearer, serverURL? }). V1 appends /api to apiBase, V2 uses serverURL verbatim. apiBase and apiToken are internal in V2.",
    example: `const client = new ComfyDeployClient({ apiToken });`,
  },
  {
    id: "v1-sdk-call",
    title: "V1 SDK call",
    severity: "error",
    fix: "review",
    explanation:
      "V1 client methods return null on failure; V2 throws typed errors and answers in camelCase. client.run() becomes client.run.deployment.queue(), client.getRun(id) becomes client.run.get({ runId }); runSync, getUploadUrl and getWebsocketUrl have no direct V2 equivalent.",
    example: `const res = await client.run({ deployment_id, inputs });`,
  },
  {
    id: "v1-sdk-dependency",
    title: "V1 SDK version in a manifest or lockfile",
    severity: "error",
    fix: "auto",
    explanation: `npm ${JS_SDK.packageName} below 2.0.0 (its "latest" tag is still ${JS_SDK.latestTagIsV1}, a V1 version), PyPI ${PYTHON_SDK.packageName} below ${PYTHON_SDK.firstV2Version} and every version of the Ruby gem talk to V1. Pin ${JS_SDK.packageName}@${JS_SDK.v2Pin} exactly on npm, use ${PYTHON_SDK.packageName}${PYTHON_SDK.recommendedRange} on PyPI, and move Ruby code to raw HTTP on V2 (there is no V2 gem).`,
    example: `"comfydeploy": "^0.0.19"`,
  },
  {
    id: "node-component-pin",
    title: "ComfyUI node pinned before v2.1.0",
    severity: "error",
    fix: "auto",
    explanation: `Machines must run ${NODE_COMPONENT.repository} v${NODE_COMPONENT.minimumVersion} (${NODE_COMPONENT.minimumCommit.slice(0, 8)}) or newer; older custom nodes stop working after the cutoff.`,
    example: `git reset --hard 73853a60ff48a83fff1f71c6f7b26104ca75123d`,
  },
  {
    id: "worker-image",
    title: "Outdated or floating partner worker image",
    severity: "warning",
    fix: "review",
    explanation: `Only ${WORKER_IMAGE.image}:${WORKER_IMAGE.firstReadyTag} and later pin the node at v2.1.0. ${WORKER_IMAGE.note}`,
    example: `FROM ${WORKER_IMAGE.image}:v2.1.0`,
  },
  {
    id: "other-host-v1-shape",
    title: "V1-shaped endpoint on another host",
    severity: "warning",
    fix: "manual",
    explanation:
      "An /api/run endpoint with a run_id query on a host that is neither the vendor's nor the app's own. White-label and self-hosted deployments exist: review it, never rewritten automatically.",
    example: `fetch("https://comfy.example.com/api/run?run_id=" + id)`,
  },
  {
    id: "vendored-v1-client",
    title: "Local copy of the V1 client",
    severity: "error",
    fix: "manual",
    explanation: `A local V1 client in the repository, in JS/TS or Python: a class, factory or module of functions whose members send V1 requests, that holds the connection settings (the base URL or API key as constructor parameters, defaults or module-level bindings) and takes the deployment from its caller; and the calls made on it. The app's import and construction of it are reported as v1-sdk-import and v1-sdk-client, where the app switches to V2. The app's own services (sending V1 on the app's shared settings, with a deployment they pick from the app's inputs) are not clients: their requests are reported, their callers are not. A client talks to V1 whatever it is called: replace it with the V2 SDK (${JS_SDK.packageName}@${JS_SDK.v2Pin}) or move its requests to the V2 endpoints. On a host that is not the vendor's it is a warning: the host may proxy V1.`,
    example: `class ComfyDeployClient { apiBase = "${HOSTS.v1.apiBase}"; getRun(id) { return fetch(\`\${this.apiBase}/run?run_id=\${id}\`) } }`,
  },
  {
    id: "v1-shape-unknown-base",
    title: "V1 endpoint shape on an unresolved base",
    severity: "warning",
    fix: "manual",
    explanation: `The path and query are V1's on their own: {base}/run with a run_id query is the status call, a POST to {base}/run whose body carries deployment_id creates a run. The base (a parameter, an env read, a package's export) cannot be resolved, so the host is not known: if it is ComfyDeploy, move to ${ENDPOINTS.createRun.v2.path} and ${ENDPOINTS.getRun.v2.path}. In a repository that sets a ComfyDeploy API base, such a request in JS/TS or Python is reported as legacy-create-run or legacy-get-run instead, naming where the base is set, unless its base is a parameter or a package's export or its class or module holds another host.`,
    example: `const fetchRun = (base, id) => fetch(\`\${base}/run?run_id=\${id}\`);`,
  },
  {
    id: "v1-sdk-type",
    title: "V1 SDK name in a type position",
    severity: "error",
    fix: "review",
    explanation:
      'Type annotations, type-only imports, ReturnType<ComfyDeployClient["getWebsocketUrl"]> and typeof of a V1 client name V1 SDK types. fix renames the class with its import; V1 method types have no V2 counterpart of the same shape and get a review marker.',
    example: `let client: ComfyDeployClient | null = null;`,
  },
  {
    id: "unreadable-file",
    title: "File could not be read or parsed",
    severity: "warning",
    fix: "manual",
    explanation: "A manifest, lockfile or config file could not be parsed, so V1 uses in it may be missed.",
    example: `package.json: Unexpected token } in JSON at position 120`,
  },
  {
    id: "review-marker",
    title: "Review marker left by fix",
    severity: "warning",
    fix: "manual",
    explanation:
      "fix left a TODO(comfydeploy-migrate) marker where it could not rewrite safely. Resolve it and delete the marker.",
    example: `// TODO(comfydeploy-migrate): v1-sdk-call: runSync has no V2 equivalent`,
  },
  {
    id: "verify-failed",
    title: "The project's own check fails on a file fix changed",
    severity: "error",
    fix: "manual",
    explanation:
      "fix --verify (the default in pr) ran the repository's own checks after rewriting: tsc on the nearest tsconfig, node --check, a Python syntax check. This error is in a file fix changed: read the rewrite and its review markers before merging.",
    example: `src/lib/comfy.ts:12: tsc: TS2339 Property 'getRun' does not exist on type 'ComfyDeploy'`,
  },
  {
    id: "unused-ignore",
    title: "Ignore comment that suppresses nothing",
    severity: "warning",
    fix: "manual",
    explanation:
      "A comfydeploy-migrate-ignore comment that covers no finding: the V1 use it excused is gone, or it names the wrong rule or line. Delete it or correct it. Reported with scan --report-unused-ignores, on by default when CI=true.",
    example: `const BASE = "${HOSTS.v2.apiBase}"; // comfydeploy-migrate-ignore legacy-base-url`,
  },
];

export const RULES: ReadonlyMap<RuleId, Rule> = new Map(
  rules.map((rule) => [rule.id, { ...rule, docs: `${DOCS_BASE}rule-${rule.id}` }]),
);

export function getRule(id: RuleId): Rule {
  const rule = RULES.get(id);
  if (!rule) throw new Error(`unknown rule ${id}`);
  return rule;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };
