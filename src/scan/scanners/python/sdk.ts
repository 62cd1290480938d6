/**
 * V1 Python SDK shapes in code. `ComfyDeploy(bearer_auth=...)` is V1 only
 * and always reported. When the project pins a V1 release or the file
 * builds a V1 client: the SDK import, `run.create` / `run.get` calls and
 * their awaitable twins, V1-only namespaces, `.object` result reads and V1
 * reads of run outputs (`output.data.images`). When the project declares the
 * SDK at another version, or the file imports it: the shapes V2 lacks, which
 * fail there (a leftover `run.create`, `.object`, a V1-only namespace), so a
 * migrated project that still holds one does not scan clean.
 */
import {
  PYTHON_SDK_SHAPES,
  type PythonRunCall,
  pythonRunCall,
  pythonV1OnlyCall,
} from "../../../knowledge/python-sdk-shapes.js";
import type { RuleId, FixClass } from "../../../rules/catalog.js";
import {
  pythonCallMessage,
  pythonClientMessage,
  pythonImportMessage,
  pythonNamespaceMessage,
  pythonOutputListMessage,
  pythonResultMessage,
  type SdkContext,
} from "./messages.js";
import type { PythonSdkFacts } from "../../../core/facts.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { ProjectPin } from "./project-pin.js";
import { isName, isOp, type PyToken } from "../../../lang/python/tokens.js";
import { fStringFields } from "../../../lang/python/fstring-fields.js";
import { runReturningFunctions } from "./run-returns.js";
import { runCallAt, sdkNames } from "./sdk-imports.js";
import { acceptedRunReturn, importedEvidence, importedSdkClient } from "./imported-sdk.js";
import type { PyValues } from "../../../lang/python/values.js";

export interface SdkUse {
  start: number;
  end: number;
  ruleId: RuleId;
  message: string;
  fix?: FixClass;
  facts: PythonSdkFacts;
}

const CLIENT_CLASS = PYTHON_SDK_SHAPES.clientClass;
const V1_AUTH = PYTHON_SDK_SHAPES.authOption.v1;
const V1_NAMESPACES: ReadonlySet<string> = new Set(Object.keys(PYTHON_SDK_SHAPES.v1OnlyNamespaces));
const GET = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.get")!;
const RESULT = GET.v1Result;
const OUTPUT_LISTS: ReadonlySet<string> = new Set(PYTHON_SDK_SHAPES.outputLists);
const OUTPUT_READ = PYTHON_SDK_SHAPES.outputRead;
const RESULT_READ = new RegExp(`\\.${RESULT}\\b`);

