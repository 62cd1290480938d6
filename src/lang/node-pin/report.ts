/**
 * What a node pin's decision means for the user, for the scanner and for
 * `scan --online` alike: severity and fix class by verdict, the message
 * saying what to do, and the facts a fixer or the online resolver reads.
 */
import type { NodePinFacts, NodePinFormat } from "../../core/facts.js";
import { NODE_COMPONENT } from "../../knowledge/migration.js";
import { type NodeRefDecision, NODE_REF_TARGET } from "../../knowledge/node-ref.js";
import type { FixClass, Severity } from "../../rules/catalog.js";

/** Why a pin cannot be judged beyond what the decision says. */
export type NodePinNote =
  /** The ref comes from a variable whose value the file does not set. */
  | "unresolved-variable"
  /** A submodule whose commit could not be read from the git index. */
  | "no-gitlink";

export const ONLINE_COMMAND = "comfydeploy-migrate scan --online";

const NODE = NODE_COMPONENT.repository;
const MINIMUM = `v${NODE_COMPONENT.minimumVersion} (${NODE_COMPONENT.minimumCommit})`;

export function nodePinClass(decision: NodeRefDecision, format: NodePinFormat): { severity: Severity; fix: FixClass } {
  if (decision.verdict === "outdated") {
    // A gitlink or a vendored copy is not a text edit.
    return { severity: "error", fix: format === "gitmodules" || format === "pyproject" ? "review" : "auto" };
  }
  return { severity: "warning", fix: "review" };
}

export function nodePinFacts(decision: NodeRefDecision, format: NodePinFormat): NodePinFacts {
  return {
    kind: "node-pin",
    ref: decision.ref,
    refKind: decision.refKind,
    verdict: decision.verdict,
    format,
    ...(decision.release ? { release: decision.release } : {}),
  };
}

export function nodePinMessage(decision: NodeRefDecision, format: NodePinFormat, note?: NodePinNote): string {
  switch (decision.verdict) {
    case "outdated":
      return outdatedMessage(decision, format);
    case "unknown":
      return unknownMessage(decision, note);
    case "unpinned":
      return unpinnedMessage(decision, format);
    case "ok":
      return `${NODE} is pinned at ${decision.ref}, which is ${MINIMUM} or newer.`;
  }
}

function outdatedMessage(decision: NodeRefDecision, format: NodePinFormat): string {
  const release = decision.release && decision.release !== decision.ref ? ` (${decision.release})` : "";
  const pinned = `${NODE} is pinned at ${describeRef(decision)}${release}, older than v${NODE_COMPONENT.minimumVersion}`;
  if (decision.refKind === "version") {
    const example =
      format === "cli" ? ` (comfy node install ${NODE_COMPONENT.registryName}@${NODE_REF_TARGET.version})` : "";
    return `${pinned}: bump it to ${NODE_REF_TARGET.version} or newer${example}; V2 needs ${MINIMUM} or newer.`;
  }
  if (format === "gitmodules")
    return `${pinned}: update the submodule to ${MINIMUM} or newer and commit the new gitlink.`;
  if (format === "pyproject") return `${pinned}: this is a vendored copy; replace it with ${MINIMUM} or newer.`;
  return `${pinned}: bump it to ${MINIMUM} or newer.`;
}

function unknownMessage(decision: NodeRefDecision, note?: NodePinNote): string {
  if (note === "no-gitlink") {
    return `the ${NODE} submodule's commit could not be read from the git index: check it with \`git submodule status\` and make sure it is ${MINIMUM} or newer.`;
  }
  if (note === "unresolved-variable") {
    return `${NODE} is pinned through ${decision.ref}, whose value is not set in this file: make sure it resolves to ${MINIMUM} or newer.`;
  }
  switch (decision.doubt) {
    case "ambiguous":
      return `${NODE} is pinned at short commit ${decision.ref}, which matches several known commits: write the full SHA, then make sure it is ${MINIMUM} or newer.`;
    case "too-short":
      return `${NODE} is pinned at ${decision.ref}, too short to identify a commit: write the full SHA of ${MINIMUM} or a newer commit.`;
    case "not-a-version":
      return `${NODE} is pinned at "${decision.ref}", which is not a release version: pin ${NODE_REF_TARGET.version} or newer.`;
    default:
      return `${NODE} is pinned at ${describeRef(decision)}, which is not a known release: check that it is ${MINIMUM} or a later commit; \`${ONLINE_COMMAND}\` settles it through the GitHub compare API.`;
  }
}

function unpinnedMessage(decision: NodeRefDecision, format: NodePinFormat): string {
  const floating = decision.ref
    ? `is checked out at ${decision.ref}, which moves`
    : "is cloned without a pin, so it follows the default branch";
  switch (format) {
    case "cli":
      return `comfy node install ${NODE_COMPONENT.registryName}${decision.ref ? `@${decision.ref}` : ""} installs whatever version is current: pin ${NODE_COMPONENT.registryName}@${NODE_REF_TARGET.version} or newer.`;
    case "snapshot":
      return `the snapshot does not pin ${NODE} (hash ${decision.ref || "missing"}): set its hash to ${MINIMUM} or a later commit.`;
    case "workflow":
      return `the custom-node step does not pin ${NODE}: set its hash to ${MINIMUM} or a later commit.`;
    case "install-list":
      return `this install list clones ${NODE} without a commit, so it gets the default branch: pin ${MINIMUM} or newer where the node is installed.`;
    case "yaml":
      return `${NODE} ${floating}: pin ${MINIMUM} or a later commit.`;
    default:
      return `${NODE} ${floating}: pin ${MINIMUM} or a later commit (e.g. \`git reset --hard ${NODE_REF_TARGET.sha}\`).`;
  }
}

function describeRef(decision: NodeRefDecision): string {
  switch (decision.refKind) {
    case "sha":
      return `commit ${decision.ref}`;
    case "tag":
      return `tag ${decision.ref}`;
    case "version":
      return `version ${decision.ref}`;
    case "none":
      return decision.ref || "no ref";
  }
}
