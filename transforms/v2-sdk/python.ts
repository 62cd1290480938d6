/**
 * v2-sdk for Python: moves the V1 Python SDK shapes (comfydeploy 0.2.1–0.4.1)
 * to V2 (0.6.0 and later), at the sites the scan reported.
 *
 * Rewritten only where the shape is exact:
 * - `ComfyDeploy(bearer_auth=X)` (no other argument) → `ComfyDeploy(bearer=X)`.
 * - `<c>.run.create(request={...})` whose dict has only deployment_id, inputs
 *   and webhook → `<c>.run.deployment.queue(request={...})` (keys stay
 *   snake_case in both versions).
 * - result accessors: `.object` → `.create_run_response` (queue) or
 *   `.workflow_run_model` (get), and only when every use of the result is
 *   provable in the same function: the result is bound once to a name whose
 *   every read there is `name.object`, or `.object` follows the call
 *   directly, or the result is unused. A call is rewritten together with its
 *   accessors or not at all.
 * Everything else gets a `# TODO(comfydeploy-migrate): ...` marker above the
 * statement: other constructor options, other request shapes, results that
 * escape the function, V1-only namespaces (files, websocket, …) and `.object`
 * reads on results from elsewhere. Both SDK generations raise on HTTP errors,
 * so no error adapter is needed.
 */
import { PYTHON_QUEUE_REQUEST_KEYS, PYTHON_SDK, PYTHON_SDK_SHAPES } from "../../src/knowledge/migration.js";
import { factsOf } from "../../src/core/facts.js";
import { type Finding, spanOf } from "../../src/core/finding.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { PyModule } from "../../src/lang/python/module.js";
import type { PyRange } from "../../src/lang/python/syntax.js";
import { isName, isOp, type PyToken } from "../../src/lang/python/tokens.js";
import { insertLineMarkers, type LineMarker } from "../lib/line-markers.js";
import type { FileFix, FixEvent, TransformPart } from "../types.js";

const AUTH = PYTHON_SDK_SHAPES.authOption;
const CREATE = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.create")!;
const GET = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.get")!;
const QUEUE_KEYS: ReadonlySet<string> = new Set(PYTHON_QUEUE_REQUEST_KEYS);
const TARGET = `${PYTHON_SDK.packageName}${PYTHON_SDK.recommendedRange}`;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Where a run call's result goes, and the `.object` tokens to rename when that is provable. */
type ResultUse = { provable: true; accessors: number[] } | { provable: false; reason: string };

class PythonSdkFix {
  private readonly module: PyModule;
  private readonly t: readonly PyToken[];
  readonly edits: Edit[] = [];
  readonly markers: LineMarker[] = [];
  readonly events: FixEvent[] = [];
  /** `.object` tokens a call rewrite already took care of. */
  private readonly handledAccessors = new Set<number>();

  constructor(text: string) {
    this.module = new PyModule(text);
    this.t = this.module.tokens;
  }

  run(findings: readonly Finding[]): void {
    const byKind = (test: (f: Finding) => boolean) => findings.filter(test);
    for (const f of byKind((f) => f.ruleId === "v1-sdk-client")) this.constructorAt(f);
    for (const f of byKind((f) => f.ruleId === "v1-sdk-call" && !this.isAccessorFinding(f))) this.callAt(f);
    // `.object` reads last: those a call rewrite did not cover get a marker.
    for (const f of byKind((f) => f.ruleId === "v1-sdk-call" && this.isAccessorFinding(f))) this.accessorAt(f);
  }

  // ------------------------------------------------------------ positions

  /** The token a finding's span starts at, or -1. */
  private tokenOf(f: Finding): number {
    return this.module.tokenStartingAt(spanOf(f).start);
  }

  private lineOf(index: number): number {
    return this.module.lineAt(this.t[index]!.start);
  }

  /** The line a marker for token `index` goes above: where its statement starts. */
  private statementLine(index: number): number {
    return this.lineOf(this.module.statementAt(index).lo);
  }

  private isAccessorFinding(f: Finding): boolean {
    if (factsOf(f, "python-sdk")?.v1 === CREATE.v1Result) return true;
    const index = this.tokenOf(f);
    return index >= 0 && isName(this.t[index], CREATE.v1Result) && isOp(this.t[index - 1], ".");
  }

  // ---------------------------------------------------------- constructor

