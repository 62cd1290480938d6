/**
 * v2-endpoints for every file that is not JS/TS: Python, config (.env,
 * YAML, TOML, INI, .properties), other languages, shell, Markdown code and
 * JSON collections. Targeted text edits at the scan's findings: the vendor's
 * V1 host becomes the V2 host (path, quotes and comments untouched), a known
 * `POST {base}/run` becomes `/run/deployment/queue`, and a `run_id` query
 * written into the same string moves into the path. Everything else gets a
 * review marker in the file's comment syntax (none in JSON).
 */
import { posix } from "node:path";
import { factsOf } from "../../src/core/facts.js";
import { type Finding, spanOf } from "../../src/core/finding.js";
import { HOSTS } from "../../src/knowledge/migration.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { fileKind, fileTypeOf, isJsFile } from "../../src/platform/file-types.js";
import { TextFile } from "../../src/lang/text/text-file.js";
import { findLegacyHostMentions, parseUrlText } from "../../src/core/urls.js";
import { insertLineMarkers, type LineMarker } from "../lib/line-markers.js";
import type { FileFix, FixContext, FixEvent, SiteNote, TransformPart } from "../types.js";
import { advice, messages } from "./advice.js";
import {
  applyEdits,
  hostEditIn,
  hostRewrites,
  moveRunIdIntoPath,
  onlyVendorLegacyHosts,
  QUEUE_SUFFIX,
  type TextEdit,
} from "./urls.js";
import { findRunIdParam, findRunSegment } from "../../src/core/run-path.js";
import { goRunIdQueryEdits } from "./go-query.js";
import { afterSegment, type Segment } from "./segments.js";
import { EditPlan, minimalEdit } from "./edit-plan.js";
import { type Site, UrlSites } from "./url-sites.js";
import {
  concatenatedOperand,
  escapedInterpolation,
  escapeLanguageOf,
  interpolates,
  type SegmentEscape,
  segmentEscape,
} from "./path-escape.js";

/** The part of the transform for these files. */
export const part: TransformPart = {
  appliesTo: (file) => !isJsFile(file),
  apply: (text, context) => new TextEndpointMigration(text, context).run(),
};

const ENDPOINT_RULES: ReadonlySet<RuleId> = new Set(["legacy-create-run", "legacy-get-run"]);

class TextEndpointMigration {
  private readonly file: TextFile;
  private readonly sites: UrlSites;
  private readonly plan: EditPlan;
  private readonly markers: LineMarker[] = [];
  private readonly events: FixEvent[] = [];
  private readonly notes: SiteNote[] = [];
  /** Segments whose host stays because their /run request is left for review. */
  private readonly held: Array<[number, number]> = [];

  constructor(
    private readonly text: string,
    private readonly context: FixContext,
  ) {
    this.file = new TextFile(context.file, text, fileKind(context.file), context.hosts);
    this.sites = new UrlSites(this.file);
    this.plan = new EditPlan(this.file);
  }

  run(): FileFix {
    const findings = [...this.context.findings].sort((a, b) => a.line - b.line || a.column - b.column);
    for (const finding of findings) if (ENDPOINT_RULES.has(finding.ruleId)) this.endpoint(finding);
    for (const finding of findings) if (finding.ruleId === "legacy-base-url") this.host(finding);
    // Markers last, on lines moved by the edits above them.
    const marked = insertLineMarkers(applyEdits(this.text, this.plan.edits), this.context.file, this.markers, (line) =>
      this.plan.shiftedLine(line),
    );
    return {
      text: marked.text,
      events: [...this.events, ...marked.events].sort((a, b) => a.line - b.line),
      notes: this.notes,
    };
  }

  // ---------------------------------------------------------------- hosts

