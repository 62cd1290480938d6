/**
 * The V1 SDK a Python file reaches through its imports rather than its own
 * code: a client object built in another module of the repository (`from
 * app.comfy import client`, a factory there, a client passed in by callers),
 * and run results that functions of other modules return (run-returns.ts).
 * Their module's own imports and constructions say whether it is the SDK,
 * and whether it is V1, for a file that says neither itself.
 */
import { PYTHON_SDK_SHAPES } from "../../../knowledge/python-sdk-shapes.js";
import {
  type ClientConstruction,
  clientConstruction,
  constructionAtCall,
  type IsConstruction,
} from "../../../lang/python/client-objects.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { PyValues } from "../../../lang/python/values.js";
import { isOp } from "../../../lang/python/tokens.js";
import { type ImportedRunCall, importedRunReturn } from "./run-returns.js";
import { sdkNames } from "./sdk-imports.js";

export type SdkEvidence = "v1" | "sdk";

const NAMESPACES: ReadonlySet<string> = new Set(["run", ...Object.keys(PYTHON_SDK_SHAPES.v1OnlyNamespaces)]);

/** `.object`, the V1 result accessor. */
const RESULT_READ = new RegExp(`\\.${PYTHON_SDK_SHAPES.calls[0]!.v1Result}\\b`);

const isSdkClient: IsConstruction = (values, open) => sdkNames(values.module).constructors.has(open);

/** The SDK client a receiver (`client`, `self.cd`, `get_client()`) holds, built in another module. */
export function importedSdkClient(
  values: PyValues,
  receiver: readonly string[],
  receiverCall: number | undefined,
  offset: number,
): ClientConstruction | undefined {
  const found =
    receiverCall !== undefined
      ? constructionAtCall(values, receiverCall, 0, isSdkClient)
      : clientConstruction(values, receiver, offset, 0, isSdkClient);
  return found && found.values.module !== values.module ? found : undefined;
}

/** What a module says of itself: it builds a V1 client, or it imports or builds the SDK's. */
export function moduleEvidence(module: PyModule): SdkEvidence | undefined {
  const names = sdkNames(module);
  if (names.v1Clients.length > 0) return "v1";
  return names.imports.statements.length > 0 || names.constructors.size > 0 ? "sdk" : undefined;
}

/** A run call another module returns, when that module is the SDK's (or the project's V1 pin says any `x.run.get(` is). */
export function acceptedRunReturn(
  values: PyValues,
  segments: readonly string[],
  trustShape: boolean,
): ImportedRunCall | undefined {
  const found = importedRunReturn(values, segments);
  return found && (trustShape || moduleEvidence(found.module)) ? found : undefined;
}

/**
 * The strongest evidence the file's imports give: names assigned results of
 * imported run-returning functions, and SDK calls on clients built elsewhere.
 */
export function importedEvidence(values: PyValues): SdkEvidence | undefined {
  const module = values.module;
  const t = module.tokens;
  let best: SdkEvidence | undefined;
  const note = (evidence: SdkEvidence | undefined): void => {
    if (evidence === "v1" || (evidence && !best)) best = evidence;
  };
  // Results matter only where the file reads them (`res.object`).
  const readsResults = RESULT_READ.test(module.text);
  for (const list of readsResults ? module.assignments.values() : []) {
    for (const assignment of list) {
      const open = module.callSpanning(assignment.value);
      const callee = open === undefined ? undefined : module.calleeOf(open);
      if (!callee || callee.receiverCall !== undefined) continue;
      const found = importedRunReturn(values, callee.segments);
      if (found) note(moduleEvidence(found.module));
    }
  }
  for (let open = 0; open < t.length && best !== "v1"; open++) {
    if (!isOp(t[open], "(")) continue;
    const callee = module.calleeOf(open);
    const s = callee?.segments;
    if (!callee || !s || s.length < 2 || !NAMESPACES.has(s[s.length - 2]!)) continue;
    const receiver = s.slice(0, -2);
    if (receiver.length === 0 && callee.receiverCall === undefined) continue;
    const client = importedSdkClient(values, receiver, callee.receiverCall, t[open]!.start);
    if (client) note(sdkNames(client.values.module).v1Clients.includes(client.open) ? "v1" : "sdk");
  }
  return best;
}