/** `pinOf` is asked only when the file could hold SDK calls (reading manifests costs). */
export function findPythonSdkUses(values: PyValues, pinOf: () => ProjectPin): SdkUse[] {
  const module = values.module;
  const uses: SdkUse[] = [];
  const t = module.tokens;
  const { imports, constructors, v1Clients } = sdkNames(module);
  for (const open of v1Clients) {
    const start = t[module.calleeOf(open)!.start]!.start;
    uses.push({
      start,
      end: t[module.partner(open)]?.end ?? t[open]!.end,
      ruleId: "v1-sdk-client",
      message: pythonClientMessage(),
      facts: {
        kind: "python-sdk",
        v1: `${CLIENT_CLASS}(${V1_AUTH}=…)`,
        v2: `${CLIENT_CLASS}(${PYTHON_SDK_SHAPES.authOption.v2}=…)`,
      },
    });
  }

  const mayUseSdk =
    imports.statements.length > 0 ||
    // `.object` read inside an f-string only: no token of its own.
    RESULT_READ.test(module.text) ||
    t.some(
      (tok) => tok.kind === "name" && (tok.value === "run" || tok.value === RESULT || V1_NAMESPACES.has(tok.value)),
    );
  if (!mayUseSdk) return uses;
  const pin = pinOf();
  // A release file outlives fix (a person replaces it): the calls are judged by their own shape, as without a pin.
  const judged = pin.releaseFile ? ({ verdict: "none" } as const) : pin;
  // A client or run result from another module of the repository is evidence as much as one built here.
  const reached = judged.verdict === "v1" || v1Clients.length > 0 ? undefined : importedEvidence(values);
  const mode = sdkMode(judged, v1Clients.length > 0 || reached === "v1", imports.statements.length > 0 || !!reached);
  if (!mode) return uses;
  const context: SdkContext = { pin, mode };
  // What makes the file's SDK V1: the pin, or else bearer_auth. A leftover is V1 by its own shape; the pin says which SDK is in use.
  const pinned = pin.source !== undefined && (pin.verdict === "v1" || mode === "leftover");
  const pinData: Pick<PythonSdkFacts, "pin" | "spec" | "evidence"> = pinned
    ? { pin: pin.source!, spec: pin.spec ?? "" }
    : mode === "v1"
      ? { evidence: V1_AUTH }
      : {};

  if (pin.verdict === "v1") {
    for (const statement of imports.statements) {
      uses.push({
        start: statement.start,
        end: statement.end,
        ruleId: "v1-sdk-import",
        message: pythonImportMessage(pin),
        fix: pin.releaseFile ? "manual" : "review",
        facts: { kind: "python-sdk", module: statement.module, ...pinData },
      });
    }
  }

  // Names bound to clients.
  const clientKeys = new Set<string>();
  for (const list of module.assignments.values()) {
    for (const assignment of list) {
      const open = module.callSpanning(assignment.value);
      if (open !== undefined && constructors.has(open)) clientKeys.add(assignment.key);
    }
  }
  /** The run call whose result the name holds where it is read. */
  const resultHeldBy = (key: string, offset: number): PythonRunCall | undefined => {
    const assignment = module.resolve(key, offset);
    const open = assignment && module.callSpanning(assignment.value);
    if (open === undefined) return undefined;
    return resultOfCall(open);
  };
  /** The run call whose result a call returns: the SDK call itself, or a helper here or in an imported module. */
  const resultOfCall = (open: number): PythonRunCall | undefined => {
    const direct = runCallAt(module, open);
    if (direct) return direct;
    // `res = fetch(rid)` where `fetch` returns a run call.
    const callee = module.calleeOf(open);
    if (!callee || callee.receiverCall !== undefined) return undefined;
    const local = callee.segments.length === 1 ? returning().get(callee.segments[0]!) : undefined;
    return local ?? acceptedRunReturn(values, callee.segments, pin.verdict === "v1")?.call;
  };
  let returns: Map<string, PythonRunCall> | undefined;
  const returning = (): Map<string, PythonRunCall> =>
    (returns ??= runReturningFunctions(module, (open) => runCallAt(module, open)));
  const isClientReceiver = (segments: string[], receiverCall: number | undefined, offset: number): boolean => {
    if (receiverCall !== undefined && constructors.has(receiverCall)) return true;
    const key = receiverCall === undefined ? keyOf(segments) : undefined;
    if (key !== undefined && clientKeys.has(key)) return true;
    return importedSdkClient(values, segments, receiverCall, offset) !== undefined;
  };

  let readsRuns = false;
  // A name assigned the result of a helper's `run.get` (here or imported) reads runs as much.
  let helperReads: boolean | undefined;
  const helperReadsRuns = (): boolean =>
    (helperReads ??= [...module.assignments.values()].some((list) =>
      list.some((a) => {
        const open = module.callSpanning(a.value);
        return open !== undefined && resultOfCall(open)?.mapping === GET;
      }),
    ));
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    if (!callee) continue;
    const s = callee.segments;
    const method = s[s.length - 1]!;
    const namespace = s[s.length - 2];
    const receiver = s.slice(0, -2);
    const receiverKnown = receiver.length > 0 || callee.receiverCall !== undefined;
    // Under a V1 pin any `<x>.run.create(` is the SDK's: clients are often built in another module.
    const run = namespace === "run" && receiverKnown ? pythonRunCall(`run.${method}`) : undefined;
    if (run) {
      if (run.mapping === GET) readsRuns = true;
      // A call V2 has under the same name is no leftover.
      if (mode === "leftover" && run.mapping.v1 === run.mapping.v2) continue;
      const mapping = run.mapping;
      uses.push({
        start: t[open - 3]!.start,
        end: t[open - 1]!.end,
        ruleId: "v1-sdk-call",
        message: pythonCallMessage(run, context),
        facts: {
          kind: "python-sdk",
          v1: run.v1,
          v2: run.v2,
          v1Result: mapping.v1Result,
          v2Result: mapping.v2Result,
          ...pinData,
        },
      });
      continue;
    }
    // V2 has a namespace of its own below `run` (`run.deployment.queue`).
    const only = namespace && receiver[receiver.length - 1] !== "run" ? pythonV1OnlyCall(namespace, method) : undefined;
    // A V1 method name is the SDK's on any receiver; another method on a V1-only namespace counts on a known client.
    if (only && ((only.known && receiverKnown) || isClientReceiver(receiver, callee.receiverCall, t[open]!.start))) {
      uses.push({
        start: t[open - 3]!.start,
        end: t[open - 1]!.end,
        ruleId: "v1-sdk-call",
        message: pythonNamespaceMessage(namespace!, method, only.advice, context),
        fix: "manual",
        facts: { kind: "python-sdk", v1: `${namespace}.${method}`, ...pinData },
      });
    }
  }

  for (let i = 2; i < t.length; i++) {
    if (!isOp(t[i - 1], ".") || t[i]!.kind !== "name") continue;
    // `.object` on a run result: a name bound to one, a call chained directly, or `.object.run_id`.
    if (isName(t[i], RESULT)) {
      let call: PythonRunCall | undefined;
      let matched = false;
      if (isOp(t[i - 2], ")")) {
        const open = module.partner(i - 2);
        // `call(...).object`, or `(await call(...)).object`.
        const inner = module.isGrouping(open) ? module.callSpanning({ lo: open + 1, hi: i - 2 }) : open;
        call = inner === undefined ? undefined : resultOfCall(inner);
        matched = call !== undefined;
      } else {
        const key = receiverKeyBefore(t, i - 1);
        call = key !== undefined ? resultHeldBy(key, t[i]!.start) : undefined;
        matched = call !== undefined || (mode === "v1" && isOp(t[i + 1], ".") && isName(t[i + 2], "run_id"));
      }
      if (!matched) continue;
      uses.push({
        start: t[i]!.start,
        end: t[i]!.end,
        ruleId: "v1-sdk-call",
        message: pythonResultMessage(call, context),
        facts: { kind: "python-sdk", v1: RESULT, ...(call ? { call: call.v1 } : {}), ...pinData },
      });
    } else if (isOutputListRead(module, i) && (readsRuns || helperReadsRuns())) {
      // `output.data.images`: V1 run outputs are objects; V2's `data` is a dict.
      const list = t[i]!.value;
      uses.push({
        start: t[i - 2]!.start,
        end: t[i]!.end,
        ruleId: "v1-sdk-call",
        message: pythonOutputListMessage(list, context),
        fix: "review",
        facts: { kind: "python-sdk", v1: `${OUTPUT_READ}.${list}`, v2: `${OUTPUT_READ}.get("${list}")`, ...pinData },
      });
    }
  }
  // The same reads inside f-string fields: `f"{res.object.live_status}"`.
  for (const field of fStringFields(module.text, t)) {
    for (let i = 2; i < field.length; i++) {
      if (!isName(field[i], RESULT) || !isOp(field[i - 1], ".")) continue;
      const key = receiverKeyBefore(field, i - 1);
      const call = key !== undefined ? resultHeldBy(key, field[i]!.start) : undefined;
      if (!call && !(key !== undefined && mode === "v1" && isOp(field[i + 1], ".") && isName(field[i + 2], "run_id")))
        continue;
      uses.push({
        start: field[i]!.start,
        end: field[i]!.end,
        ruleId: "v1-sdk-call",
        message: pythonResultMessage(call, context),
        facts: { kind: "python-sdk", v1: RESULT, ...(call ? { call: call.v1 } : {}), ...pinData },
      });
    }
  }
  return uses;
}