  private host(finding: Finding): void {
    const { start, end } = spanOf(finding);
    const site = this.sites.siteAt(start, end, false);
    if (!site) return;
    if (this.held.some(([s, e]) => start >= s && start < e)) {
      // Kept with its /run request, which fix left whole; JSON has no marker to say so.
      if (this.sites.json)
        this.notes.push({
          line: finding.line,
          reason: `the V1 host stays with the /run request it belongs to, which fix could not rewrite: move both to ${HOSTS.v2.apiBase}`,
        });
      return;
    }
    const url = this.text.slice(site.segment.start, Math.max(end, site.segment.start));
    const mention = findLegacyHostMentions(url, this.context.hosts)[0];
    if (mention?.start !== 0 || mention.kind === "page") return;
    const edit = hostEditIn(mention.url, this.context.hosts);
    if (!edit) return;
    if ("other" in edit) {
      this.mark(finding, start, advice.otherLegacyHost(edit.other));
      return;
    }
    const edits = [
      { start: start + edit.start, end: start + edit.end, text: edit.text },
      ...(this.sites.json?.hostPartEdits(start) ?? []),
    ];
    if (!this.plan.add(edits)) return;
    const after = applyEdits(mention.url, [edit]);
    this.rewrite(finding, messages.host(mention.url, after));
  }

  // ------------------------------------------------------------ endpoints

  private endpoint(finding: Finding): void {
    // A Python read found on the run_id entry of `params=` below its URL: the facts say where the URL is.
    const { start, end } = factsOf(finding, "endpoint")?.url ?? spanOf(finding);
    const create = finding.ruleId === "legacy-create-run";
    // A base the scan could not resolve: fix cannot know it, so neither host nor path is rewritten.
    const heldBase = factsOf(finding, "endpoint")?.heldBase;
    const held = heldBase && advice.heldBase(create ? "create" : "get", heldBase);
    const site = this.sites.literalSite(finding) ?? this.sites.siteAt(start, end, true);
    if (!site) {
      // Python: a URL held in a name (`requests.post(RUN_URL, ...)`); the string is elsewhere.
      if (this.sites.python?.isCodeAt(start)) this.mark(finding, start, held ?? this.unseenAdvice(finding));
      return;
    }
    const { segment } = site;
    const url = this.text.slice(segment.start, segment.end);
    const problem = held ?? this.baseProblem(url) ?? (create ? this.createProblem(finding, site) : undefined);
    const done = problem === undefined && (create ? this.create(finding, site, url) : this.get(finding, site, url));
    if (done) return;
    this.held.push([segment.start, segment.end]);
    // Above the finding's own line: a run_id set on another line than the URL carries it.
    this.mark(finding, start, problem ?? (create ? this.createAdvice(url) : this.getAdvice(site, url)));
  }

  /** The URL at a site up to its `/run` as written, when nothing follows but the string's end, and its V2 create URL. */
  private runPathIn(site: Site): { from: string; to: string } | undefined {
    const url = this.text.slice(site.segment.start, site.segment.end);
    const run = findRunSegment(url);
    return run && run.queryStart === undefined && url.length === run.end ? this.createUrl(url) : undefined;
  }

  /** A V1 create URL and what it becomes: the V2 host for the vendor's V1 host, the queue path. */
  private createUrl(url: string): { from: string; to: string } {
    return { from: url, to: applyEdits(url, hostRewrites(url, this.context.hosts).edits) + QUEUE_SUFFIX };
  }

  /** What to make the URL of a create fix could not rewrite, as written here. */
  private createAdvice(url: string): string {
    const run = findRunSegment(url);
    return run && run.queryStart === undefined
      ? advice.createPathAt(this.createUrl(url.slice(0, run.end)))
      : advice.createNotRewritable();
  }

  /** What to make the URL of a read fix could not rewrite: its path, and its id as written here (in the query or after the string), escaped. */
  private getAdvice(site: Site, url: string): string {
    const run = findRunSegment(url);
    if (!run || run.queryStart === undefined) return advice.getNotRewritable();
    const query = findRunIdParam(url, run.queryStart);
    if (!query) return advice.getNotRewritable();
    let id = url.slice(query.valueStart, query.valueEnd);
    let idEscape = segmentEscape(this.context.file, this.text, site.segment.quote, true);
    if (id === "") {
      const after = afterSegment(this.file, site.segment);
      idEscape = segmentEscape(this.context.file, this.text, site.segment.quote, false);
      const operand = idEscape && concatenatedOperand(after, idEscape.language);
      if (!operand) return advice.getNotRewritable();
      id = after.slice(operand.start, operand.end);
    }
    return advice.getPathAt(
      url.slice(0, run.end),
      id,
      idEscape && /^[$\w.>-]+$/.test(id) ? idEscape.wrap(id) : undefined,
    );
  }

