/**
 * node-pin: outdated pins of the ComfyUI node move to the target release.
 *
 * An outdated commit becomes the target's full commit, an outdated tag its
 * tag, an outdated registry version its version: a text edit of the exact
 * ref on the finding's line (Dockerfiles, shell, YAML, snapshots and
 * workflow JSON, CLI installs), so formatting stays. Submodules and vendored
 * copies, pins that cannot be judged or are missing, and the prebuilt worker
 * image get a review marker where the file has comments (never in JSON).
 */
import { posix } from "node:path";
import { factsOf } from "../../src/core/facts.js";
import type { Finding } from "../../src/core/finding.js";
import { NODE_COMPONENT, WORKER_IMAGE, WORKER_IMAGE_STATUS } from "../../src/knowledge/migration.js";
import { markerSyntaxFor } from "../../src/platform/file-types.js";
import { pinFileKind } from "../../src/lang/node-pin/files.js";
import { insertLineMarkers, type LineMarker } from "../lib/line-markers.js";
import type { FileFix, FixContext, FixEvent, NodeRefTarget, SiteNote, TransformPart } from "../types.js";

const NODE = NODE_COMPONENT.repository;

/** The part of the transform for these files. */
export const part: TransformPart = {
  // JS/TS files too: a script that writes a Dockerfile keeps the pin in a constant, edited like any other ref.
  appliesTo: (file) => pinFileKind(file) !== undefined || markerSyntaxFor(file) !== undefined,
  apply: (text, context) => new NodePinMigration(text, context).run(),
};

class NodePinMigration {
  private readonly lines: string[];
  private readonly events: FixEvent[] = [];
  private readonly markers: LineMarker[] = [];
  private readonly notes: SiteNote[] = [];
  private readonly target: NodeRefTarget;

  constructor(
    private readonly text: string,
    private readonly context: FixContext,
  ) {
    this.lines = text.split("\n");
    this.target = context.nodeRef;
  }

  run(): FileFix {
    const findings = this.context.findings
      .filter((f) => f.ruleId === "node-component-pin" || f.ruleId === "worker-image")
      .sort((a, b) => a.line - b.line || a.column - b.column);
    if (findings.length === 0) return { text: this.text, events: [] };
    for (const finding of findings) {
      if (finding.ruleId === "worker-image") this.workerImage(finding);
      else this.pin(finding);
    }
    // Line edits keep the line count, so markers go in last, bottom up.
    const marked = insertLineMarkers(this.lines.join("\n"), this.context.file, this.markers);
    return {
      text: marked.text,
      events: [...this.events, ...marked.events].sort((a, b) => a.line - b.line),
      notes: this.notes,
    };
  }

  private pin(finding: Finding): void {
    const data = factsOf(finding, "node-pin");
    if (!data) return;
    const pinTo = `${this.target.tag} (${this.target.commit})`;
    if (data.verdict !== "outdated") {
      // Never guess: a person checks what the pin resolves to.
      const what =
        data.verdict === "unknown"
          ? `check ${data.ref ? `"${data.ref}"` : "this pin"} and make sure it is`
          : "pin it at";
      this.mark(
        finding,
        `${NODE} ${data.verdict === "unknown" ? "pin cannot be judged" : "is not pinned"}: ${what} ${pinTo} or newer.`,
      );
      return;
    }
    if (data.format === "gitmodules") {
      const path = this.submodulePath(finding.line);
      this.mark(
        finding,
        `update the ${NODE} submodule: \`git -C ${path ?? "<submodule path>"} checkout ${this.target.commit}\` (${this.target.tag}), then commit the new gitlink.`,
      );
      return;
    }
    if (data.format === "pyproject") {
      this.mark(finding, `this is a vendored copy of ${NODE}: replace it with ${pinTo} or newer.`);
      return;
    }
    const replacement = this.replacementFor(data.refKind);
    const ref = data.ref;
    if (!replacement || ref === "" || replacement === ref) return;
    const index = finding.line - 1;
    const line = this.lines[index];
    if (line === undefined) return;
    let edited = replaceRef(line, ref, replacement, finding.line === finding.endLine ? finding.column - 1 : -1);
    if (edited === undefined) return;
    if (data.refKind === "sha" && (data.format === "snapshot" || data.format === "workflow")) {
      // A commit_url on the same line names the same commit.
      edited = edited.split(`/commit/${ref}`).join(`/commit/${replacement}`);
    }
    this.lines[index] = edited;
    this.events.push({
      kind: "rewrite",
      ruleId: finding.ruleId,
      line: finding.line,
      message: `${NODE} pin ${ref} → ${replacement}${replacement === this.target.tag ? "" : ` (${this.target.tag})`}, the node release V2 needs (v${NODE_COMPONENT.minimumVersion} or newer).`,
    });
  }