/**
 * v1: the file's SDK is V1 (a V1 pin, or a client built with bearer_auth).
 * leftover: the project declares the SDK at another version, or the file
 * imports it unpinned: only shapes V2 lacks are V1 there, and they fail.
 */
function sdkMode(pin: ProjectPin, buildsV1Client: boolean, importsSdk: boolean): SdkContext["mode"] | undefined {
  if (pin.verdict === "v1" || buildsV1Client) return "v1";
  return pin.verdict !== "none" || importsSdk ? "leftover" : undefined;
}

/** `<x>.data.<list>` read as a value (not called, not assigned to). */
function isOutputListRead(module: PyModule, i: number): boolean {
  const t = module.tokens;
  if (!OUTPUT_LISTS.has(t[i]!.value) || !isName(t[i - 2], "data") || !isOp(t[i - 3], ".")) return false;
  const owner = t[i - 4];
  if (!owner || !(owner.kind === "name" || isOp(owner, ")") || isOp(owner, "]"))) return false;
  return !isOp(t[i + 1], "(") && !isOp(t[i + 1], "=");
}

/** "NAME" or "self.NAME" for the name chain ending just before token `dot`. */
function receiverKeyBefore(t: readonly PyToken[], dot: number): string | undefined {
  const last = t[dot - 1];
  if (last?.kind !== "name") return undefined;
  if (isOp(t[dot - 2], ".")) {
    const owner = t[dot - 3];
    if ((isName(owner, "self") || isName(owner, "cls")) && !isOp(t[dot - 4], ".")) return `self.${last.value}`;
    return undefined;
  }
  return last.value;
}

function keyOf(segments: string[]): string | undefined {
  if (segments.length === 1) return segments[0];
  if (segments.length === 2 && (segments[0] === "self" || segments[0] === "cls")) return `self.${segments[1]}`;
  return undefined;
}
