/**
 * The generic text scan: every file that is not JS/TS and that no
 * specialised scanner covers (Go, C#, Java, Kotlin, PHP, Rust, shell, docs,
 * YAML, TOML, INI, .env, .properties, CI workflows, API collections).
 *
 * It reports the legacy host, the V1 run endpoints on it (HTTP method from
 * the statement or request object), the V1 `/run` path and `run_id` query
 * built apart from a V1 base held in the file or repository (`env-bases.ts`),
 * and V1-shaped endpoints on other hosts. Comments and docs are warnings,
 * code and config errors; the vendor's web page links are skipped.
 */
import type { Finding } from "../../../core/finding.js";
import { ENDPOINTS } from "../../../knowledge/migration.js";
import type { FixClass } from "../../../rules/catalog.js";
import { type FileKind, isJsFile } from "../../../platform/file-types.js";
import { endpointMessage, legacyHostMessage, unknownBaseMessage } from "../../messages.js";
import type { FileScanner } from "../../scanner.js";
import { assignedName, usesOf } from "./assignments.js";
import { legacyHostMentionsIn, v1PathsOnCurrentHost } from "./host-mentions.js";
import { type HttpMethod, methodFromName } from "./http-methods.js";
import { findOtherHostShapes, otherHostMessage } from "./other-host.js";
import { runIdQueryMessage } from "./run-id-query.js";
import { findRunPaths, type RunPath } from "./run-paths.js";
import { statementAround } from "../../../lang/text/statements.js";
import { TextFile } from "../../../lang/text/text-file.js";
import { valueShapeAt } from "./whole-values.js";
import { type HeldBase, heldBaseOf } from "./env-bases.js";
import { configuresInProse } from "./prose-config.js";
import { isInside, routedPaths } from "../../../lang/data/route-tables.js";
import { baseExpressionOf, isProgramSource, isShellScript, namesPartnerPlatform } from "./program-bases.js";
import { RequestsAround } from "./requests-around.js";
import { TextFindings } from "./text-findings.js";
import { type TreeRequests, treeRequestsOf, treeUseFinding } from "./tree-requests.js";
import { type ShellRequests, shellRequestsOf } from "./shell-requests.js";
import { type HostSet, parseUrlText, type V1Endpoint, v1EndpointOf } from "../../../core/urls.js";
import type { EndpointFacts } from "../../../core/facts.js";

export const legacyUrlScanner: FileScanner = {
  id: "legacy-urls",
  matches: (file) => !isJsFile(file),
  scan: ({ file, text, kind, hosts, repo }) =>
    scanLegacyUrls(
      file,
      text,
      kind,
      hosts,
      heldBaseOf(file, text, hosts, repo),
      treeRequestsOf(file, text, hosts, repo),
      shellRequestsOf(file, text, hosts, repo),
    ),
};

export function scanLegacyUrls(
  file: string,
  text: string,
  kind: FileKind,
  hosts: HostSet,
  heldBase: (base: string) => HeldBase | undefined = () => undefined,
  tree?: TreeRequests,
  shell?: ShellRequests,
): Finding[] {
  return new TextScan(new TextFile(file, text, kind, hosts), heldBase, tree, shell).run();
}

/** How a V1 `/run` use was resolved: the endpoint, where it is, and whether the method was seen. */
interface RunUse {
  endpoint: V1Endpoint;
  start: number;
  end: number;
  methodKnown: boolean;
  fix?: FixClass;
}