  private unseenAdvice(finding: Finding): string {
    if (finding.ruleId === "legacy-get-run") return advice.getNotRewritable();
    if (finding.fix === "auto") return advice.createBuiltElsewhere();
    return methodKnown(finding) ? advice.createUnproven() : advice.methodUnknown();
  }

  private createProblem(finding: Finding, site: Site): string | undefined {
    if (finding.fix !== "auto")
      return methodKnown(finding) ? advice.createUnproven(this.runPathIn(site)) : advice.methodUnknown();
    const fields = this.sites.bodyFields(site);
    return fields.length > 0 ? advice.v1OnlyFields(fields) : undefined;
  }

  private create(finding: Finding, site: Site, url: string): boolean {
    const run = findRunSegment(url);
    if (!run || (run.queryStart !== undefined && findRunIdParam(url, run.queryStart))) return false;
    const at = site.segment.start + run.end;
    const edits = [
      { start: at, end: run.trailingSlash ? at + 1 : at, text: QUEUE_SUFFIX },
      ...(this.sites.json?.createPathEdits(site.segment.start) ?? []),
    ];
    if (!this.plan.add(edits)) return false;
    this.rewrite(finding, messages.create());
    return true;
  }

  private get(finding: Finding, site: Site, url: string): boolean {
    const { segment } = site;
    const run = findRunSegment(url);
    if (!run) return false;
    const escapeIn = (inside: boolean): SegmentEscape | undefined =>
      this.sites.json || this.sites.markdown
        ? undefined
        : segmentEscape(this.context.file, this.text, segment.quote, inside);
    const idEscape = escapeIn(true);
    let edits: TextEdit[] | undefined;
    let escaped = false; // the id moved into the path is escaped there (Go's q.Set shape escapes it itself)
    if (run.queryStart !== undefined) {
      const inPath = idEscape && this.escapedIdUrl(site, url, run.queryStart, idEscape);
      const moved = moveRunIdIntoPath(inPath ?? url);
      if (moved !== undefined) {
        escaped = inPath !== undefined;
        edits = [this.urlEdit(url, moved, segment), ...(this.sites.json?.getPathEdits(segment.start) ?? [])];
      } else if (this.endsAtRunIdValue(site, url, run.queryStart)) {
        // `"/run?run_id=" + id`: the id follows the string.
        edits = [{ start: segment.start + run.queryStart, end: segment.end, text: run.trailingSlash ? "" : "/" }];
        const after = escapeIn(false);
        const operand = after && this.escapedOperand(site, after);
        if (operand) edits.push(operand);
        escaped = operand !== undefined;
      }
    } else if (site.pyIndex !== undefined) {
      edits = this.sites.python!.paramsRunIdEdits(site.pyIndex, segment, idEscape?.wrap);
      escaped = idEscape !== undefined;
    } else if (posix.extname(this.context.file) === ".go" && factsOf(finding, "endpoint")?.runLiteral) {
      // `q.Set("run_id", id)` on a later line: the finding is there, the URL's literal is in the facts.
      edits = goRunIdQueryEdits(this.text, spanOf(finding).start, segment);
      escaped = true;
    }
    if (!edits) return false;
    if (escaped && idEscape) edits.push(...idEscape.imports);
    if (!this.plan.add(edits)) return false;
    this.rewrite(finding, this.unescapedNote(escaped, idEscape) ?? messages.get());
    return true;
  }

  /** Why the rewritten read puts its id into the path unescaped, in code where that matters. */
  private unescapedNote(escaped: boolean, idEscape: SegmentEscape | undefined): string | undefined {
    if (escaped) return undefined;
    if (fileTypeOf(this.context.file).language === "shell") return messages.getUnescaped("shell has no call for it");
    if (idEscape || escapeLanguageOf(this.context.file)) return messages.getUnescaped("fix could not wrap it here");
    return undefined;
  }

