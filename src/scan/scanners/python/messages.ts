/** Finding messages for the Python SDK, built from the migration data. */
import { PYTHON_SDK } from "../../../knowledge/migration.js";
import { PYTHON_SDK_SHAPES, type PythonRunCall } from "../../../knowledge/python-sdk-shapes.js";
import type { PypiJudgement } from "../../../knowledge/pypi-versions.js";
import type { ProjectPin } from "./project-pin.js";

const PKG = PYTHON_SDK.packageName;
const TARGET = `${PKG}${PYTHON_SDK.recommendedRange}`;
const CREATE = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.create")!;
const GET = PYTHON_SDK_SHAPES.calls.find((c) => c.v1 === "run.get")!;
const AUTH = PYTHON_SDK_SHAPES.authOption;
const CLIENT = PYTHON_SDK_SHAPES.clientClass;

/** What changes in code when the Python SDK moves to V2. */
export const PYTHON_CALL_CHANGES = `${CLIENT}(${AUTH.v1}=…) → ${CLIENT}(${AUTH.v2}=…), ${CREATE.v1} → ${CREATE.v2}, res.${CREATE.v1Result} → res.${CREATE.v2Result} / res.${GET.v2Result}`;

export function pypiDependencyMessage(spec: string, judgement: PypiJudgement, lockfile: boolean): string {
  const what = spec === "" ? `${PKG} (no version)` : `${PKG} ${spec}`;
  if (judgement.verdict === "v1") {
    const action = lockfile ? `require ${TARGET} in the manifest and regenerate this lockfile` : `require ${TARGET}`;
    return `${what} is the V1 Python SDK (below ${PYTHON_SDK.firstV2Version}), which talks to the V1 API: ${action}, and update the calls (${PYTHON_CALL_CHANGES}).`;
  }
  return `${what} is for review: ${judgement.reason}. Releases below ${PYTHON_SDK.firstV2Version} talk to the V1 API; require ${TARGET} and update V1 calls (${PYTHON_CALL_CHANGES}).`;
}

/** A wheel or sdist of a V1 release named in a file: the file itself has to be replaced. */
export function pypiReleaseFileMessage(file: string, version: string): string {
  return `${file} is ${PKG} ${version}, the V1 Python SDK (below ${PYTHON_SDK.firstV2Version}), which talks to the V1 API: install ${TARGET} instead (a V2 release file or a requirement), and update the calls (${PYTHON_CALL_CHANGES}).`;
}

/** A local copy of the V1 client class. */
export function pythonVendoredClassMessage(name: string): string {
  return `${name} is a local copy of the V1 client (POST {base}/run, GET {base}/run?run_id=): replace it with the V2 SDK (${TARGET}, ${CLIENT}(${AUTH.v2}=…)) or move its requests to POST {base}/run/deployment/queue and GET {base}/run/{run_id}.`;
}

/** The app's import, construction or V1 method call of a local copy of the V1 client. */
export function pythonVendoredUseMessage(ruleId: string, name: string): string {
  if (ruleId === "v1-sdk-import")
    return `${name} holds a local copy of the V1 client: import ${CLIENT} from ${PKG} (${TARGET}) here once the calls are migrated, or migrate the copy.`;
  if (ruleId === "v1-sdk-client")
    return `${name}(…) builds a local copy of the V1 client (V1 endpoints, usually the V1 base): use ${CLIENT}(${AUTH.v2}=…) from ${TARGET}.`;
  return `.${name}() on a local copy of the V1 client talks to the V1 API: with ${TARGET} use ${CLIENT}(…).run.deployment.queue(…) / .run.get(run_id=…), or migrate the copy.`;
}

/** How a file's SDK use was judged: V1 code, or V1-only shapes left in a project on another version. */
export interface SdkContext {
  pin: ProjectPin;
  mode: "v1" | "leftover";
}

function pinNote(pin: ProjectPin): string {
  if (pin.verdict === "v1" && pin.source) return ` (${PKG}${pin.spec ? ` ${pin.spec}` : ""} in ${pin.source} is V1)`;
  return "";
}

/** Where a project that is not on V1 declares the SDK: a V1-only shape fails there. */
function leftoverNote(pin: ProjectPin): string {
  if (!pin.source) return "";
  const what = `${PKG}${pin.spec ? ` ${pin.spec}` : ""} in ${pin.source}`;
  return pin.verdict === "v2"
    ? ` and fails on the V2 SDK this project pins (${what})`
    : ` and fails on the V2 SDK that ${what} allows`;
}

export function pythonClientMessage(): string {
  return `${CLIENT}(${AUTH.v1}=…) is the V1 Python SDK (${PKG} below ${PYTHON_SDK.firstV2Version}): use ${CLIENT}(${AUTH.v2}=…) with ${TARGET}, preferably as \`with ${CLIENT}(${AUTH.v2}=…) as cd:\`.`;
}

export function pythonImportMessage(pin: ProjectPin): string {
  return `This file uses the V1 Python SDK${pinNote(pin)}: upgrade to ${TARGET}; the import stays, the calls change (${PYTHON_CALL_CHANGES}).`;
}

export function pythonCallMessage(run: PythonRunCall, context: SdkContext): string {
  const { mapping } = run;
  const result = `res.${mapping.v1Result} to res.${mapping.v2Result}`;
  if (context.mode === "leftover") {
    return `${run.v1}() exists only in the V1 Python SDK${leftoverNote(context.pin)}: call ${run.v2}(request={...}) instead (${TARGET}); its result moves from ${result}.`;
  }
  const change = mapping.v1 === mapping.v2 ? `keeps its name in V2` : `becomes ${run.v2}(request={...}) in V2`;
  return `${run.v1}() on the V1 Python SDK${pinNote(context.pin)}: it ${change} (${TARGET}); its result moves from ${result}.`;
}

export function pythonNamespaceMessage(
  namespace: string,
  method: string,
  advice: string | undefined,
  context: SdkContext,
): string {
  const note = context.mode === "v1" ? pinNote(context.pin) : leftoverNote(context.pin);
  const instead = advice ?? "rewrite this against the V2 API by hand";
  return `client.${namespace}.${method}() exists only in the V1 Python SDK${note}: there is no client.${namespace} namespace in V2 (${TARGET}); ${instead}.`;
}

export function pythonResultMessage(call: PythonRunCall | undefined, context: SdkContext): string {
  const v2 = call?.mapping.v2Result;
  const target = v2 ? `res.${v2}` : `res.${CREATE.v2Result} (queue) or res.${GET.v2Result} (get)`;
  if (context.mode === "leftover") {
    return `res.${CREATE.v1Result} is the V1 Python SDK's result accessor${leftoverNote(context.pin)}: V2 responses (${TARGET}) have no .${CREATE.v1Result}; read ${target}.`;
  }
  return `res.${CREATE.v1Result} is the V1 Python SDK's result accessor${pinNote(context.pin)}: in V2 (${TARGET}) it is ${target}.`;
}

export function pythonOutputListMessage(list: string, context: SdkContext): string {
  const note = context.mode === "v1" ? pinNote(context.pin) : leftoverNote(context.pin);
  const items =
    list === PYTHON_SDK_SHAPES.outputTextList ? "its items are strings" : "file items keep .url and .filename";
  return `.data.${list} reads a run output the V1 Python SDK's way${note}: in V2 (${TARGET}) an output's data is a dict of lists, so read .data.get("${list}") (${items}).`;
}
