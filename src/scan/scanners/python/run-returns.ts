/**
 * Functions whose return value is a V1 SDK run call: `def fetch(run_id):
 * return client.run.get(run_id=run_id)`, or a name bound to one and
 * returned. A name assigned from a call of such a function holds a run
 * result as much as one assigned from the SDK call itself.
 */
import type { PyModule } from "../../../lang/python/module.js";
import { isName } from "../../../lang/python/tokens.js";

/** The run call (as the caller decides it) each returning function name returns. */
export function runReturningFunctions<Call>(
  module: PyModule,
  runCallAt: (open: number) => Call | undefined,
): Map<string, Call> {
  const out = new Map<string, Call>();
  const t = module.tokens;
  for (const line of module.lines) {
    if (!isName(t[line.lo], "return") || line.hi - line.lo < 2) continue;
    const scopes = module.scopesAt(t[line.lo]!.start);
    const def = module.defs.get(scopes[scopes.length - 1]!);
    if (!def || out.has(def.name)) continue;
    const call = returnedCall(module, { lo: line.lo + 1, hi: line.hi }, runCallAt);
    if (call !== undefined) out.set(def.name, call);
  }
  return out;
}

function returnedCall<Call>(
  module: PyModule,
  range: { lo: number; hi: number },
  runCallAt: (open: number) => Call | undefined,
): Call | undefined {
  const open = module.callSpanning(range);
  if (open !== undefined) return runCallAt(open);
  // `res = client.run.get(...)` then `return res`.
  const name = module.tokens[range.lo];
  if (range.hi - range.lo !== 1 || name?.kind !== "name") return undefined;
  const assignment = module.resolve(name.value, name.start);
  const bound = assignment && module.callSpanning(assignment.value);
  return bound === undefined ? undefined : runCallAt(bound);
}
