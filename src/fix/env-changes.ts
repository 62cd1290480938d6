/** The configuration a migration changes along with the code: env variables the migrated code reads, and the values they need. */
import type { FixPlan } from "./runner.js";

/** Each env variable the migrated code reads that must change with it, once, with the files that read it. */
export function envChangesOf(plan: FixPlan): Array<{ variable: string; value: string; files: string[] }> {
  const byVariable = new Map<string, { variable: string; value: string; files: string[] }>();
  for (const change of plan.changes) {
    for (const event of change.events) {
      if (!event.env) continue;
      const entry = byVariable.get(event.env.variable) ?? { ...event.env, files: [] };
      if (!entry.files.includes(change.file)) entry.files.push(change.file);
      byVariable.set(event.env.variable, entry);
    }
  }
  return [...byVariable.values()].sort((a, b) => (a.variable < b.variable ? -1 : 1));
}
