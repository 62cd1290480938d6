/**
 * v2-sdk for Python: moves the V1 Python SDK shapes (comfydeploy 0.2.1–0.4.1)
 * to V2 (0.6.0 and later), at the sites the scan reported.
 *
 * Rewritten where the shape is exact:
 * - `ComfyDeploy(bearer_auth=X, …)` → `ComfyDeploy(bearer=X, …)`: the option
 *   is renamed whatever else is passed, since V2 rejects `bearer_auth`;
 *   server options whose value may still name the V1 host get a marker.
 * - `<c>.run.create[_async](request=R)` whose request provably holds only
 *   deployment_id, inputs and webhook (a dict display, a name bound once to
 *   one, or a local helper returning one) → `<c>.run.deployment.queue[_async]`
 *   (keys stay snake_case in both versions).
 * - result accessors: `.object` → `.create_run_response` (queue) or
 *   `.workflow_run_model` (get, get_async), and only when every use of the
 *   result is provable in the same function (see python-flow.ts). A call is
 *   rewritten together with its accessors or not at all.
 * Everything else gets a `# TODO(comfydeploy-migrate): ...` marker above the
 * statement: other request shapes, results that escape the function,
 * V1-only namespaces (files, comfyui, …), `.object` reads on results from
 * elsewhere (each one), V1 reads of run outputs (`.data.images`) and imports
 * of the V1 model types. Both SDK generations raise on HTTP errors, so no
 * error adapter is needed.
 */
import { HOSTS, PYTHON_SDK } from "../../src/knowledge/migration.js";
import {
  PYTHON_QUEUE_REQUEST_KEYS,
  PYTHON_SDK_SHAPES,
  type PythonRunCall,
  pythonRunCall,
  pythonV1OnlyCall,
} from "../../src/knowledge/python-sdk-shapes.js";
import { factsOf } from "../../src/core/facts.js";
import { type Finding, spanOf } from "../../src/core/finding.js";
import type { HostSet } from "../../src/core/urls.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { PyModule } from "../../src/lang/python/module.js";
import type { PyArgument } from "../../src/lang/python/syntax.js";
import { isName, isOp, isString, type PyToken, stringValue } from "../../src/lang/python/tokens.js";
import { insertLineMarkers, type LineMarker } from "../lib/line-markers.js";
import type { FileFix, FixEvent, TransformPart } from "../types.js";
import { PythonCallFlow } from "./python-flow.js";

const CLIENT = PYTHON_SDK_SHAPES.clientClass;
const AUTH = PYTHON_SDK_SHAPES.authOption;
const CREATE = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.create")!;
const GET = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.get")!;
const QUEUE_KEYS: ReadonlySet<string> = new Set(PYTHON_QUEUE_REQUEST_KEYS);
const SAME_OPTIONS: ReadonlySet<string> = new Set(PYTHON_SDK_SHAPES.sameOptions);
const SERVER_URL_OPTIONS: ReadonlySet<string> = new Set(PYTHON_SDK_SHAPES.serverUrlOptions);
const SERVER_INDEX = PYTHON_SDK_SHAPES.serverIndexOption;
const MODELS = PYTHON_SDK_SHAPES.modelsModule;
const TARGET = `${PYTHON_SDK.packageName}${PYTHON_SDK.recommendedRange}`;

interface Edit {
  start: number;
  end: number;
  text: string;
}

class PythonSdkFix {
  private readonly module: PyModule;
  private readonly flow: PythonCallFlow;
  private readonly t: readonly PyToken[];
  readonly edits: Edit[] = [];
  readonly markers: LineMarker[] = [];
  readonly events: FixEvent[] = [];
  /** Offsets of the `.object` tokens a call rewrite already took care of. */
  private readonly handledAccessors = new Set<number>();

  constructor(
    text: string,
    private readonly hosts: HostSet,
  ) {
    this.module = new PyModule(text);
    this.flow = new PythonCallFlow(this.module);
    this.t = this.module.tokens;
  }