  private constructorAt(f: Finding): void {
    const start = this.tokenOf(f);
    if (start < 0) return;
    let open = start;
    while (open < this.t.length && !isOp(this.t[open], "(")) open++;
    const args = this.module.callArguments(open);
    const auth = args.keyword.get(AUTH.v1);
    const others = [...args.keyword.keys()].filter((k) => k !== AUTH.v1);
    if (auth && args.positional.length === 0 && others.length === 0) {
      const name = auth.lo - 2;
      this.edit(name, AUTH.v2);
      this.rewrite("v1-sdk-client", this.lineOf(name), `${PYTHON_SDK_SHAPES.clientClass}(${AUTH.v1}=…) → ${PYTHON_SDK_SHAPES.clientClass}(${AUTH.v2}=…)`);
      return;
    }
    const what = others.length > 0 ? `the options ${others.join(", ")}` : "positional arguments";
    this.mark(start, "v1-sdk-client", `${PYTHON_SDK_SHAPES.clientClass}() with ${what}: V2 (${TARGET}) takes ${AUTH.v2}= instead of ${AUTH.v1}=, and a V1 server_url must become a V2 one (or be dropped for the default)`);
  }

  // ---------------------------------------------------------------- calls

  private callAt(f: Finding): void {
    const index = this.tokenOf(f);
    if (index < 0) return;
    const call = factsOf(f, "python-sdk")?.v1 ?? `${this.t[index]?.value}.${this.t[index + 2]?.value}`;
    const isRunCall = isName(this.t[index], "run") && isOp(this.t[index + 1], ".") && isOp(this.t[index + 3], "(");
    if (isRunCall && call === CREATE.v1) return this.createAt(index);
    if (isRunCall && call === GET.v1) return this.getAt(index);
    const namespace = call.split(".")[0] ?? call;
    this.mark(index, "v1-sdk-call", `client.${call}() exists only in the V1 Python SDK: there is no ${namespace} namespace in V2 (${TARGET}); rewrite it against the V2 API by hand`);
  }

  private createAt(runToken: number): void {
    const open = runToken + 3;
    const args = this.module.callArguments(open);
    const request = args.keyword.get("request");
    const shape = request && args.positional.length === 0 && args.keyword.size === 1 ? this.module.literalDictKeys(request) : undefined;
    if (!shape || !shape.includes("deployment_id") || shape.some((k) => !QUEUE_KEYS.has(k))) {
      return this.mark(
        runToken,
        "v1-sdk-call",
        `${CREATE.v1}() with this request: use .${CREATE.v2}(request={"deployment_id": …, "inputs": …, "webhook": …}) (V2 takes no workflow_api, machine_id or other V1-only fields); the result moves from .${CREATE.v1Result} to .${CREATE.v2Result}`,
      );
    }
    const use = this.resultUse(open, CREATE.v2Result);
    if (!use.provable) {
      return this.mark(runToken, "v1-sdk-call", `${CREATE.v1}() → .${CREATE.v2}(...) and its result's .${CREATE.v1Result} → .${CREATE.v2Result}: not rewritten because ${use.reason}`);
    }
    // `run.create` → `run.deployment.queue`: the `create` token becomes `deployment.queue`.
    this.edit(runToken + 2, CREATE.v2.split(".").slice(1).join("."));
    for (const accessor of use.accessors) this.renameAccessor(accessor, CREATE.v2Result);
    const line = this.lineOf(runToken);
    this.rewrite("v1-sdk-call", line, `${CREATE.v1}(request=…) → ${CREATE.v2}(request=…)${use.accessors.length > 0 ? `, .${CREATE.v1Result} → .${CREATE.v2Result}` : ""}`);
  }

  private getAt(runToken: number): void {
    const open = runToken + 3;
    const args = this.module.callArguments(open);
    const single = args.positional.length + args.keyword.size === 1 && (args.positional.length === 1 || args.keyword.has("run_id"));
    if (!single) {
      return this.mark(runToken, "v1-sdk-call", `${GET.v1}() with these arguments: V2 takes ${GET.v2}(run_id=…) and answers in .${GET.v2Result} instead of .${GET.v1Result}`);
    }
    const use = this.resultUse(open, GET.v2Result);
    if (!use.provable) {
      return this.mark(runToken, "v1-sdk-call", `${GET.v1}(): its result's .${GET.v1Result} becomes .${GET.v2Result} in V2; not rewritten because ${use.reason}`);
    }
    for (const accessor of use.accessors) this.renameAccessor(accessor, GET.v2Result);
    if (use.accessors.length > 0) {
      this.rewrite("v1-sdk-call", this.lineOf(runToken), `${GET.v1}() result .${GET.v1Result} → .${GET.v2Result}`);
    }
  }

