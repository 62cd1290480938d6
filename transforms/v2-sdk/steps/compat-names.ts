/**
 * V1 names the compat module keeps under the same name (the webhook parser
 * and V1's zod schemas, whose behaviour V2 does not keep), and V1 client
 * properties it reads back from a V2 client.
 */
import type { ASTPath } from "jscodeshift";
import {
  type AnyNode,
  lineOf,
  OUTPUT_FILE_SCHEMA,
  type SdkContext,
  V2_CLASS,
  WEBHOOK_PARSER,
  WEBHOOK_SCHEMA,
} from "../context.js";
import { expressionFrom, printedNode } from "../snippets.js";

/** Imported from the compat module instead of the SDK, unchanged in name and behaviour. */
export const COMPAT_NAMES: ReadonlySet<string> = new Set([WEBHOOK_PARSER, WEBHOOK_SCHEMA, OUTPUT_FILE_SCHEMA]);

/** `cd.parseWebhookDataSafe` (a namespace of the SDK) → `v1Compat.parseWebhookDataSafe`. */
export function moveNamespaceMember(context: SdkContext, path: ASTPath): void {
  const node = path.node as AnyNode;
  const name = (node.property as AnyNode).name as string;
  node.object = context.j.identifier(context.compat("value"));
  context.rewrite("v1-sdk-import", lineOf(node), `${name} → the compat module's ${name}, which behaves as V1's did`);
}

const PROPERTY_READERS: Readonly<Record<string, string>> = { apiBase: "apiBaseOf", apiToken: "apiTokenOf" };

/** `client.apiBase` → `v1Compat.apiBaseOf(client)`: V2 keeps the value in its options. */
export function routePropertyRead(context: SdkContext, namePath: ASTPath): void {
  const name = (namePath.node as AnyNode).name as string;
  const memberPath = namePath.parent as ASTPath;
  const member = memberPath.node as AnyNode;
  const reader = PROPERTY_READERS[name];
  const isAssigned =
    (memberPath.parent?.node as AnyNode | undefined)?.type === "AssignmentExpression" && memberPath.name === "left";
  const advice = `client.${name} is internal in the V2 SDK: keep the value in your own configuration (V2 takes it as new ${V2_CLASS}({ bearer, serverURL }), and serverURL has no /api appended)`;
  if (!reader || isAssigned || member.optional) return context.mark(namePath, "v1-sdk-client", advice);
  const compat = context.compat("value");
  context.mark(namePath, "v1-sdk-client", `${advice}. Until then ${compat}.${reader} reads it back`, false);
  memberPath.replace(
    expressionFrom(context.j, `${compat}.${reader}(${printedNode(context.j, member.object, context.print)})`),
  );
  context.rewrite("v1-sdk-client", lineOf(member), `client.${name} → ${compat}.${reader}(client)`);
}