  run(findings: readonly Finding[]): void {
    const kindOf = (f: Finding): string => {
      if (f.ruleId !== "v1-sdk-call") return f.ruleId;
      if (this.isAccessorFinding(f)) return "accessor";
      return factsOf(f, "python-sdk")?.v1?.startsWith(`${PYTHON_SDK_SHAPES.outputRead}.`) ? "output" : "call";
    };
    const byKind = (kind: string) => findings.filter((f) => kindOf(f) === kind);
    for (const f of byKind("v1-sdk-import")) this.importAt(f);
    for (const f of byKind("v1-sdk-client")) this.constructorAt(f);
    for (const f of byKind("call")) this.callAt(f);
    // `.object` reads after the calls: those a call rewrite did not cover get a marker, each one.
    for (const f of byKind("accessor")) this.accessorAt(f);
    for (const f of byKind("output")) this.outputListAt(f);
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

  // ----------------------------------------------------- imports, client

  /** The package import stays valid in V2; its model types do not keep their names. */
  private importAt(f: Finding): void {
    const module = factsOf(f, "python-sdk")?.module;
    const index = this.tokenOf(f);
    if (index < 0 || !module || (module !== MODELS && !module.startsWith(`${MODELS}.`))) return;
    this.mark(
      index,
      "v1-sdk-import",
      `${module} holds the V1 SDK's request and response types; V2 (${TARGET}) names them differently (${PYTHON_SDK_SHAPES.modelsRenameExample}, …): check every name this file uses from it`,
    );
  }

  private constructorAt(f: Finding): void {
    const start = this.tokenOf(f);
    if (start < 0) return;
    let open = start;
    while (open < this.t.length && !isOp(this.t[open], "(")) open++;
    const args = this.module.argumentList(open);
    const keywords = args.filter((a): a is PyArgument & { keyword: number } => a.keyword !== undefined);
    const auth = keywords.find((a) => this.t[a.keyword]!.value === AUTH.v1);
    // Arguments by position or unpacked (`**options`) may hold anything: the call is left to a person.
    if (!auth || keywords.length !== args.length) {
      this.mark(
        start,
        "v1-sdk-client",
        `${CLIENT}() with arguments by position or unpacked: V2 (${TARGET}) takes ${AUTH.v2}= instead of ${AUTH.v1}=, and a V1 server_url must become a V2 one (or be dropped for the default)`,
      );
      return;
    }
    this.edit(auth.keyword, AUTH.v2);
    this.rewrite("v1-sdk-client", this.lineOf(auth.keyword), `${CLIENT}(${AUTH.v1}=…) → ${CLIENT}(${AUTH.v2}=…)`);
    const nameOf = (arg: PyArgument) => this.t[arg.keyword!]!.value;
    const urls = keywords.filter((a) => SERVER_URL_OPTIONS.has(nameOf(a)) && !this.isV2SafeLiteral(a));
    const known = (name: string) =>
      name === AUTH.v1 || name === SERVER_INDEX || SAME_OPTIONS.has(name) || SERVER_URL_OPTIONS.has(name);
    const unknown = keywords.map(nameOf).filter((name) => !known(name));
    const notes: string[] = [];
    if (urls.length > 0) {
      notes.push(
        `${urls.map(nameOf).join(", ")} is passed on as written: V2 needs a V2 server (${HOSTS.v2.apiBase}) or none, so make sure the value no longer names the V1 host ${HOSTS.v1.host}`,
      );
    }
    if (keywords.some((a) => nameOf(a) === SERVER_INDEX)) {
      notes.push(
        `${SERVER_INDEX} picks from the SDK's own server list, which is another list in V2: check which server it picks there, or pass server_url`,
      );
    }
    if (unknown.length > 0) notes.push(`check ${unknown.join(", ")} against V2's constructor options`);
    if (notes.length > 0) this.mark(start, "v1-sdk-client", `${AUTH.v1}= became ${AUTH.v2}=; ${notes.join("; ")}`);
  }

  /** A plain string literal that names no V1 host: a V2 or own server, fine as it is. */
  private isV2SafeLiteral(arg: PyArgument): boolean {
    const value = this.t[arg.keyword! + 2];
    if (arg.hi - (arg.keyword! + 2) !== 1 || !isString(value) || value.prefix.includes("f")) return false;
    const text = stringValue(this.module.text, value).toLowerCase();
    return !this.hosts.legacy.some((host) => text.includes(host));
  }

  // ---------------------------------------------------------------- calls

  private callAt(f: Finding): void {
    const index = this.tokenOf(f);
    if (index < 0) return;
    const call = factsOf(f, "python-sdk")?.v1 ?? `${this.t[index]?.value}.${this.t[index + 2]?.value}`;
    const isRunCall = isName(this.t[index], "run") && isOp(this.t[index + 1], ".") && isOp(this.t[index + 3], "(");
    const run = isRunCall ? pythonRunCall(call) : undefined;
    if (run?.mapping === CREATE) return this.createAt(index, run);
    if (run?.mapping === GET) return this.getAt(index, run);
    const [namespace = call, method = ""] = call.split(".");
    const advice = pythonV1OnlyCall(namespace, method)?.advice ?? "rewrite it against the V2 API by hand";
    this.mark(
      index,
      "v1-sdk-call",
      `client.${call}() exists only in the V1 Python SDK: there is no client.${namespace} namespace in V2 (${TARGET}); ${advice}`,
    );
  }

  private createAt(runToken: number, run: PythonRunCall): void {
    const open = runToken + 3;
    const args = this.module.callArguments(open);
    const request = args.keyword.get("request");
    const shapes =
      request && args.positional.length === 0 && args.keyword.size === 1 ? this.flow.requestKeys(request) : undefined;
    const fits = (keys: string[]) => keys.includes("deployment_id") && keys.every((k) => QUEUE_KEYS.has(k));
    if (!shapes?.every(fits)) {
      return this.mark(
        runToken,
        "v1-sdk-call",
        `${run.v1}() with this request: use .${run.v2}(request={"deployment_id": …, "inputs": …, "webhook": …}) (V2 takes no workflow_api, machine_id or other V1-only fields); the result moves from .${CREATE.v1Result} to .${CREATE.v2Result}`,
      );
    }
    const use = this.flow.resultUse(open, CREATE.v2Result);
    if (!use.provable) {
      return this.mark(
        runToken,
        "v1-sdk-call",
        `${run.v1}() → .${run.v2}(...) and its result's .${CREATE.v1Result} → .${CREATE.v2Result}: not rewritten because ${use.reason}`,
      );
    }
    // `run.create` → `run.deployment.queue`: the `create` token becomes `deployment.queue` (`_async` kept).
    this.edit(runToken + 2, run.v2.split(".").slice(1).join("."));
    for (const accessor of use.accessors) this.renameAccessor(accessor, CREATE.v2Result);
    const line = this.lineOf(runToken);
    this.rewrite(
      "v1-sdk-call",
      line,
      `${run.v1}(request=…) → ${run.v2}(request=…)${use.accessors.length > 0 ? `, .${CREATE.v1Result} → .${CREATE.v2Result}` : ""}`,
    );
  }

  private getAt(runToken: number, run: PythonRunCall): void {
    const open = runToken + 3;
    const args = this.module.callArguments(open);
    const single =
      args.positional.length + args.keyword.size === 1 && (args.positional.length === 1 || args.keyword.has("run_id"));
    if (!single) {
      return this.mark(
        runToken,
        "v1-sdk-call",
        `${run.v1}() with these arguments: V2 takes ${run.v2}(run_id=…) and answers in .${GET.v2Result} instead of .${GET.v1Result}`,
      );
    }
    const use = this.flow.resultUse(open, GET.v2Result);
    if (!use.provable) {
      return this.mark(
        runToken,
        "v1-sdk-call",
        `${run.v1}(): its result's .${GET.v1Result} becomes .${GET.v2Result} in V2; not rewritten because ${use.reason}`,
      );
    }
    for (const accessor of use.accessors) this.renameAccessor(accessor, GET.v2Result);
    if (use.accessors.length > 0) {
      this.rewrite("v1-sdk-call", this.lineOf(runToken), `${run.v1}() result .${GET.v1Result} → .${GET.v2Result}`);
    }
  }

  private renameAccessor(token: PyToken, to: string): void {
    this.handledAccessors.add(token.start);
    this.edits.push({ start: token.start, end: token.end, text: to });
  }

  private accessorAt(f: Finding): void {
    const { start } = spanOf(f);
    if (this.handledAccessors.has(start)) return;
    // A read inside an f-string is no token of the file's own: the string holding it is.
    const index = this.t.findIndex((token) => token.start <= start && start < token.end);
    if (index < 0) return;
    const call = factsOf(f, "python-sdk")?.call;
    const v2 = call ? pythonRunCall(call)?.mapping.v2Result : undefined;
    const target = v2 ? `.${v2}` : `.${CREATE.v2Result} (queue) or .${GET.v2Result} (get)`;
    this.mark(
      index,
      "v1-sdk-call",
      `.${CREATE.v1Result} is the V1 Python SDK's result accessor: in V2 it is ${target}; change it together with the call that produced the result`,
    );
  }

  /** `output.data.images`: which object `output` is cannot be proven here, so the change is left to a person. */
  private outputListAt(f: Finding): void {
    const index = this.tokenOf(f);
    const list = this.t[index + 2];
    if (index < 0 || list?.kind !== "name") return;
    const items =
      list.value === PYTHON_SDK_SHAPES.outputTextList ? "its items are strings" : "file items keep .url and .filename";
    this.mark(
      index,
      "v1-sdk-call",
      `.data.${list.value} reads a run output the V1 SDK's way: in V2 (${TARGET}) an output's data is a dict of lists, so read .data.get("${list.value}") once the run comes from the V2 SDK (${items})`,
    );
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

const SDK_RULES: ReadonlySet<RuleId> = new Set(["v1-sdk-import", "v1-sdk-client", "v1-sdk-call"]);

export function fixPythonSdk(text: string, file: string, findings: readonly Finding[], hosts: HostSet): FileFix {
  const sdkFindings = findings.filter((f) => SDK_RULES.has(f.ruleId));
  if (sdkFindings.length === 0) return { text, events: [] };
  const fix = new PythonSdkFix(text, hosts);
  fix.run(sdkFindings);
  let out = text;
  for (const edit of [...fix.edits].sort((a, b) => b.start - a.start))
    out = `${out.slice(0, edit.start)}${edit.text}${out.slice(edit.end)}`;
  // Token edits never change line numbers, so the markers' lines still hold.
  const marked = insertLineMarkers(out, file, fix.markers);
  return { text: marked.text, events: [...fix.events, ...marked.events] };
}

/** The part of the transform for these files. */
export const part: TransformPart = {
  appliesTo: (file) => /\.pyw?$/i.test(file),
  apply: (text, context) => fixPythonSdk(text, context.file, context.findings, context.hosts),
};
