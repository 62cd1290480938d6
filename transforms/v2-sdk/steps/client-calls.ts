/**
 * Calls of V1 client methods: `run({ … })` becomes `run.deployment.queue`,
 * `getRun(id)` becomes `run.get({ runId })`, both adapted to resolve to
 * V1's result or null as before; methods V2 has no counterpart for get a
 * review marker.
 */
import type { ASTPath } from "jscodeshift";
import { V1_CLIENT_METHODS } from "../../../src/knowledge/migration.js";
import { plainKeys } from "../client-options.js";
import { type AnyNode, lineOf, methodAdvice, RUN_KEYS, type SdkContext } from "../context.js";
import { expressionFrom, printed } from "../snippets.js";
import { failureToNull, getRunResult, queueResult, thenAdapter } from "../v1-result-adapters.js";

/** `namePath`: the method name of the call, as the scan flagged it. */
export function rewriteClientCall(context: SdkContext, namePath: ASTPath): void {
  const method = (namePath.node as AnyNode).name as string;
  const memberPath = namePath.parent as ASTPath;
  const callPath = memberPath.parent as ASTPath;
  const member = memberPath.node as AnyNode;
  const call = callPath.node as AnyNode;
  const line = lineOf(call);
  const optional = member.type === "OptionalMemberExpression" || call.type === "OptionalCallExpression" || member.optional === true;
  if (method === "run" || method === "getRun") {
    if (optional) {
      return context.mark(namePath, "v1-sdk-call", `client.${method}() through optional chaining: rewrite it by hand (${methodAdvice(method)})`);
    }
    return method === "run" ? rewriteRun(context, namePath, callPath, line) : rewriteGetRun(context, namePath, callPath, line);
  }
  const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
  const target = mapping?.v2 ? ` (nearest V2 API: ${mapping.v2})` : "";
  context.mark(namePath, "v1-sdk-call", `client.${method}() has no V2 counterpart that keeps its behaviour: ${methodAdvice(method)}${target}`);
}

function rewriteRun(context: SdkContext, namePath: ASTPath, callPath: ASTPath, line: number): void {
  const { j, print, style } = context;
  const call = callPath.node as AnyNode;
  const args = call.arguments as AnyNode[];
  const arg = args[0];
  const keys = arg && args.length === 1 && arg.type === "ObjectExpression" ? plainKeys(arg) : undefined;
  const allowed = Object.keys(RUN_KEYS);
  if (!keys || !keys.includes("deployment_id") || keys.some((k) => !allowed.includes(k))) {
    const contract = ".then((res) => ({ run_id: res.runId }), (error) => { console.error(error); return null; })";
    if (!keys) {
      const v = arg && args.length === 1 ? (printed(j, callPath.get("arguments", 0) as ASTPath, print).split("\n")[0] ?? "v") : "v";
      return context.mark(
        namePath,
        "v1-sdk-call",
        `client.run() without a plain object literal argument: if ${v} holds only deployment_id, inputs and webhook, call client.run.deployment.queue({ deploymentId: ${v}.deployment_id, inputs: ${v}.inputs, webhook: ${v}.webhook })${contract} to keep V1's { run_id } | null contract`,
      );
    }
    const extra = keys.filter((k) => !allowed.includes(k));
    return context.mark(
      namePath,
      "v1-sdk-call",
      `client.run() with ${extra.length > 0 ? `keys V2 does not take (${extra.join(", ")})` : "no deployment_id"}: the V2 queue takes deploymentId (required), inputs, webhook, webhookIntermediateStatus and gpu; V1-only fields such as workflow_api have no V2 counterpart`,
    );
  }
  for (const prop of arg!.properties as AnyNode[]) {
    const key = prop.key as AnyNode;
    const name = (key.type === "Identifier" ? key.name : key.value) as string;
    const v2 = RUN_KEYS[name]!;
    if (v2 === name) continue;
    prop.shorthand = false;
    prop.key = j.identifier(v2);
  }
  const client = printed(j, callPath.get("callee", "object") as ASTPath, print);
  const request = printed(j, callPath.get("arguments", 0) as ASTPath, print);
  const code = thenAdapter(`${client}.run.deployment.queue(${request})`, queueResult(), failureToNull(style), style);
  callPath.replace(expressionFrom(j, code));
  context.rewrite("v1-sdk-call", line, "client.run() → client.run.deployment.queue(), still resolving to { run_id } or null (errors logged with console.error) as V1 did");
}

function rewriteGetRun(context: SdkContext, namePath: ASTPath, callPath: ASTPath, line: number): void {
  const { j, print, style } = context;
  const call = callPath.node as AnyNode;
  const args = call.arguments as AnyNode[];
  if (args.length !== 1 || args[0]!.type === "SpreadElement") {
    return context.mark(namePath, "v1-sdk-call", `client.getRun() with ${args.length === 1 ? "a spread" : `${args.length}`} argument(s): call client.run.get({ runId }) and keep V1's contract (${methodAdvice("getRun")})`);
  }
  const client = printed(j, callPath.get("callee", "object") as ASTPath, print);
  const id = printed(j, callPath.get("arguments", 0) as ASTPath, print);
  const request = id === "runId" ? "{ runId }" : `{ runId: ${id} }`;
  const code = thenAdapter(`${client}.run.get(${request})`, getRunResult(style), failureToNull(style), style);
  callPath.replace(expressionFrom(j, code));
  context.needsOutputsHelper = true;
  context.rewrite("v1-sdk-call", line, "client.getRun(id) → client.run.get({ runId: id }), still resolving to the V1 run shape { id, status, outputs, live_status, progress } or null as V1 did");
}
