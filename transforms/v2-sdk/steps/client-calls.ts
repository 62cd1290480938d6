/**
 * Calls of V1 client methods. `run({ deployment_id, inputs, webhook })`
 * becomes `run.deployment.queue`, `getRun(id)` becomes `run.get({ runId })`,
 * both adapted to resolve to V1's result or null as before. Every other call
 * (runSync, getUploadUrl, getWebsocketUrl, and run/getRun with arguments
 * that cannot be mapped here) goes through the package's compat module,
 * which keeps V1's contract on V2, and gets a review marker: no member
 * access the V2 client lacks is left behind.
 */
import type { ASTPath } from "jscodeshift";
import { compatCallAdvice } from "../advice.js";
import { plainKeys } from "../client-options.js";
import { type AnyNode, lineOf, methodAdvice, RUN_KEYS, type SdkContext } from "../context.js";
import { expressionFrom, printed } from "../snippets.js";
import { failureToNull, getRunResult, queueResult, thenAdapter } from "../v1-result-adapters.js";

/** `namePath`: the method name of the call, as the scan flagged it. */
export function rewriteClientCall(context: SdkContext, namePath: ASTPath): void {
  const method = (namePath.node as AnyNode).name as string;
  const callPath = namePath.parent!.parent as ASTPath;
  const call = new ClientCall(context, namePath, callPath);
  if (method === "run") {
    const problem = runArgumentProblem(call.args);
    return problem ? routeThroughCompat(call, "run", problem) : rewriteRun(call);
  }
  if (method === "getRun") {
    const plain = call.args.length === 1 && call.args[0]!.type !== "SpreadElement";
    return plain
      ? rewriteGetRun(call)
      : routeThroughCompat(call, "getRun", `client.getRun() with ${call.args.length} argument(s)`);
  }
  routeThroughCompat(call, method);
}

/** One call of a V1 method on a client expression. */
class ClientCall {
  readonly args: AnyNode[];
  readonly line: number;
  /** `client?.run(...)` or `client.run?.(...)`. */
  readonly optional: boolean;

  constructor(
    readonly context: SdkContext,
    readonly namePath: ASTPath,
    readonly path: ASTPath,
  ) {
    const call = path.node as AnyNode;
    const member = (namePath.parent as ASTPath).node as AnyNode;
    this.args = call.arguments as AnyNode[];
    this.line = lineOf(call);
    this.optional =
      member.type === "OptionalMemberExpression" ||
      member.optional === true ||
      call.type === "OptionalCallExpression" ||
      call.optional === true;
  }

  client(): string {
    return printed(this.context.j, this.path.get("callee", "object") as ASTPath, this.context.print);
  }

  argument(index: number): string {
    return printed(this.context.j, this.path.get("arguments", index) as ASTPath, this.context.print);
  }

  /** The client expression is a name or a chain of names: reading it twice is harmless. */
  clientIsPlain(): boolean {
    let node = ((this.namePath.parent as ASTPath).node as AnyNode).object as AnyNode;
    while (node.type === "MemberExpression" || node.type === "OptionalMemberExpression") {
      if (node.computed) return false;
      node = node.object as AnyNode;
    }
    return node.type === "Identifier" || node.type === "ThisExpression";
  }

  replace(code: string): void {
    this.path.replace(expressionFrom(this.context.j, code));
  }
}

/** Why a run() call cannot become run.deployment.queue here, if it cannot. */
function runArgumentProblem(args: readonly AnyNode[]): string | undefined {
  const arg = args[0];
  const keys = arg && args.length === 1 && arg.type === "ObjectExpression" ? plainKeys(arg) : undefined;
  const allowed = Object.keys(RUN_KEYS);
  if (!keys)
    return "client.run() without a plain object literal argument: check that it holds only deployment_id, inputs and webhook";
  if (!keys.includes("deployment_id")) return "client.run() with no deployment_id: V2 queues a deployment by its id";
  const extra = keys.filter((k) => !allowed.includes(k));
  if (extra.length === 0) return undefined;
  return `client.run() with keys V2 does not take (${extra.join(", ")}): V2's queue takes deploymentId, inputs, webhook, webhookIntermediateStatus and gpu; V1-only fields such as workflow_api have no V2 counterpart and are dropped`;
}

function rewriteRun(call: ClientCall): void {
  const { j, style } = call.context;
  const arg = call.args[0]!;
  for (const prop of arg.properties as AnyNode[]) {
    const key = prop.key as AnyNode;
    const name = (key.type === "Identifier" ? key.name : key.value) as string;
    const v2 = RUN_KEYS[name]!;
    if (v2 === name) continue;
    prop.shorthand = false;
    prop.key = j.identifier(v2);
  }
  const client = `${call.client()}${call.optional ? "?." : "."}`;
  call.replace(
    thenAdapter(`${client}run.deployment.queue(${call.argument(0)})`, queueResult(), failureToNull(style), style),
  );
  call.context.rewrite(
    "v1-sdk-call",
    call.line,
    "client.run() → client.run.deployment.queue(), still resolving to { run_id } or null (errors logged with console.error) as V1 did",
  );
}

function rewriteGetRun(call: ClientCall): void {
  const { style } = call.context;
  const id = call.argument(0);
  const request = id === "runId" ? "{ runId }" : `{ runId: ${id} }`;
  const client = `${call.client()}${call.optional ? "?." : "."}`;
  const adapted = getRunResult(style, call.context.compat("value"));
  call.replace(thenAdapter(`${client}run.get(${request})`, adapted, failureToNull(style), style));
  call.context.rewrite(
    "v1-sdk-call",
    call.line,
    "client.getRun(id) → client.run.get({ runId: id }), still resolving to the V1 run shape { id, status, outputs, live_status, progress } or null as V1 did",
  );
}

/** `client.method(a, b)` → `compat.method(client, a, b)`, with a marker saying what a person should do. */
function routeThroughCompat(call: ClientCall, method: string, problem?: string): void {
  const { context } = call;
  if (call.optional && !call.clientIsPlain()) {
    return context.mark(
      call.namePath,
      "v1-sdk-call",
      `${problem ?? `client.${method}() is V1 only`}: rewrite this optional call by hand (${methodAdvice(method)})`,
    );
  }
  const compat = context.compat("value");
  const client = call.client();
  const args = [client, ...call.args.map((_, i) => call.argument(i))].join(", ");
  const routed = `${compat}.${method}(${args})`;
  context.mark(call.namePath, "v1-sdk-call", compatCallAdvice(method, compat, problem), false);
  call.replace(call.optional ? `(${client} ? ${routed} : undefined)` : routed);
  context.rewrite(
    "v1-sdk-call",
    call.line,
    `client.${method}() → ${compat}.${method}(client, …): V1's contract kept on V2 by the compat module`,
  );
}
