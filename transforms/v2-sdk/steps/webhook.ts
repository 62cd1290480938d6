/**
 * `parseWebhookDataSafe(req)` becomes `validateWebhook({ request })`,
 * adapted to V1's `[data, errorResponse]` answer.
 */
import type { ASTPath } from "jscodeshift";
import { type AnyNode, isMember, lineOf, type SdkContext, V2_CLASS } from "../context.js";
import { expressionFrom, printed, printedNode } from "../snippets.js";
import { thenAdapter, webhookFailure, webhookResult } from "../v1-result-adapters.js";

export function adaptWebhookCall(context: SdkContext, callPath: ASTPath): void {
  const { j, print, style } = context;
  const call = callPath.node as AnyNode;
  const callee = call.callee as AnyNode;
  const args = call.arguments as AnyNode[];
  const line = lineOf(call);
  const calleePath = callPath.get("callee") as ASTPath;
  const headers = args[1];
  const simpleHeaders = !headers || ["Identifier", "StringLiteral", "ObjectExpression", "MemberExpression"].includes(headers.type);
  if (args.length < 1 || args.length > 2 || args.some((a) => a.type === "SpreadElement") || !simpleHeaders || call.type === "OptionalCallExpression") {
    return context.mark(calleePath, "v1-sdk-call", "parseWebhookDataSafe() with these arguments: use new ComfyDeploy().validateWebhook({ request }), which throws instead of answering [data, errorResponse] and returns camelCase keys (runId, liveStatus)");
  }
  let classExpression: string;
  if (isMember(callee)) {
    const namespace = printedNode(j, callee.object, print);
    classExpression = `${namespace}.${V2_CLASS}`;
  } else if (context.v2ClassName) {
    classExpression = context.v2ClassName;
  } else {
    return context.mark(calleePath, "v1-sdk-call", `parseWebhookDataSafe(): the name ${V2_CLASS} is taken in this file; import it under another name and use new ${V2_CLASS}().validateWebhook({ request })`);
  }
  const headersText = headers ? printed(j, callPath.get("arguments", 1) as ASTPath, print) : undefined;
  const request = printed(j, callPath.get("arguments", 0) as ASTPath, print);
  const requestField = request === "request" ? "{ request }" : `{ request: ${request} }`;
  const validated = `new ${classExpression}().validateWebhook(${requestField})`;
  const code = thenAdapter(validated, webhookResult(style), webhookFailure(style, headersText), style);
  callPath.replace(expressionFrom(j, code));
  context.rewrittenCallees.add(callee);
  context.needsOutputsHelper = true;
  if (!isMember(callee)) context.webhookRewritten = true;
  context.rewrite(
    "v1-sdk-call",
    line,
    'parseWebhookDataSafe(req) → validateWebhook({ request }), still answering [data with V1 keys, undefined] or [undefined, a 500 Response]; V2 requires live_status in the body and accepts status "cancelled"',
  );
}
