/**
 * v2-endpoints for JS/TS: raw HTTP use of the V1 API moved to V2. The V1 host
 * becomes the V2 host, `POST {base}/run` becomes `/run/deployment/queue`, and
 * `GET {base}/run?run_id=<id>` becomes `/run/<id>` (from the URL text, an
 * axios/ky/got/undici query option, or `url.searchParams.set`). Request
 * bodies keep their snake_case keys. Where the method, the base or the body
 * leaves doubt, a review marker says what to do instead.
 *
 * The scan's findings say where to look; the code there decides what to do.
 */
import type { API, ASTPath, Collection, FileInfo, JSCodeshift } from "jscodeshift";
import { advice, messages } from "./advice.js";
import { applyEdits, hostRewrites, onlyVendorLegacyHosts, QUEUE_SUFFIX, type TextEdit, v1OnlyFields } from "./urls.js";
import { findRunIdParam, findRunSegment } from "../../src/core/run-path.js";
import type { MigrationOptions } from "../lib/jscodeshift-part.js";
import type { Finding } from "../../src/core/finding.js";
import { factsOf } from "../../src/core/facts.js";
import { HOSTS } from "../../src/knowledge/migration.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { HOLE, parseUrlText } from "../../src/core/urls.js";
import { addMarker } from "../lib/markers.js";
import { preferredQuote } from "../lib/source-style.js";
import { boundBefore, isMovable } from "./movable.js";
import { SpanIndex, startOf, unwrapPath } from "../lib/span-index.js";
import { appendPathSegment, detached, editStringPart } from "./part-edits.js";
import { Removals } from "./removals.js";
import {
  bodyKeysOf,
  letBindingOf,
  propertiesOf,
  queryRunIdOf,
  requestShapeOf,
  searchParamsOwnerOf,
  searchParamsRunIdOf,
} from "./request-shape.js";
import { type ConstBinding, type FlatUrl, flattenUrl, type UrlPart, usesOf } from "./url-parts.js";

type Node = { type: string; [key: string]: unknown };
/** A marker may hold the host of the literal with the request's run path: a V1 request stays whole until someone fixes it. */
type Outcome = { kind: "rewrite"; message: string } | { kind: "marker"; advice: string; hold?: TextPart };
type TextPart = Extract<UrlPart, { kind: "text" }>;

const ENDPOINT_RULES: ReadonlySet<RuleId> = new Set(["legacy-create-run", "legacy-get-run"]);

export default function transform(file: FileInfo, api: API, options: MigrationOptions): string {
  const relevant = (options.findings ?? []).filter(
    (f) => f.ruleId === "legacy-base-url" || ENDPOINT_RULES.has(f.ruleId),
  );
  const findings = relevant;
  if (findings.length === 0) return file.source;
  const j = api.jscodeshift;
  let root: Collection;
  try {
    root = j(file.source);
  } catch {
    return file.source;
  }
  const migration = new EndpointMigration(j, root, file.source, options, findings);
  return migration.run();
}

class EndpointMigration {
  private readonly index: SpanIndex;
  private readonly all: ASTPath[];
  private readonly quote: "single" | "double";
  private readonly removals: Removals;
  /** Planned value edits per string part. */
  private readonly partEdits = new Map<ASTPath["node"], { path: ASTPath; edits: TextEdit[] }>();
  private readonly actions: Array<() => void> = [];
  /** String parts whose host stays because their /run request gets a marker instead of a rewrite. */
  private readonly held = new Set<ASTPath["node"]>();
  private changed = false;

  constructor(
    private readonly j: JSCodeshift,
    private readonly root: Collection,
    private readonly source: string,
    private readonly options: MigrationOptions,
    private readonly findings: readonly Finding[],
  ) {
    this.index = new SpanIndex(j, root, source);
    this.all = [...this.index.paths];
    this.quote = preferredQuote(source);
    this.removals = new Removals(source);
  }

  run(): string {
    const ordered = [...this.findings].sort((a, b) => a.line - b.line || a.column - b.column);
    // Endpoints first: a request that is only marked keeps the host in its own URL literal.
    for (const finding of ordered.filter((f) => ENDPOINT_RULES.has(f.ruleId))) this.endpoint(finding);
    for (const finding of ordered.filter((f) => f.ruleId === "legacy-base-url")) this.host(finding);
    if (!this.changed && this.partEdits.size === 0 && this.actions.length === 0) return this.source;
    for (const { path, edits } of this.partEdits.values()) editStringPart(path, edits);
    for (const action of this.actions) action();
    const printed = this.root.toSource({ quote: this.quote });
    return this.removals.cleanUp(printed);
  }

  private report(kind: "rewrite" | "marker", ruleId: RuleId, line: number, message: string): void {
    this.options.report?.({ kind, ruleId, line, message });
  }