/** A statement test: it names the variable (not `@name` or `$name`, which are others). */
function mentioning(name: string): (statement: string) => boolean {
  const pattern = new RegExp(`(?<![\\w$@])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);
  return (statement) => pattern.test(statement);
}

class TextScan {
  private readonly findings: TextFindings;
  private readonly requests: RequestsAround;
  /** A full legacy URL ending in /run was seen (whatever it resolved to). */
  private legacyRunUrlSeen = false;

  /** Lines the syntax tree reported a V1 request on: the text rules' weaker guesses there are dropped. */
  private readonly treeLines = new Set<number>();

  constructor(
    private readonly source: TextFile,
    private readonly isHeldBase: (base: string) => HeldBase | undefined,
    private readonly tree?: TreeRequests,
    private readonly shell?: ShellRequests,
  ) {
    const isShell = isShellScript(source.file, source.text);
    this.findings = new TextFindings(source, isShell);
    this.requests = new RequestsAround(source, isShell);
  }

  run(): Finding[] {
    this.reportTreeUses();
    this.reportShellUses();
    const hasLegacyBase = this.scanLegacyHost();
    // V1 endpoints on the V2 host (`POST https://api.comfydeploy.com/api/run`) are V1 uses too.
    for (const url of v1PathsOnCurrentHost(this.source.text, this.source.hosts)) {
      if (!this.settledByTree(url.start))
        this.reportRunUses(this.resolveRunUse(url.start, url.end, url.hasRunId, true));
    }
    if (hasLegacyBase) this.scanDetachedRunPaths();
    else if (isProgramSource(this.source.file, this.source.text)) this.scanBuiltRunPaths();
    this.scanOtherHosts();
    return this.findings.findings;
  }

  /**
   * `/run` built on a base this file does not hold, in code: `c.baseURL + "/run"`,
   * `$"{_settings.Endpoint}/run"`, `"#{base_url}/run"`. Without the base in
   * sight only V1's signature counts: a run_id query, or a POST whose request
   * carries deployment_id. When another file of the repository holds the V1
   * base, a member base (`c.baseURL`, `@base_url`, `_settings.Endpoint`) is
   * taken to be it, for review; a bare name a sourced file sets to the V1 base
   * is it; any other bare name (a parameter, a constant from elsewhere) stays
   * a V1 shape on an unknown base, a warning. The app's own routes
   * (`MapPost("/api/run")`) are not built on a base and stay quiet.
   */
  private scanBuiltRunPaths(): void {
    const { source } = this;
    for (const path of findRunPaths(source.text)) {
      if (path.relative || this.settledByTree(path.start)) continue;
      const base = baseExpressionOf(source.text, path);
      if (base === undefined || namesPartnerPlatform(statementAround(source, path.start).text)) continue;
      const use = this.signatureAt(path);
      if (!use) continue;
      const heldBase = this.isHeldBase(base);
      if (heldBase) {
        const ruleId = use.endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run";
        const message = use.atQuery ? runIdQueryMessage() : endpointMessage(use.endpoint);
        // A base a sourced file sets is as proven as one in this file; one only held in the repository is taken for review.
        const fix = heldBase === "sourced" ? undefined : "review";
        this.findings.reportOnce(use.start, use.end, ruleId, message, fix, undefined, {
          kind: "endpoint",
          endpoint: use.endpoint,
          methodSeen: true,
        });
      } else {
        this.findings.reportOnce(
          use.start,
          use.end,
          "v1-shape-unknown-base",
          unknownBaseMessage(use.endpoint),
          undefined,
          "warning",
        );
      }
    }
  }

  /** V1 requests the syntax tree resolved (through constants, members, settings and the repository's V1 base). */
  private reportTreeUses(): void {
    for (const use of this.tree?.uses ?? []) {
      // The path's literal too: a URL built from parts (`url.URL{…}`, `new UriBuilder { … }`) writes it lines below.
      for (const at of [use.start, use.urlStart, use.runLiteral.start]) this.treeLines.add(this.source.lineOf(at));
      const finding = treeUseFinding(use);
      this.findings.reportOnce(
        use.start,
        use.end,
        finding.ruleId,
        finding.message,
        finding.fix,
        undefined,
        finding.facts,
      );
    }
  }

  /** Shell requests whose V1 path comes from a variable (`"${COMFY_BASE}${RUN_PATH}"`): the path is not in the line, so they are for review. */
  private reportShellUses(): void {
    for (const use of this.shell?.uses ?? []) {
      this.treeLines.add(this.source.lineOf(use.start));
      const ruleId = use.endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run";
      this.findings.reportOnce(use.start, use.end, ruleId, endpointMessage(use.endpoint), "review", undefined, {
        kind: "endpoint",
        endpoint: use.endpoint,
        methodSeen: true,
      });
    }
  }

  /** A `/run` the syntax tree (or the shell reading) showed is a route or a path's definition, or whose line it already reported. */
  private settledByTree(offset: number): boolean {
    const within = (range: { start: number; end: number }): boolean => range.start <= offset && offset < range.end;
    return (
      this.treeLines.has(this.source.lineOf(offset)) ||
      (this.tree?.quiet ?? []).some(within) ||
      (this.shell?.quiet ?? []).some(within)
    );
  }

  /** V1's signature around a `/run` path: where it is and which endpoint it names. */
  private signatureAt(
    path: RunPath,
  ): { endpoint: "create-run" | "get-run"; start: number; end: number; atQuery: boolean } | undefined {
    const { source } = this;
    if (path.hasRunIdQuery) return { endpoint: "get-run", start: path.start, end: path.end, atQuery: false };
    if (this.requests.runIdQueryIn(statementAround(source, path.start)))
      return { endpoint: "get-run", start: path.start, end: path.end, atQuery: false };
    const facts = this.requests.requestFacts(path.start);
    if (facts.method === "POST" && /\bdeployment_id\b/.test(facts.context)) {
      return { endpoint: "create-run", start: path.start, end: path.end, atQuery: false };
    }
    if (facts.method === "POST") return undefined;
    // The run_id query added a few lines later (`q.Set("run_id", id)`) carries the finding.
    const query = this.requests.runIdQueryAfter(path.start);
    return query ? { endpoint: "get-run", start: query.start, end: query.end, atQuery: true } : undefined;
  }

  /** Legacy host mentions, and the V1 endpoint when the URL names one. True when the file holds a legacy base. */
  private scanLegacyHost(): boolean {
    const { source } = this;
    let hasBase = false;
    const runUrls: Array<{ start: number; end: number; hasRunId: boolean }> = [];
    for (const mention of legacyHostMentionsIn(source.text, source.hosts)) {
      if (mention.kind === "page") continue;
      if (mention.kind === "bare" && !this.isConfiguredBareHost(mention.start, mention.end)) continue;
      hasBase = true;
      this.findings.report(mention.start, mention.end, "legacy-base-url", legacyHostMessage(mention.kind, mention.url));
      const info = parseUrlText(mention.url, source.hosts);
      if (v1EndpointOf(info, undefined) === undefined) continue;
      runUrls.push({ start: mention.start, end: mention.end, hasRunId: info.queryKeys.has(ENDPOINTS.getRun.v1.query) });
    }
    if (!hasBase) return false;
    this.legacyRunUrlSeen = runUrls.length > 0;
    for (const url of runUrls) this.reportRunUses(this.resolveRunUse(url.start, url.end, url.hasRunId, true));
    return true;
  }

  /**
   * A bare host is the API base only where it is configured (the V1 SDK
   * appends /api itself): a value in code or config, a setting in a comment
   * or in a docs code block (`COMFY_API_BASE=https://…`), never in prose.
   */
  private isConfiguredBareHost(start: number, end: number): boolean {
    const { source } = this;
    const shape = valueShapeAt(source.text, start, end);
    if (source.kind === "docs" && !source.isInCodeBlock(start) && configuresInProse(source.text, start, end))
      return true;
    if (shape === undefined) return false;
    if (source.kind === "docs") return shape === "setting" && source.isInCodeBlock(start);
    return source.isComment(start) ? shape === "setting" : true;
  }

  /**
   * `/run` written apart from the base (`base + "/run"`, `status_path: /run`,
   * OpenAPI `paths: /run:`) and `run_id` queries, in a file that holds a legacy base.
   */
  private scanDetachedRunPaths(): void {
    const { source } = this;
    const operations = this.requests.structured()?.runOperations() ?? [];
    const claimed = new Set(operations.map((op) => op.pathStart));
    for (const op of operations) {
      const endpoint = op.method === "POST" ? "create-run" : "get-run";
      this.reportRunUses([{ endpoint, start: op.start, end: op.end, methodKnown: true, fix: "review" }]);
    }
    // An ingress or rewrite path routes the app's own requests: a routing table is not a request.
    const found = findRunPaths(source.text);
    const structured = found.length > 0 && (source.syntax === "json" || source.syntax === "yaml");
    const routed = structured ? routedPaths(source.text, source.syntax as "json" | "yaml") : [];
    const paths = found.filter(
      (p) =>
        !isInside(routed, p.start) &&
        !claimed.has(p.start) &&
        !claimed.has(p.start - 1) &&
        !this.settledByTree(p.start) &&
        !namesPartnerPlatform(statementAround(source, p.start).text),
    );
    for (const path of paths) {
      const uses = this.resolveRunUse(path.start, path.end, path.hasRunIdQuery, !path.relative);
      this.reportRunUses(uses.map((use) => ({ ...use, fix: "review" as const })));
    }
    const hasRunPath = operations.length > 0 || paths.length > 0 || this.legacyRunUrlSeen;
    if (!hasRunPath) return;
    for (const query of this.requests.runIdQueries()) {
      this.findings.reportOnce(query.start, query.end, "legacy-get-run", runIdQueryMessage(), "review");
    }
  }

  /**
   * Where and as what a V1 `/run` URL is used. A run_id query makes it a
   * get-run; otherwise the method comes from its statement, from the places
   * the variable holding it is used (reported there when they differ), or
   * from that variable's name. A GET whose run_id is added elsewhere in the
   * file is reported at the run_id line.
   */
  private resolveRunUse(start: number, end: number, hasRunId: boolean, reportUnknown: boolean): RunUse[] {
    if (hasRunId) return [{ endpoint: "get-run", start, end, methodKnown: true }];
    const statement = statementAround(this.source, start);
    // `.addQueryParameter("run_id", id)` in the same builder chain: the run_id line carries the finding.
    if (this.requests.runIdQueryIn(statement)) return [];
    const method = this.requests.methodAt(start);
    if (method) return this.useWithMethod(method, start, end);
    const name = assignedName(this.source.text.slice(statement.start, start));
    // `uri = URI("#{base}/run")` then `uri.query = encode_www_form(run_id: id)`: the run_id line carries the finding.
    if (name && this.requests.runIdQueryAfter(start, mentioning(name))) return [];
    if (name) {
      const viaUses = this.usesWithMethod(name, start, 2);
      const methods = new Set(viaUses.map((use) => use.method));
      // One method everywhere: the definition is the use (`$ch = curl_init(url)`, a constant only posted to).
      if (methods.size === 1) return this.useWithMethod(viaUses[0]!.method, start, end, "review");
      if (methods.size > 1)
        return viaUses.flatMap((use) => this.useWithMethod(use.method, use.start, use.end, "review"));
      const hinted = methodFromName(name);
      if (hinted) return this.useWithMethod(hinted, start, end, "review");
    }
    return reportUnknown ? [{ endpoint: "run-ambiguous", start, end, methodKnown: false, fix: "review" }] : [];
  }

  private useWithMethod(method: HttpMethod, start: number, end: number, fix?: FixClass): RunUse[] {
    if (method === "POST") return [{ endpoint: "create-run", start, end, methodKnown: true, ...(fix ? { fix } : {}) }];
    // The run_id is added on another line, which carries the finding.
    if (this.requests.runIdQueries().length > 0) return [];
    return [{ endpoint: "get-run", start, end, methodKnown: true, ...(fix ? { fix } : {}) }];
  }

  /** Uses of a variable whose statement names an HTTP method, following re-assignments `depth` levels deep. */
  private usesWithMethod(
    name: string,
    definedAt: number,
    depth: number,
  ): Array<{ method: HttpMethod; start: number; end: number }> {
    const out: Array<{ method: HttpMethod; start: number; end: number }> = [];
    for (const use of usesOf(this.source, name, this.source.lineOf(definedAt))) {
      const method = this.requests.methodAt(use);
      if (method) {
        out.push({ method, start: use, end: use + name.length });
        continue;
      }
      if (depth <= 1) continue;
      const statement = statementAround(this.source, use);
      const next = assignedName(this.source.text.slice(statement.start, use));
      if (next && next !== name) out.push(...this.usesWithMethod(next, use, depth - 1));
    }
    return out;
  }

  private reportRunUses(uses: RunUse[]): void {
    for (const use of uses) {
      const ruleId = use.endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run";
      const fix = use.fix ?? (use.endpoint === "run-ambiguous" || !use.methodKnown ? "review" : undefined);
      const facts: EndpointFacts = { kind: "endpoint", endpoint: use.endpoint, methodSeen: use.methodKnown };
      this.findings.reportOnce(use.start, use.end, ruleId, endpointMessage(use.endpoint), fix, undefined, facts);
    }
  }

  private scanOtherHosts(): void {
    for (const shape of findOtherHostShapes(this.source, (offset) => this.requests.requestFacts(offset))) {
      // Always a warning for review, whatever the context.
      this.findings.reportOnce(
        shape.start,
        shape.end,
        "other-host-v1-shape",
        otherHostMessage(shape.host, shape.endpoint),
        undefined,
        "warning",
      );
    }
  }
}
