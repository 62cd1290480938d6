/**
 * Which expressions of a module hold an instance of a local V1 client, given
 * the calls that construct one: names and `self.<name>` attributes assigned
 * a construction, and the functions and methods returning one (`def
 * _client(self): return CloudClient(key)`), however they are then called
 * (`self._client().run(…)`, `client = get_client()`).
 */
import { classAt } from "../../../lang/python/classes.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { PyRange } from "../../../lang/python/syntax.js";

/** `name` for a module function or a plain name, `self.name` for a method or an attribute. */
function keyOf(segments: readonly string[]): string | undefined {
  if (segments.length === 1) return segments[0];
  return segments.length === 2 && (segments[0] === "self" || segments[0] === "cls") ? `self.${segments[1]}` : undefined;
}

export function clientInstances(
  module: PyModule,
  constructors: ReadonlySet<number>,
): (segments: readonly string[], receiverCall: number | undefined) => boolean {
  const t = module.tokens;
  const holders = new Set<string>();
  const factories = new Set<string>();
  const isClientCall = (open: number): boolean => {
    if (constructors.has(open)) return true;
    const callee = module.calleeOf(open);
    const key = callee && callee.receiverCall === undefined ? keyOf(callee.segments) : undefined;
    return key !== undefined && factories.has(key);
  };
  const isClientValue = (range: PyRange): boolean => {
    const open = module.callSpanning(range);
    if (open !== undefined) return isClientCall(open);
    return range.hi - range.lo === 1 && holders.has(t[range.lo]!.value);
  };
  // A few rounds: a factory may return a name assigned from another factory.
  for (let round = 0, grew = true; grew && round < 4; round++) {
    grew = false;
    for (const list of module.assignments.values()) {
      for (const assignment of list) {
        if (holders.has(assignment.key) || !isClientValue(assignment.value)) continue;
        holders.add(assignment.key);
        grew = true;
      }
    }
    for (const def of module.defs.values()) {
      const key = classAt(module, def.start) ? `self.${def.name}` : def.name;
      if (factories.has(key) || !module.returnValues(def.scope).some(isClientValue)) continue;
      factories.add(key);
      grew = true;
    }
  }
  return (segments, receiverCall) => {
    if (receiverCall !== undefined) return isClientCall(receiverCall);
    const key = keyOf(segments);
    return key !== undefined && holders.has(key);
  };
}