  private mark(path: ASTPath, finding: Finding, text: string): void {
    if (!addMarker(this.j, path, finding.ruleId, text)) return;
    this.changed = true;
    this.report("marker", finding.ruleId, finding.line, text);
  }

  // ---------------------------------------------------------------- hosts

  private host(finding: Finding): void {
    const part = this.index.stringPartAt(finding);
    // A mention outside string literals (a comment, JSX text) is documentation: left alone.
    if (!part || this.held.has(part.node)) return;
    const value = partValue(part);
    const found = hostRewrites(value, this.options.hosts);
    for (const host of found.otherHosts) this.mark(part, finding, advice.otherLegacyHost(host));
    if (found.edits.length === 0) return;
    if (!this.addEdits(found.edits.map((edit) => ({ path: part, edit })))) return;
    const after = applyEdits(value, found.edits);
    this.report("rewrite", "legacy-base-url", finding.line, messages.host(value, after));
  }

  // ------------------------------------------------------------ endpoints

  private endpoint(finding: Finding): void {
    // A read found on the run_id entry of a query option below its URL: the facts say where the URL is.
    const urlSpan = factsOf(finding, "endpoint")?.url;
    const at = this.index.expressionAt(urlSpan ? { ...finding, span: urlSpan } : finding);
    if (!at) return;
    // A status request whose run_id a later line adds to its URL object is found on that line: the URL is the object.
    const url = searchParamsOwnerOf(at) ?? at;
    const held = factsOf(finding, "endpoint")?.heldBase;
    const create = finding.ruleId === "legacy-create-run";
    const outcome: Outcome = held
      ? { kind: "marker", advice: advice.heldBase(create ? "create" : "get", held) }
      : create
        ? this.create(finding, url)
        : this.get(finding, url);
    if (outcome.kind === "rewrite") {
      this.report("rewrite", finding.ruleId, finding.line, outcome.message);
      return;
    }
    const holds = !!outcome.hold && this.servesOnlyThis(outcome.hold);
    if (holds) this.held.add(outcome.hold!.path.node);
    const site = holds ? url : this.pathSite(url);
    const text =
      site !== url && outcome.advice === advice.createBuiltElsewhere() ? advice.createPathHere() : outcome.advice;
    this.mark(site, finding, text);
  }

  /**
   * Where a marked request's V1 path is written: the statement that builds
   * it in a constant, when the URL reaches the request through one. Once its
   * host is V2, the scan reports the path there, so the marker stands where
   * the work is and a second run finds it in place.
   */
  private pathSite(url: ASTPath): ASTPath {
    const run = this.runPart(flattenUrl(url));
    if (run) return run.part.via.length > 0 ? run.part.path : url;
    // A variable assigned again: the path is where it starts.
    const bare = unwrapPath(url);
    const declarator = (bare.node as Node).type === "Identifier" ? letBindingOf(bare) : undefined;
    const init = declarator?.get("init") as ASTPath | undefined;
    const initial = init?.node ? this.runPart(flattenUrl(init)) : undefined;
    return initial?.part.path ?? url;
  }

  private create(finding: Finding, url: ASTPath): Outcome {
    const flat = flattenUrl(url);
    const run = this.runPart(flat);
    const hold = run?.part;
    if (finding.fix !== "auto") return { kind: "marker", advice: advice.methodUnknown(), ...(hold ? { hold } : {}) };
    const base = this.baseProblem(flat);
    if (base) return { kind: "marker", advice: base, ...(hold ? { hold } : {}) };
    // The body keys the scan read (through names and other modules); a finding without a request call falls back to the literal here.
    const bodyKeys = factsOf(finding, "endpoint")?.request?.bodyKeys ?? bodyKeysOf(requestShapeOf(url)) ?? [];
    const fields = v1OnlyFields(bodyKeys);
    if (fields.length > 0) return { kind: "marker", advice: advice.v1OnlyFields(fields), ...(hold ? { hold } : {}) };
    if (!run || !this.editableThrough(run.part.via, finding.ruleId))
      return { kind: "marker", advice: advice.createBuiltElsewhere() };
    const { part, path } = run;
    const at = path.end - part.from;
    // `/run/` loses its trailing slash: `/run/deployment/queue`.
    const end = path.trailingSlash && path.end + 1 <= part.to ? at + 1 : at;
    if (!this.addEdits([{ path: part.path, edit: { start: at, end, text: QUEUE_SUFFIX } }])) {
      return { kind: "marker", advice: advice.createNotRewritable(), hold: part };
    }
    return { kind: "rewrite", message: messages.create() };
  }

