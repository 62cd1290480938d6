/** One file's findings as the JS/TS rules report them: each once, located, with its excerpt. */
import { isDeclaredRequestUrl } from "./n8n-credentials.js";
import type { ts } from "ts-morph";
import { type Finding, type FindingInput, makeFinding } from "../../core/finding.js";
import { LineIndex } from "../../core/location.js";
import { excerptOf } from "../../core/redact.js";
import type { EndpointRequest } from "../../core/facts.js";
import type { V1Signature } from "../../core/urls.js";
import { endpointMessage, heldBaseMessage, otherHostMessage, unknownBaseMessage } from "../messages.js";
import type { HeldBase } from "../held-base.js";
import type { FileContext } from "./file-context.js";

/** Collects one file's findings, each once, with locations and excerpts. */
export class Reporter {
  readonly findings: Finding[] = [];
  private readonly lines: LineIndex;
  private readonly seen = new Set<string>();
  private readonly endpointNodes = new Set<ts.Node>();

  constructor(private readonly context: FileContext) {
    this.lines = new LineIndex(context.text);
  }

  add(node: ts.Node, input: Omit<FindingInput, "location" | "span">): void {
    this.addRange(node.getStart(this.context.sourceFile), node.getEnd(), input);
  }

  addRange(start: number, end: number, input: Omit<FindingInput, "location" | "span">): void {
    const key = `${input.ruleId}:${start}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const location = this.lines.location(start, end);
    const finding = makeFinding(this.context.file, { ...input, location, span: { start, end } });
    finding.excerpt = excerptOf(this.lines.lineText(location.line));
    this.findings.push(finding);
  }

  endpoint(
    node: ts.Node,
    endpoint: "create-run" | "get-run" | "run-ambiguous",
    methodKnown: boolean,
    request?: EndpointRequest,
    url?: ts.Node,
  ): void {
    this.endpointNodes.add(node);
    const ruleId = endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run";
    const certain = methodKnown && endpoint !== "run-ambiguous";
    const urlSpan = url && { start: url.getStart(this.context.sourceFile), end: url.getEnd() };
    this.add(node, {
      ruleId,
      message: endpointMessage(endpoint),
      ...(isDeclaredRequestUrl(url ?? node) ? { fix: "manual" as const } : certain ? {} : { fix: "review" as const }),
      facts: {
        kind: "endpoint",
        endpoint,
        methodSeen: methodKnown,
        ...(request ? { request } : {}),
        ...(urlSpan ? { url: urlSpan } : {}),
      },
    });
  }

  unknownBase(node: ts.Node, signature: V1Signature): void {
    this.endpointNodes.add(node);
    this.add(node, { ruleId: "v1-shape-unknown-base", message: unknownBaseMessage(signature) });
  }

  /** V1's signature on a base this file does not show, in a repository that sets the V1 base at `held`: left for review. */
  heldBase(
    node: ts.Node,
    signature: V1Signature,
    held: HeldBase,
    methodKnown: boolean,
    request?: EndpointRequest,
    url?: ts.Node,
  ): void {
    this.endpointNodes.add(node);
    const urlSpan = url && url !== node && { start: url.getStart(this.context.sourceFile), end: url.getEnd() };
    this.add(node, {
      ruleId: signature === "get-run" ? "legacy-get-run" : "legacy-create-run",
      message: heldBaseMessage(signature, held),
      fix: "review",
      facts: {
        kind: "endpoint",
        endpoint: signature,
        methodSeen: methodKnown,
        heldBase: held,
        ...(request ? { request } : {}),
        ...(urlSpan ? { url: urlSpan } : {}),
      },
    });
  }

  otherHost(node: ts.Node, host: string): void {
    this.endpointNodes.add(node);
    this.add(node, { ruleId: "other-host-v1-shape", message: otherHostMessage(host) });
  }

  hasEndpointAt(node: ts.Node): boolean {
    return this.endpointNodes.has(node);
  }
}
