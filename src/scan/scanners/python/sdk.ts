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
import { PYTHON_SDK } from "../../../knowledge/migration.js";
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
import type { PyRange } from "../../../lang/python/syntax.js";
import type { ProjectPin } from "./project-pin.js";
import { isName, isOp, type PyToken } from "../../../lang/python/tokens.js";
import { fStringFields } from "../../../lang/python/fstring-fields.js";
import { runReturningFunctions } from "./run-returns.js";

export interface SdkUse {
  start: number;
  end: number;
  ruleId: RuleId;
  message: string;
  fix?: FixClass;
  facts: PythonSdkFacts;
}

const PACKAGE = PYTHON_SDK.packageName;
const CLIENT_CLASS = PYTHON_SDK_SHAPES.clientClass;
const V1_AUTH = PYTHON_SDK_SHAPES.authOption.v1;
const V1_NAMESPACES: ReadonlySet<string> = new Set(Object.keys(PYTHON_SDK_SHAPES.v1OnlyNamespaces));
const GET = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.get")!;
const RESULT = GET.v1Result;
const OUTPUT_LISTS: ReadonlySet<string> = new Set(PYTHON_SDK_SHAPES.outputLists);
const OUTPUT_READ = PYTHON_SDK_SHAPES.outputRead;

interface SdkImport {
  start: number;
  end: number;
  module: string;
}

/** `pinOf` is asked only when the file could hold SDK calls (reading manifests costs). */
export function findPythonSdkUses(module: PyModule, pinOf: () => ProjectPin): SdkUse[] {
  const uses: SdkUse[] = [];
  const t = module.tokens;
  const imports = sdkImports(module);
  const classNames = new Set(imports.classAliases);
  // An unqualified ComfyDeploy counts unless the file defines its own class of that name.
  const definesOwnClass = t.some((tok, i) => isName(tok, CLIENT_CLASS) && isName(t[i - 1], "class"));
  if (!definesOwnClass) classNames.add(CLIENT_CLASS);

  const isConstructor = (open: number): boolean => {
    const callee = module.calleeOf(open);
    if (!callee || callee.receiverCall !== undefined) return false;
    const s = callee.segments;
    if (s.length === 1) return classNames.has(s[0]!);
    return s.length === 2 && s[1] === CLIENT_CLASS && imports.moduleAliases.has(s[0]!);
  };

  // Constructors, and which of them use the V1-only auth option.
  const v1Clients: number[] = [];
  const constructors = new Set<number>();
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(") || !isConstructor(open)) continue;
    constructors.add(open);
    const close = module.partner(open);
    for (let i = open + 1; i < close; i++) {
      if (isName(t[i], V1_AUTH) && isOp(t[i + 1], "=")) {
        v1Clients.push(open);
        break;
      }
    }
  }
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
    t.some(
      (tok) => tok.kind === "name" && (tok.value === "run" || tok.value === RESULT || V1_NAMESPACES.has(tok.value)),
    );
  if (!mayUseSdk) return uses;
  const pin = pinOf();
  // A release file outlives fix (a person replaces it): the calls are judged by their own shape, as without a pin.
  const mode = sdkMode(
    pin.releaseFile ? { verdict: "none" } : pin,
    v1Clients.length > 0,
    imports.statements.length > 0,
  );
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
    const direct = runCallAt(module, open);
    if (direct) return direct;
    // `res = fetch(rid)` where `fetch` returns a run call.
    const callee = module.calleeOf(open);
    return callee?.segments.length === 1 ? returning().get(callee.segments[0]!) : undefined;
  };
  let returns: Map<string, PythonRunCall> | undefined;
  const returning = (): Map<string, PythonRunCall> =>
    (returns ??= runReturningFunctions(module, (open) => runCallAt(module, open)));
  const isClientReceiver = (segments: string[], receiverCall: number | undefined): boolean => {
    if (receiverCall !== undefined) return constructors.has(receiverCall);
    const key = keyOf(segments);
    return key !== undefined && clientKeys.has(key);
  };

  let readsRuns = false;
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
    if (only && ((only.known && receiverKnown) || isClientReceiver(receiver, callee.receiverCall))) {
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
        call = inner === undefined ? undefined : runCallAt(module, inner);
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
    } else if (readsRuns && isOutputListRead(module, i)) {
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

interface SdkImports {
  statements: SdkImport[];
  /** Local names of the client class (`from comfydeploy import ComfyDeploy as CD`). */
  classAliases: string[];
  /** Local names of the package module (`import comfydeploy as cd`). */
  moduleAliases: Set<string>;
}

function sdkImports(module: PyModule): SdkImports {
  const t = module.tokens;
  const out: SdkImports = { statements: [], classAliases: [], moduleAliases: new Set() };
  for (const line of module.lines) {
    const first = t[line.lo]!;
    const span = { start: first.start, end: t[line.hi - 1]!.end };
    if (isName(first, "from")) {
      const { name, next } = dottedName(module, line.lo + 1, line.hi);
      if (name.split(".")[0] !== PACKAGE || !isName(t[next], "import")) continue;
      out.statements.push({ ...span, module: name });
      if (name !== PACKAGE) continue;
      for (const item of module.splitTopLevel(next + 1, line.hi)) {
        let lo = item.lo;
        let hi = item.hi;
        if (isOp(t[lo], "(")) {
          for (const inner of module.splitTopLevel(lo + 1, module.partner(lo))) addImported(module, inner, out);
          continue;
        }
        if (isOp(t[hi - 1], ")")) hi--;
        if (isOp(t[lo], ")")) lo++;
        addImported(module, { lo, hi }, out);
      }
    } else if (isName(first, "import")) {
      for (const item of module.splitTopLevel(line.lo + 1, line.hi)) {
        const { name, next } = dottedName(module, item.lo, item.hi);
        if (name.split(".")[0] !== PACKAGE) continue;
        out.statements.push({ ...span, module: name });
        if (isName(t[next], "as") && t[next + 1]?.kind === "name") out.moduleAliases.add(t[next + 1]!.value);
        else out.moduleAliases.add(PACKAGE);
      }
    }
  }
  return out;
}

function addImported(module: PyModule, range: PyRange, out: SdkImports): void {
  const t = module.tokens;
  if (!isName(t[range.lo], CLIENT_CLASS)) return;
  const alias =
    isName(t[range.lo + 1], "as") && t[range.lo + 2]?.kind === "name" ? t[range.lo + 2]!.value : CLIENT_CLASS;
  out.classAliases.push(alias);
}

function dottedName(module: PyModule, lo: number, hi: number): { name: string; next: number } {
  const t = module.tokens;
  const parts: string[] = [];
  let i = lo;
  while (i < hi && t[i]?.kind === "name") {
    parts.push(t[i]!.value);
    if (!isOp(t[i + 1], ".")) {
      i++;
      break;
    }
    i += 2;
  }
  return { name: parts.join("."), next: i };
}

function runCallAt(module: PyModule, open: number): PythonRunCall | undefined {
  if (open < 0) return undefined;
  const callee = module.calleeOf(open);
  if (!callee) return undefined;
  const s = callee.segments;
  return s[s.length - 2] === "run" ? pythonRunCall(`run.${s[s.length - 1]!}`) : undefined;
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
