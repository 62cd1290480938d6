/** What `fix` prints: the dry run's diff, the summary of what changed and what was left, the transform list. */
import { createTwoFilesPatch } from "diff";
import pc from "picocolors";
import type { TransformMeta } from "../../transforms/types.js";
import { terminalSafeLine } from "../core/terminal-safe.js";
import { envChangesOf } from "../fix/env-changes.js";
import type { FixPlan } from "../fix/runner.js";
import { fixNextStep } from "./next-step.js";

export function renderDiff(plan: FixPlan, color: boolean): string {
  const c = pc.createColors(color);
  return plan.changes
    .map((change) => {
      const patch = createTwoFilesPatch(`a/${change.file}`, `b/${change.file}`, change.before, change.after, "", "", {
        context: 3,
      });
      const body = patch.split("\n").slice(1).join("\n"); // drop the "=====" header line
      return body
        .split("\n")
        .map(terminalSafeLine)
        .map((line) =>
          line.startsWith("+") && !line.startsWith("+++")
            ? c.green(line)
            : line.startsWith("-") && !line.startsWith("---")
              ? c.red(line)
              : line.startsWith("@@")
                ? c.cyan(line)
                : line,
        )
        .join("\n");
    })
    .join("");
}

export function eventCounts(plan: FixPlan): { rewrites: number; markers: number } {
  const count = (kind: string): number =>
    plan.changes.reduce((n, ch) => n + ch.events.filter((e) => e.kind === kind).length, 0);
  return { rewrites: count("rewrite"), markers: count("marker") };
}

export function renderSummary(
  plan: FixPlan,
  dryRun: boolean,
  color: boolean,
  path: string,
  options = "",
  left?: string,
  withNext = true,
): string {
  const c = pc.createColors(color);
  const { rewrites, markers } = eventCounts(plan);
  const out: string[] = [""];
  for (const change of plan.changes) {
    out.push(c.underline(terminalSafeLine(change.file)));
    for (const e of change.events) {
      out.push(
        `  ${String(e.line).padStart(5)}  ${e.kind === "rewrite" ? c.green("rewrite") : c.yellow("marker ")}  ${c.bold(e.ruleId)}  ${terminalSafeLine(e.message)}`,
      );
    }
  }
  const verb = dryRun ? "would change" : "changed";
  out.push(
    "",
    c.bold(
      `fix ${dryRun ? "(dry run) " : ""}${verb} ${plan.changes.length} file${plan.changes.length === 1 ? "" : "s"}: ` +
        `${rewrites} site${rewrites === 1 ? "" : "s"} rewritten, ${markers} review marker${markers === 1 ? "" : "s"} added.`,
    ),
    `${plan.candidates} candidate file${plan.candidates === 1 ? "" : "s"} with findings looked at; ${plan.untouched} file${plan.untouched === 1 ? "" : "s"} with findings no selected transform handles.`,
  );
  if (plan.skipped.length > 0) {
    out.push(c.yellow(`Skipped ${plan.skipped.length} file${plan.skipped.length === 1 ? "" : "s"}:`));
    for (const s of plan.skipped)
      out.push(
        s.ruleId
          ? `  ${c.yellow("warning")}  ${c.bold(s.ruleId)}  ${terminalSafeLine(s.file)}: ${terminalSafeLine(s.reason)}`
          : `  ${terminalSafeLine(s.file)}: ${terminalSafeLine(s.reason)}`,
      );
  }
  if (plan.removedTemps.length > 0) {
    out.push(
      `Removed ${plan.removedTemps.length} temp file${plan.removedTemps.length === 1 ? "" : "s"} an interrupted fix had left: ${plan.removedTemps.join(", ")}`,
    );
  }
  if (plan.notes.length > 0) {
    out.push(c.yellow("Left as it is, on purpose:"));
    for (const n of plan.notes) out.push(`  ${terminalSafeLine(n.file)}:${n.line}: ${terminalSafeLine(n.reason)}`);
  }
  const envChanges = envChangesOf(plan);
  if (envChanges.length > 0) {
    out.push(c.yellow("Configuration to change with this code (env files, CI secrets, hosting settings):"));
    for (const change of envChanges)
      out.push(`  ${change.variable}=${change.value}  (read in ${change.files.join(", ")})`);
  }
  if (markers > 0)
    out.push(
      `Review markers read "TODO(comfydeploy-migrate)"; 'scan --fail-on warning' keeps CI red until they are resolved.`,
    );
  if (left) out.push(left);
  const next = withNext ? fixNextStep(rewrites, markers, dryRun, path, options) : undefined;
  if (next) out.push(c.bold(next));
  return `${out.join("\n")}\n`;
}

export function listTransforms(catalog: readonly TransformMeta[]): string {
  const out: string[] = [];
  for (const t of catalog) {
    out.push(`${t.id}: ${t.title}`);
    for (const r of t.rewrites) out.push(`  rewrites: ${r}`);
    for (const m of t.marks) out.push(`  marks:    ${m}`);
  }
  return `${out.join("\n")}\n`;
}
