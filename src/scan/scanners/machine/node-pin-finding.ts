/**
 * How a node pin a scanner found becomes a `node-component-pin` finding
 * (severity, fix class, message and facts from `lang/node-pin/report.ts`).
 * Pins at or after the minimum are not reported.
 */
import type { Finding } from "../../../core/finding.js";
import type { NodeRefDecision } from "../../../knowledge/node-ref.js";
import type { NodePinFormat } from "../../../core/facts.js";
import { nodePinClass, nodePinFacts, nodePinMessage, type NodePinNote } from "../../../lang/node-pin/report.js";
import type { FindingSink } from "../../scanner-helpers.js";

export type { NodePinFormat, NodePinNote };

export interface NodePinSite {
  decision: NodeRefDecision;
  format: NodePinFormat;
  /** File offsets of the ref a fixer replaces, or of the clone URL or key when nothing pins the node. */
  start: number;
  end: number;
  note?: NodePinNote;
}

/** Adds the finding for a pin; returns undefined for pins that need nothing. */
export function reportNodePin(sink: FindingSink, site: NodePinSite): Finding | undefined {
  const { decision } = site;
  if (decision.verdict === "ok") return undefined;
  const { severity, fix } = nodePinClass(decision, site.format);
  const finding = sink.atOffset(site.start, Math.max(site.end, site.start + 1), {
    ruleId: "node-component-pin",
    message: nodePinMessage(decision, site.format, site.note),
    severity,
    fix,
    facts: nodePinFacts(decision, site.format),
  });
  return finding;
}
