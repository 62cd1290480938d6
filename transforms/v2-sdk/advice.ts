/** What the v2-sdk markers say about V1 names and calls that have no one-to-one V2 counterpart. */
import { V1_CLIENT_METHODS } from "../../src/knowledge/migration.js";
import {
  COMPONENTS_MODULE,
  MEDIA_ITEM,
  OUTPUT_FILE_SCHEMA,
  V2_CLASS,
  WEBHOOK_PARSER,
  WEBHOOK_SCHEMA,
} from "./context.js";

export function schemaAdvice(name: string): string {
  if (name === WEBHOOK_SCHEMA) {
    return `${WEBHOOK_SCHEMA} is the V1 webhook schema: the migrated parseWebhookDataSafe calls keep its snake_case shape ({ status, run_id, outputs }), so declare that type locally; or move to validateWebhook and WorkflowRunWebhookBody (${COMPONENTS_MODULE}), whose keys are camelCase (runId, liveStatus)`;
  }
  if (name === OUTPUT_FILE_SCHEMA) {
    return `${OUTPUT_FILE_SCHEMA} is a V1 zod schema: as a type use Pick<${MEDIA_ITEM}, "url" | "filename"> (${MEDIA_ITEM} from ${COMPONENTS_MODULE}); V2 has no public schema for it`;
  }
  if (name === WEBHOOK_PARSER)
    return `${WEBHOOK_PARSER} used as a value: call new ${V2_CLASS}().validateWebhook({ request }) instead (it throws and answers in camelCase)`;
  return `${name} is V1 SDK API with no V2 counterpart`;
}

/** What the compat module's stand-in for a V1 client method does. */
const COMPAT_BEHAVIOUR: Readonly<Record<string, string>> = {
  run: "queues deployment_id, inputs and webhook with run.deployment.queue and answers { run_id } or null, as V1 did",
  getRun: "reads the run with run.get and answers V1's run shape or null, as V1 did",
  runSync: "queues with run.deployment.queue, then reads run.get every second until the run ends, as V1's runSync did",
  getUploadUrl: "logs and answers null, as V1 did when the call failed",
  getWebsocketUrl: "logs and answers null, as V1 did when the call failed",
};

/** The marker of a V1 client call routed through the compat module: what happens now, and what V2 itself offers. */
export function compatCallAdvice(method: string, compat: string, problem?: string): string {
  const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
  const now = `client.${method}() now goes through ${compat}.${method}, which ${COMPAT_BEHAVIOUR[method] ?? "keeps V1's contract"}`;
  const v2 = mapping ? ` For V2 itself: ${mapping.advice}${mapping.v2 ? ` (V2 API: ${mapping.v2})` : ""}.` : "";
  return `${problem ? `${problem}; ` : ""}${now}.${v2}`;
}