  /**
   * Where the result of the call opening at `open` goes. Provable: the call
   * is a statement of its own; or `.object` follows it directly; or it is
   * bound once (`res = [await] call`) to a name that the same function reads
   * only as `res.object`. Reads through the V2 accessor (`v2Result`) are
   * already migrated (a run under a V1 pin that is still being upgraded).
   */
  private resultUse(open: number, v2Result: string): ResultUse {
    const t = this.t;
    const close = this.module.partner(open);
    if (close < 0) return { provable: false, reason: "the call is not closed" };
    if (isOp(t[close + 1], ".")) {
      if (isName(t[close + 2], CREATE.v1Result)) return { provable: true, accessors: [close + 2] };
      if (isName(t[close + 2], v2Result)) return { provable: true, accessors: [] };
      return { provable: false, reason: `the result is read through .${t[close + 2]?.value ?? "?"}` };
    }
    const line = this.module.statementAt(open);
    const callee = this.module.calleeOf(open);
    if (!callee) return { provable: false, reason: "the call has an unusual shape" };
    let first = line.lo;
    if (isName(t[first], "await")) first++;
    if (callee.start === first && close === line.hi - 1) return { provable: true, accessors: [] };
    // `name = [await] call` and nothing else on the line.
    const target = t[line.lo];
    const bindsName = target?.kind === "name" && isOp(t[line.lo + 1], "=") && close === line.hi - 1;
    const valueStart = isName(t[line.lo + 2], "await") ? line.lo + 3 : line.lo + 2;
    if (!bindsName || callee.start !== valueStart) return { provable: false, reason: "the result is not bound to a plain name" };
    return this.readsOf(target.value, line, close, v2Result);
  }

  /** Every read of `name` after its binding line in the same function must be `name.object` (or already the V2 accessor). */
  private readsOf(name: string, binding: PyRange, close: number, v2Result: string): ResultUse {
    const t = this.t;
    const bindingScopes = this.module.scopesAt(t[binding.lo]!.start);
    const scope = bindingScopes[bindingScopes.length - 1]!;
    const assignments = (this.module.assignments.get(name) ?? []).filter((a) => a.scope === scope);
    if (assignments.length !== 1) return { provable: false, reason: `${name} is assigned more than once in this function` };
    const accessors: number[] = [];
    for (let i = 0; i < t.length; i++) {
      if (i >= binding.lo && i <= close) continue;
      if (!isName(t[i], name) || isOp(t[i - 1], ".")) continue;
      const scopes = this.module.scopesAt(t[i]!.start);
      if (!scopes.includes(scope)) continue;
      if (scopes[scopes.length - 1] !== scope) return { provable: false, reason: `${name} is used in a nested function` };
      if (i < binding.lo) return { provable: false, reason: `${name} is used before the call` };
      if (isOp(t[i + 1], ".") && isName(t[i + 2], CREATE.v1Result)) {
        accessors.push(i + 2);
        continue;
      }
      if (isOp(t[i + 1], ".") && isName(t[i + 2], v2Result)) continue;
      return { provable: false, reason: `${name} is also used as a whole or through another attribute (passed on, returned, .status_code, …)` };
    }
    return { provable: true, accessors };
  }

  private renameAccessor(index: number, to: string): void {
    this.handledAccessors.add(index);
    this.edit(index, to);
  }

  private accessorAt(f: Finding): void {
    const index = this.tokenOf(f);
    if (index < 0 || this.handledAccessors.has(index)) return;
    const call = factsOf(f, "python-sdk")?.call;
    const target = call === CREATE.v1 ? `.${CREATE.v2Result}` : call === GET.v1 ? `.${GET.v2Result}` : `.${CREATE.v2Result} (queue) or .${GET.v2Result} (get)`;
    this.mark(index, "v1-sdk-call", `.${CREATE.v1Result} is the V1 Python SDK's result accessor: in V2 it is ${target}; change it together with the call that produced the result`);
  }

  // -------------------------------------------------------------- output

  private edit(index: number, text: string): void {
    const token = this.t[index]!;
    this.edits.push({ start: token.start, end: token.end, text });
  }

  private rewrite(ruleId: RuleId, line: number, message: string): void {
    this.events.push({ kind: "rewrite", ruleId, line, message });
  }

  private mark(index: number, ruleId: RuleId, advice: string): void {
    this.markers.push({ line: this.statementLine(index), ruleId, advice });
  }
}

export function fixPythonSdk(text: string, file: string, findings: readonly Finding[]): FileFix {
  const sdkFindings = findings.filter((f) => f.ruleId === "v1-sdk-client" || f.ruleId === "v1-sdk-call");
  if (sdkFindings.length === 0) return { text, events: [] };
  const fix = new PythonSdkFix(text);
  fix.run(sdkFindings);
  let out = text;
  for (const edit of [...fix.edits].sort((a, b) => b.start - a.start)) out = `${out.slice(0, edit.start)}${edit.text}${out.slice(edit.end)}`;
  // Token edits never change line numbers, so the markers' lines still hold.
  const marked = insertLineMarkers(out, file, fix.markers);
  return { text: marked.text, events: [...fix.events, ...marked.events] };
}

/** The part of the transform for these files. */
export const part: TransformPart = {
  appliesTo: (file) => /\.pyw?$/i.test(file),
  apply: (text, context) => fixPythonSdk(text, context.file, context.findings),
};