  /**
   * The URL with its run_id value escaped where it is written into the same
   * string (`?run_id=#{id}` -> `?run_id=#{ERB::Util.url_encode(id)}`), ready
   * to move into the path; undefined when the value is not one interpolation.
   */
  private escapedIdUrl(site: Site, url: string, queryStart: number, idEscape: SegmentEscape): string | undefined {
    const query = findRunIdParam(url, queryStart);
    if (
      !query ||
      !(site.pyIndex !== undefined
        ? site.segment.interpolates === true
        : interpolates(this.text, site.segment, idEscape.language))
    )
      return undefined;
    const value = escapedInterpolation(url.slice(query.valueStart, query.valueEnd), idEscape, site.segment.quote);
    return value === undefined ? undefined : url.slice(0, query.valueStart) + value + url.slice(query.valueEnd);
  }

  /** The URL edit; a PHP string closed to concatenate the escaped id loses its now empty tail (`. ""`). */
  private urlEdit(url: string, moved: string, segment: Segment): TextEdit {
    const emptyTail = ` . ${segment.quote}`;
    if (segment.quote === '"' && moved.endsWith(emptyTail) && this.text[segment.end] === segment.quote) {
      return minimalEdit(url + segment.quote, moved.slice(0, -emptyTail.length), segment.start);
    }
    return minimalEdit(url, moved, segment.start);
  }

  /** The edit escaping the id concatenated after the string (`'/run/' . $id` -> `'/run/' . rawurlencode($id)`). */
  private escapedOperand(site: Site, idEscape: SegmentEscape): TextEdit | undefined {
    const after = afterSegment(this.file, site.segment);
    const operand = concatenatedOperand(after, idEscape.language);
    if (!operand) return undefined;
    const at = site.segment.end + site.segment.quote.length;
    return {
      start: at + operand.start,
      end: at + operand.end,
      text: idEscape.wrap(after.slice(operand.start, operand.end)),
    };
  }

  /**
   * The string ends right after `run_id=` as its first query parameter and
   * is concatenated with what follows (`+`, or `.` in PHP), with no further
   * literal query after the value.
   */
  private endsAtRunIdValue(site: Site, url: string, queryStart: number): boolean {
    const query = findRunIdParam(url, queryStart);
    if (query?.before !== "" || query.valueStart !== url.length || site.segment.quote === "") return false;
    if (site.pyIndex !== undefined && this.sites.python!.nextOp(site.pyIndex) !== "+") return false;
    const after = afterSegment(this.file, site.segment);
    if (site.pyIndex === undefined && !/^\s*[+.]\s*[\w$]/.test(after)) return false;
    // A query written after the id (`+ "&x=1"`) would lose its `?`.
    return !/[+.]\s*[rRuUfF]?["'`][&#?]/.test(after);
  }

  // -------------------------------------------------------------- helpers

  /** Why the URL's base cannot be taken for the vendor's V1 API, if it cannot. */
  private baseProblem(url: string): string | undefined {
    const info = parseUrlText(url, this.context.hosts);
    if (info.hostKind === "legacy") return info.host === HOSTS.v1.host ? undefined : advice.otherLegacyHost(info.host!);
    // V1 paths on the V2 host: the host is right already, only the path moves.
    if (info.hostKind === "current") return undefined;
    if (info.hostKind === "relative" || info.hostKind === "unknown") {
      // The base is a placeholder or variable the scan resolved elsewhere in the file.
      return onlyVendorLegacyHosts(this.context.hosts) ? undefined : advice.baseNotVendor();
    }
    return advice.baseNotVendor();
  }

  private mark(finding: Finding, offset: number, text: string): void {
    // JSON holds no comments: fix says what it left there in its summary instead.
    if (this.sites.json) {
      this.notes.push({ line: finding.line, reason: text });
      return;
    }
    const line = this.sites.markerLine(offset);
    if (this.markers.some((m) => m.line === line && m.ruleId === finding.ruleId)) return;
    this.markers.push({ line, ruleId: finding.ruleId, advice: text, findingLine: finding.line });
  }

  private rewrite(finding: Finding, message: string): void {
    this.events.push({ kind: "rewrite", ruleId: finding.ruleId, line: finding.line, message });
  }
}

/** A create-run left for review although its POST was seen: its `/run` is apart from the base, or named for it. */
function methodKnown(finding: Finding): boolean {
  return factsOf(finding, "endpoint")?.methodSeen === true;
}
