/** Finding messages for the Python SDK, built from the migration data. */
import { PYTHON_SDK, PYTHON_SDK_SHAPES } from "../../../knowledge/migration.js";
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
    const action = lockfile
      ? `require ${TARGET} in the manifest and regenerate this lockfile`
      : `require ${TARGET}`;
    return `${what} is the V1 Python SDK (below ${PYTHON_SDK.firstV2Version}), which talks to the V1 API: ${action}, and update the calls (${PYTHON_CALL_CHANGES}).`;
  }
  return `${what} is for review: ${judgement.reason}. Releases below ${PYTHON_SDK.firstV2Version} talk to the V1 API; require ${TARGET} and update V1 calls (${PYTHON_CALL_CHANGES}).`;
}

function pinNote(pin: ProjectPin): string {
  if (pin.verdict === "v1" && pin.source) return ` (${PKG}${pin.spec ? ` ${pin.spec}` : ""} in ${pin.source} is V1)`;
  return "";
}

export function pythonClientMessage(): string {
  return `${CLIENT}(${AUTH.v1}=…) is the V1 Python SDK (${PKG} below ${PYTHON_SDK.firstV2Version}): use ${CLIENT}(${AUTH.v2}=…) with ${TARGET}, preferably as \`with ${CLIENT}(${AUTH.v2}=…) as cd:\`.`;
}

export function pythonImportMessage(pin: ProjectPin): string {
  return `This file uses the V1 Python SDK${pinNote(pin)}: upgrade to ${TARGET}; the import stays, the calls change (${PYTHON_CALL_CHANGES}).`;
}

export function pythonCallMessage(call: "run.create" | "run.get", pin: ProjectPin): string {
  const mapping = call === "run.create" ? CREATE : GET;
  const change = mapping.v1 === mapping.v2 ? `keeps its name in V2` : `becomes ${mapping.v2}(request={...}) in V2`;
  return `${call}() on the V1 Python SDK${pinNote(pin)}: it ${change} (${TARGET}); its result moves from res.${mapping.v1Result} to res.${mapping.v2Result}.`;
}

export function pythonNamespaceMessage(namespace: string, pin: ProjectPin): string {
  return `client.${namespace} exists only in the V1 Python SDK${pinNote(pin)}: there is no V2 counterpart in ${TARGET}; rewrite this against the V2 API by hand.`;
}

export function pythonResultMessage(call: "run.create" | "run.get" | undefined, pin: ProjectPin): string {
  const target =
    call === "run.create" ? `res.${CREATE.v2Result}` : call === "run.get" ? `res.${GET.v2Result}` : `res.${CREATE.v2Result} (queue) or res.${GET.v2Result} (get)`;
  return `res.${CREATE.v1Result} is the V1 Python SDK's result accessor${pinNote(pin)}: in V2 (${TARGET}) it is ${target}.`;
}