  private replacementFor(refKind: string | undefined): string | undefined {
    switch (refKind) {
      case "sha":
        return this.target.commit;
      case "tag":
        return this.target.tag;
      case "version":
        return this.target.version;
      default:
        return undefined;
    }
  }

  private workerImage(finding: Finding): void {
    const rebuild = `or rebuild the image with ${NODE} at ${this.target.tag} (${this.target.commit}) or newer`;
    const maintained = WORKER_IMAGE_STATUS.activelyMaintained
      ? ""
      : ` (the prebuilt image is not actively maintained; its source is ${WORKER_IMAGE_STATUS.sourceRepository})`;
    this.mark(finding, `use ${WORKER_IMAGE.image}:${WORKER_IMAGE.firstReadyTag} or newer, ${rebuild}${maintained}.`);
  }

  /** The `path = ...` of the .gitmodules section holding a line. */
  private submodulePath(line: number): string | undefined {
    let start = line - 1;
    while (start > 0 && !/^\s*\[/.test(this.lines[start]!)) start--;
    for (let i = start + 1; i < this.lines.length && !/^\s*\[/.test(this.lines[i]!); i++) {
      const path = /^\s*path\s*=\s*(.+?)\s*$/.exec(this.lines[i]!);
      if (path) return path[1];
    }
    return undefined;
  }

  private mark(finding: Finding, advice: string): void {
    // JSON holds no comments: fix says what it left there in its summary instead.
    if (!markerSyntaxFor(this.context.file) || posix.extname(this.context.file).toLowerCase() === ".json") {
      this.notes.push({ line: finding.line, reason: advice });
      return;
    }
    if (this.markers.some((m) => m.line === finding.line && m.ruleId === finding.ruleId)) return;
    this.markers.push({
      line: statementLine(this.lines, finding.line),
      ruleId: finding.ruleId,
      advice,
      findingLine: finding.line,
    });
  }
}

/**
 * The ref at `column` when it is there as a whole token, else its first
 * whole-token occurrence on the line.
 */
function replaceRef(line: string, ref: string, replacement: string, column: number): string | undefined {
  const whole = (at: number): boolean => {
    const before = line[at - 1];
    const after = line[at + ref.length];
    return (
      (before === undefined || !/[\w.]/.test(before)) &&
      (after === undefined || (!/[\w]/.test(after) && !(after === "." && /\d/.test(line[at + ref.length + 1] ?? ""))))
    );
  };
  let at = column >= 0 && line.startsWith(ref, column) && whole(column) ? column : -1;
  for (let i = line.indexOf(ref); at < 0 && i >= 0; i = line.indexOf(ref, i + 1)) if (whole(i)) at = i;
  if (at < 0) return undefined;
  return line.slice(0, at) + replacement + line.slice(at + ref.length);
}

/** The first line of a command continued with `\` that a line belongs to, where a marker can stand. */
function statementLine(lines: readonly string[], line: number): number {
  let index = line - 1;
  while (index > 0 && /\\\s*$/.test(lines[index - 1]!)) index--;
  return index + 1;
}
