/** What the v2-sdk markers say about V1 names that have no one-to-one V2 counterpart. */
import { COMPONENTS_MODULE, MEDIA_ITEM, OUTPUT_FILE_SCHEMA, V2_CLASS, WEBHOOK_PARSER, WEBHOOK_SCHEMA } from "./context.js";

export function schemaAdvice(name: string): string {
  if (name === WEBHOOK_SCHEMA) {
    return `${WEBHOOK_SCHEMA} is the V1 webhook schema: the migrated parseWebhookDataSafe calls keep its snake_case shape ({ status, run_id, outputs }), so declare that type locally; or move to validateWebhook and WorkflowRunWebhookBody (${COMPONENTS_MODULE}), whose keys are camelCase (runId, liveStatus)`;
  }
  if (name === OUTPUT_FILE_SCHEMA) {
    return `${OUTPUT_FILE_SCHEMA} is a V1 zod schema: as a type use Pick<${MEDIA_ITEM}, "url" | "filename"> (${MEDIA_ITEM} from ${COMPONENTS_MODULE}); V2 has no public schema for it`;
  }
  if (name === WEBHOOK_PARSER) return `${WEBHOOK_PARSER} used as a value: call new ${V2_CLASS}().validateWebhook({ request }) instead (it throws and answers in camelCase)`;
  return `${name} is V1 SDK API with no V2 counterpart`;
}
