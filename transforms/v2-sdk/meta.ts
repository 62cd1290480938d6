/** v2-sdk: what it rewrites and what it marks, for the JS/TS SDK and the Python SDK. */
import { PYTHON_SDK_SHAPES } from "../../src/knowledge/python-sdk-shapes.js";
import type { TransformMeta } from "../types.js";

const AUTH = PYTHON_SDK_SHAPES.authOption;
const CREATE = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.create")!;
const GET = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.get")!;
const ASYNC = PYTHON_SDK_SHAPES.asyncSuffix;

export const meta = {
  id: "v2-sdk",
  title: "V1 JS SDK → V2 JS SDK",
  rules: ["v1-sdk-import", "v1-sdk-client", "v1-sdk-call", "v1-sdk-type"],
  rewrites: [
    "import { ComfyDeployClient } / require / namespace → ComfyDeploy",
    "new ComfyDeployClient({ apiToken, apiBase }) → new ComfyDeploy({ bearer, serverURL? })",
    "client.run({ deployment_id, inputs, webhook }) → client.run.deployment.queue({ deploymentId, … }), adapted to { run_id } | null",
    "client.getRun(id) → client.run.get({ runId: id }), adapted to the V1 run shape | null",
    "parseWebhookDataSafe(req) → validateWebhook({ request }), adapted to [data, errorResponse]",
    'z.infer<typeof OutputFileType> → Pick<MediaItem, "url" | "filename">',
    `Python ${PYTHON_SDK_SHAPES.clientClass}(${AUTH.v1}=…) → ${PYTHON_SDK_SHAPES.clientClass}(${AUTH.v2}=…), other options kept`,
    `Python .${CREATE.v1}[${ASYNC}](request={deployment_id, inputs, webhook}) → .${CREATE.v2}[${ASYNC}](request=…), with .${CREATE.v1Result} → .${CREATE.v2Result} where every use is in the same function`,
    `Python .${GET.v1}[${ASYNC}](…).${GET.v1Result} → .${GET.v2Result} where every use is in the same function`,
  ],
  marks: [
    "client.run(arg) with a non-literal argument or other keys",
    "runSync, getUploadUrl, getWebsocketUrl",
    "client.apiBase / client.apiToken reads",
    "non-literal constructor options that are not provably { apiToken, apiBase }",
    'ComfyDeployClient["method"] types, subclasses of the V1 client',
    "WebookRequestBody (type or schema), OutputFileType as a value, re-exports of V1 names",
    "Python results that leave the function, other request shapes, server options that may name the V1 host",
    `Python V1-only namespaces (${Object.keys(PYTHON_SDK_SHAPES.v1OnlyNamespaces).join(", ")})`,
    "Python .object reads of results from elsewhere (each one), V1 reads of run outputs (.data.images), comfydeploy.models imports",
  ],
} as const satisfies TransformMeta;