  private get(finding: Finding, url: ASTPath): Outcome {
    const flat = flattenUrl(url);
    const run = this.runPart(flat);
    const hold = run?.part;
    const notRewritable: Outcome = { kind: "marker", advice: advice.getNotRewritable(), ...(hold ? { hold } : {}) };
    const base = this.baseProblem(flat);
    if (base) return { kind: "marker", advice: base, ...(hold ? { hold } : {}) };
    if (!run) return notRewritable;
    // 1. The run_id written into the URL text.
    if (run.path.queryStart !== undefined) {
      return this.getFromUrlText(finding, flat, run.path.queryStart, run.path.trailingSlash) ?? notRewritable;
    }
    const endsWithRun = flat.text.length === run.path.end + (run.path.trailingSlash ? 1 : 0);
    if (!endsWithRun) return notRewritable;
    // 2. A query option of the request: axios params, ky/got searchParams, undici query.
    const shape = requestShapeOf(url);
    const query = queryRunIdOf(shape);
    if (query === "opaque") return notRewritable;
    if (query) {
      if (!isMovable(query.value.node as Node)) return notRewritable;
      const value = detached(query.value.node as Node);
      const remaining = propertiesOf(query.object).length - 1;
      const optionCount = shape.options ? propertiesOf(shape.options).length : 0;
      this.actions.push(() => {
        appendPathSegment(this.j, url, value, !run.path.trailingSlash, this.quote);
        if (remaining > 0) this.removals.property(this.j, query.entry);
        else if (optionCount > 1 || !shape.call || !isArgument(shape.options!, shape.call))
          this.removals.property(this.j, query.option);
        else this.removals.argument(this.j, argumentPathOf(shape.options!, shape.call));
      });
      return { kind: "rewrite", message: messages.get() };
    }
    // 3. `const url = new URL(...)` with `url.searchParams.set("run_id", id)` next to it.
    const mutation = searchParamsRunIdOf(url, this.all);
    if (mutation === "opaque" || !mutation) return notRewritable;
    const input = mutation.construction.get("arguments", 0) as ASTPath;
    const inputFlat = flattenUrl(input);
    const inputRun = findRunSegment(inputFlat.text);
    const inputEnds =
      inputRun &&
      inputRun.queryStart === undefined &&
      inputFlat.text.length === inputRun.end + (inputRun.trailingSlash ? 1 : 0);
    const value = detached(mutation.value.node as Node);
    if (!inputEnds || !isMovable(value) || !boundBefore(mutation.value, startOf(mutation.construction.node)))
      return notRewritable;
    this.actions.push(() => {
      appendPathSegment(this.j, input, value, !inputRun.trailingSlash, this.quote);
      mutation.statement.prune();
    });
    return { kind: "rewrite", message: messages.get() };
  }

  /** `?run_id=<v>&x=1` -> `/<v>?x=1`, edited in the string parts that hold it. */
  private getFromUrlText(
    finding: Finding,
    flat: FlatUrl,
    queryStart: number,
    trailingSlash: boolean,
  ): Outcome | undefined {
    const query = findRunIdParam(flat.text, queryStart);
    if (!query || query.valueEnd === query.valueStart || query.before.includes(HOLE)) return undefined;
    const edits: Array<{ path: ASTPath; edit: TextEdit }> = [];
    const replace = (from: number, to: number, text: string): boolean => {
      const part = flat.parts.find(
        (p) => p.kind === "text" && p.from <= from && to <= p.to && (from < p.to || from === to),
      );
      if (part?.kind !== "text") return false;
      if (!this.editableThrough(part.via, finding.ruleId)) return false;
      edits.push({ path: part.path, edit: { start: from - part.from, end: to - part.from, text } });
      return true;
    };
    const insert = (at: number, text: string): boolean => {
      // Prefer the text part starting at `at` (the one after a hole), else the one ending there.
      const part =
        flat.parts.find((p) => p.kind === "text" && p.from === at && p.to >= at) ??
        flat.parts.find((p) => p.kind === "text" && p.from < at && at <= p.to);
      if (part?.kind !== "text" || !this.editableThrough(part.via, finding.ruleId)) return false;
      edits.push({ path: part.path, edit: { start: at - part.from, end: at - part.from, text } });
      return true;
    };
    const ok =
      replace(query.queryStart, query.valueStart, trailingSlash ? "" : "/") &&
      (query.before !== ""
        ? insert(query.valueEnd, `?${query.before}`)
        : !query.after.startsWith("&") || replace(query.valueEnd, query.valueEnd + 1, "?"));
    if (!ok || !this.addEdits(edits)) return undefined;
    return { kind: "rewrite", message: messages.get() };
  }

  // -------------------------------------------------------------- helpers

  /** The literal is this request's own: written in its URL, or in constants used nowhere else. */
  private servesOnlyThis(part: TextPart): boolean {
    return part.via.every((binding) => (usesOf(binding, this.all)?.length ?? 2) <= 1);
  }

  /** The text part holding `run` of the URL's run path, with that path. */
  private runPart(flat: FlatUrl): { part: TextPart; path: NonNullable<ReturnType<typeof findRunSegment>> } | undefined {
    const path = findRunSegment(flat.text);
    if (!path) return undefined;
    const part = flat.parts.find((p) => p.kind === "text" && p.from <= path.start && path.end <= p.to);
    return part && part.kind === "text" ? { part, path } : undefined;
  }

  /** Why the URL's base cannot be taken for the vendor's V1 API, if it cannot. */
  private baseProblem(flat: FlatUrl): string | undefined {
    const info = parseUrlText(flat.text, this.options.hosts);
    if (info.hostKind === "legacy") return info.host === HOSTS.v1.host ? undefined : advice.otherLegacyHost(info.host!);
    // V1 paths on the V2 host: the host is right already, only the path moves.
    if (info.hostKind === "current") return undefined;
    if (info.hostKind === "unknown" || info.hostKind === "relative") {
      // The scan saw a legacy base this file does not show (an import, a client's baseURL).
      return onlyVendorLegacyHosts(this.options.hosts) ? undefined : advice.baseNotVendor();
    }
    return advice.baseNotVendor();
  }

  /**
   * A part reached through constants may be edited when each constant is
   * used once, or only by requests the scan reported the same way and by
   * code that only shows the URL (a log line, an error message), which then
   * shows the V2 URL.
   */
  private editableThrough(via: readonly ConstBinding[], ruleId: RuleId): boolean {
    for (const binding of via) {
      const uses = usesOf(binding, this.all);
      if (!uses) return false;
      if (uses.length <= 1) continue;
      const covered = uses.every((use) => {
        const at = this.findings.filter((f) => {
          const [start, end] = this.index.rangeOf(f);
          return start <= startOf(use.node) && startOf(use.node) < end;
        });
        if (at.length > 0) return at.every((f) => f.ruleId === ruleId && f.fix === "auto");
        return onlyShows(use);
      });
      if (!covered) return false;
    }
    return true;
  }

  /** Adds edits unless one overlaps an edit already planned differently; the same edit twice counts once. */
  private addEdits(edits: ReadonlyArray<{ path: ASTPath; edit: TextEdit }>): boolean {
    for (const { path, edit } of edits) {
      const planned = this.partEdits.get(path.node)?.edits ?? [];
      for (const other of planned) {
        const same = other.start === edit.start && other.end === edit.end && other.text === edit.text;
        const overlaps = edit.start < other.end && other.start < edit.end;
        const samePoint = edit.start === edit.end && other.start === other.end && edit.start === other.start;
        if (!same && (overlaps || samePoint)) return false;
      }
    }
    for (const { path, edit } of edits) {
      const entry = this.partEdits.get(path.node) ?? { path, edits: [] };
      if (!entry.edits.some((e) => e.start === edit.start && e.end === edit.end && e.text === edit.text))
        entry.edits.push(edit);
      this.partEdits.set(path.node, entry);
    }
    return true;
  }
}

/**
 * The value only reaches a person: an argument of a `console` method or of
 * `new …Error(…)`, itself or inside a message built around it.
 */
function onlyShows(use: ASTPath): boolean {
  let path = use;
  let parent = path.parent as ASTPath | undefined;
  const message = new Set(["TemplateLiteral", "ParenthesizedExpression", "TSAsExpression", "TSNonNullExpression"]);
  while (
    parent &&
    (message.has((parent.node as Node).type) ||
      ((parent.node as Node).type === "BinaryExpression" && (parent.node as Node).operator === "+"))
  ) {
    path = parent;
    parent = path.parent as ASTPath | undefined;
  }
  const call = parent?.node as Node | undefined;
  if (!call || !((call.arguments as Node[] | undefined) ?? []).includes(path.node as Node)) return false;
  const callee = call.callee as Node;
  if (call.type === "NewExpression") return callee.type === "Identifier" && /Error$/.test(callee.name as string);
  if (call.type !== "CallExpression" || callee.type !== "MemberExpression") return false;
  return (callee.object as Node).type === "Identifier" && (callee.object as Node).name === "console";
}

function partValue(path: ASTPath): string {
  const node = path.node as Node;
  if (node.type === "TemplateElement") {
    const value = node.value as { raw: string; cooked?: string | null };
    return value.cooked ?? value.raw;
  }
  return node.value as string;
}

function isArgument(object: ASTPath, call: ASTPath): boolean {
  return ((call.node as Node).arguments as Node[]).some(
    (arg) => arg === object.node || (arg as Node).expression === object.node,
  );
}

function argumentPathOf(object: ASTPath, call: ASTPath): ASTPath {
  const args = (call.node as Node).arguments as Node[];
  const index = args.findIndex((arg) => arg === object.node || (arg as Node).expression === object.node);
  return call.get("arguments", index) as ASTPath;
}
