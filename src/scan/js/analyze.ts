/**
 * The JS/TS rules: legacy host, V1 endpoints and V1 SDK use, reported from
 * one parsed file with help from the rest of the repository.
 */
import { ts } from "./typescript-api.cjs";
import type { Finding } from "../../core/finding.js";
import {
  legacyHostMessage,
  sdkCallMessage,
  sdkConstructorMessage,
  sdkImportMessage,
  sdkPropertyMessage,
  sdkTypeMessage,
  vendoredCallMessage,
  vendoredClassMessage,
  vendoredConstructorMessage,
  vendoredImportMessage,
} from "../messages.js";
import {
  findLegacyHostMentions,
  type HostSet,
  isOtherHostV1Shape,
  isVendorHost,
  parseUrlText,
  v1EndpointOf,
  type V1Signature,
  v1SignatureOnUnknownBase,
} from "../../core/urls.js";
import { enclosingClass, type FileContext, isStringish, unwrap } from "./file-context.js";
import { HttpCalls, type HttpRequest } from "./http-calls.js";
import { HelperRequests } from "./helper-requests.js";
import type { EndpointRequest } from "../../core/facts.js";
import { JsProject } from "./project.js";
import { Reporter } from "./reporter.js";
import { addJsSdkFacts, isTypeOnlyImport } from "./sdk-import-facts.js";
import { isSdkModule } from "../../lang/js/sdk-module.js";
import { V1_EXPORT_NAMES, V1_METHOD_NAMES, V1Sdk } from "./v1-sdk.js";
import { V1_CLIENT_PROPERTIES } from "../../knowledge/migration.js";
import { Values } from "./values.js";
import { failureReason } from "../scanner-helpers.js";
import { VendoredClients } from "./vendored-client.js";
import { ClientReach } from "./client-reach.js";
import { RepoEnv } from "./repo-env.js";
import { runIdSiteOfDeclaration, runIdSiteOfRequest } from "./run-id-site.js";
import { readRequest } from "./wired-request.js";
import { topLevelFunctions, V1Senders } from "./v1-senders.js";
import { besideV1Value } from "./sdk-import-line.js";
import { heldBaseOfUrl } from "./base-origin.js";
import type { HeldBase } from "../held-base.js";

const CLIENT_PROPERTIES: ReadonlySet<string> = new Set(V1_CLIENT_PROPERTIES);
const LINK_ATTRIBUTES: ReadonlySet<string> = new Set(["href", "src", "action", "cite"]);

export interface JsFileResult {
  findings: Finding[];
  /** The file exports a V1 client or a function returning one: files importing it must be analysed too. */
  exportsClient: boolean;
  /** The file imports or requires the `comfydeploy` package (any version). */
  importsSdk: boolean;
  /** The file could not be parsed. */
  error?: string;
}

/** Analysis state shared by all files of one scan (parsed dependencies, consumed URL expressions). */
export class JsAnalyzer {
  readonly project: JsProject;
  private readonly values: Values;
  private readonly http: HelperRequests;
  private readonly sdk: V1Sdk;
  private readonly vendored: VendoredClients;
  private readonly senders: V1Senders;
  private readonly reach: ClientReach;

  constructor(
    root: string,
    files: ReadonlySet<string>,
    private readonly hosts: HostSet,
    /** Where the repository sets a ComfyDeploy API base, if it does (the engine finds it before the analysis). */
    private readonly legacyBase?: HeldBase,
  ) {
    this.project = new JsProject(root, files);
    const env = new RepoEnv(files, (file) => this.project.textOf(file), hosts);
    this.values = new Values(this.project, (name) => env.value(name));
    this.http = new HelperRequests(this.values, new HttpCalls(this.values));
    const reach = new ClientReach(this.values);
    this.reach = reach;
    this.senders = new V1Senders(this.http, hosts);
    this.vendored = new VendoredClients(this.values, hosts, reach, this.senders);
    this.sdk = new V1Sdk(this.values, this.vendored, reach, this.senders);
  }

  /** One file's findings; a file the parser or the analysis cannot take is an error for the caller to fall back on, never an aborted scan. */
  analyze(file: string, text: string, clientModules?: readonly string[]): JsFileResult {
    try {
      return this.analyzeParsed(file, text, clientModules);
    } catch (error) {
      this.forgetNodes();
      this.project.release(file);
      return {
        findings: [],
        exportsClient: false,
        importsSdk: false,
        error: `the analysis gave up on it (${failureReason(error)})`,
      };
    }
  }

  private analyzeParsed(file: string, text: string, clientModules?: readonly string[]): JsFileResult {
    // What the scan proved before this file was found is known to reach a client, whatever the module's text shows.
    this.reach.beginFile(file, clientModules);
    const context = this.project.contextFor(file, text);
    if (!context) return { findings: [], exportsClient: false, importsSdk: false, error: "the parser gave up on it" };
    const report = new Reporter(context);
    this.reportRequests(context, report);
    this.reportUrlExpressions(context, report);
    this.reportHostLiterals(context, report);
    this.reportSdk(context, report);
    this.reportSdkTypes(context, report);
    this.reportVendoredClasses(context, report);
    this.reportVendoredUse(context, report);
    addJsSdkFacts(report.findings, context);
    const importsSdk = [...context.imports.values()].some((binding) => isSdkModule(binding.module));
    const exportsClient = this.sdk.exportsClient(context, clientModules);
    this.forgetNodes();
    return { findings: report.findings, exportsClient, importsSdk };
  }

  /** Node-keyed memos hold whole syntax trees alive: drop them between files. */
  private forgetNodes(): void {
    this.values.consumed.clear();
    this.values.forgetConstructions();
    this.sdk.forget();
    this.vendored.forget();
    this.senders.forget();
  }

  private reportRequests(context: FileContext, report: Reporter): void {
    for (const call of [...context.calls, ...this.http.declared(context)]) {
      const read = readRequest(this.http, this.values, this.hosts, call, context);
      if (!read) continue;
      const { request, consumed } = read;
      const info = parseUrlText(request.url, this.hosts);
      const endpoint = v1EndpointOf(info, request.method);
      const signature = v1SignatureOnUnknownBase(request.url, request.method, request.bodyKeys);
      // On the V2 host the URL literal carries the finding (reported below), not every request that reads it.
      if (endpoint && info.hostKind === "current" && !isStringish(request.urlNode)) continue;
      const at = (endpoint ?? signature) === "get-run" ? runIdSiteOfRequest(request, context) : request.urlNode;
      // Reported on its run_id line, the request's URL is still what fix edits.
      const url = at === request.runIdEntry ? request.urlNode : undefined;
      if (endpoint && isVendorHost(info))
        report.endpoint(at, endpoint, request.method !== undefined, endpointRequest(request), url);
      else if (
        endpoint &&
        (isOtherHostV1Shape(info) || (info.hostKind === "other" && this.inVendoredClass(request.urlNode, context)))
      ) {
        report.otherHost(at, info.host!);
      } else if (signature)
        this.reportUnknownBase(report, context, at, request.urlNode, signature, true, endpointRequest(request));
      else continue;
      for (const node of consumed) this.values.consumed.add(node);
      this.values.consumed.add(request.urlNode);
    }
  }

  /** URLs built but not seen going into a known client: the method is unknown, report at the URL. */
  private reportUrlExpressions(context: FileContext, report: Reporter): void {
    for (const expr of context.urlExpressions) {
      if (this.values.consumed.has(expr) || report.hasEndpointAt(expr)) continue;
      let url = this.values.stringValue(expr, context, null);
      const declaration = expr.parent;
      let at: ts.Node = expr;
      if (ts.isVariableDeclaration(declaration) && declaration.initializer === expr) {
        for (const key of context.queryMutations.get(declaration)?.keys() ?? [])
          url += `${url.includes("?") ? "&" : "?"}${key}=\u0000`;
        at = runIdSiteOfDeclaration(declaration, context) ?? expr;
      }
      const info = parseUrlText(url, this.hosts);
      const endpoint = v1EndpointOf(info, undefined);
      const signature = v1SignatureOnUnknownBase(url, undefined, new Set());
      if ((endpoint ?? signature) !== "get-run") at = expr;
      if (endpoint && isVendorHost(info)) report.endpoint(at, endpoint, false);
      else if (endpoint && isOtherHostV1Shape(info)) report.otherHost(at, info.host!);
      else if (signature) this.reportUnknownBase(report, context, at, expr, signature, false);
    }
  }

  /** V1's signature on an unresolved base: on the repository's V1 base when the file says nothing against it. */
  private reportUnknownBase(
    report: Reporter,
    context: FileContext,
    at: ts.Node,
    url: ts.Node,
    signature: V1Signature,
    methodKnown: boolean,
    request?: EndpointRequest,
  ): void {
    const held = this.legacyBase && heldBaseOfUrl(url, context, this.project, this.legacyBase);
    if (held === "other-service") return;
    if (held) report.heldBase(at, signature, held, methodKnown, request, url);
    else report.unknownBase(at, signature);
  }

  private inVendoredClass(node: ts.Node, context: FileContext): boolean {
    const cls = enclosingClass(node);
    return cls !== undefined && this.vendored.classInfo(cls, context) !== undefined;
  }

  private reportVendoredClasses(context: FileContext, report: Reporter): void {
    const add = (at: ts.Node, otherHost: string | undefined): void =>
      report.add(at, {
        ruleId: "vendored-v1-client",
        message: vendoredClassMessage(otherHost),
        ...(otherHost ? { severity: "warning" as const } : {}),
      });
    for (const cls of context.classes) {
      const info = this.vendored.classInfo(cls, context);
      if (info) add(cls.name ?? cls, info.otherHost);
    }
    // A factory returning an object of V1-sending methods is the client's constructor: `createComfyClient()`.
    for (const { name, fn } of topLevelFunctions(context.sourceFile)) {
      const sender = this.senders.factorySends(fn, context);
      if (sender) add(name, sender.otherHost);
    }
  }

  /**
   * The app's import and construction of a local copy of the V1 client,
   * reported as the SDK's are: these lines are where it switches to V2.
   */
  private reportVendoredUse(context: FileContext, report: Reporter): void {
    // The class's own module, and the library that publishes it, are the copy itself: its class finding covers them.
    const appCode = (client: ts.Node): boolean => {
      const home = client.getSourceFile().fileName;
      return home !== context.file && !this.vendored.isOwnLibrary(home, context.file);
    };
    for (const [decl, binding] of context.imports) {
      if (isSdkModule(binding.module) || binding.name === "*" || isTypeOnlyImport(decl)) continue;
      const local = importedName(decl);
      const vendored =
        local && (this.vendored.classOf(local, context)?.cls ?? this.sdk.localClientFunction(local, context)?.fn);
      if (local && vendored && appCode(vendored))
        report.add(decl, { ruleId: "v1-sdk-import", message: vendoredImportMessage(local.text), fix: "review" });
    }
    for (const expr of context.newExpressions) {
      const target = unwrap(expr.expression);
      const vendored = this.vendored.classOf(target, context);
      if (!vendored || !appCode(vendored.cls)) continue;
      // Through a namespace import (`new render.RenderApi()`) the access is the import, as for the SDK's.
      if (ts.isPropertyAccessExpression(target))
        report.add(target, {
          ruleId: "v1-sdk-import",
          message: vendoredImportMessage(target.getText()),
          fix: "review",
        });
      report.add(expr, { ruleId: "v1-sdk-client", message: vendoredConstructorMessage(target.getText()) });
    }
    // A factory's call creates the client (`createComfyClient({ apiKey })`); a function that sends V1 itself is a V1 call.
    for (const call of context.calls) {
      const callee = unwrap(call.expression);
      const local = ts.isIdentifier(callee) ? this.sdk.localClientFunction(callee, context) : undefined;
      if (!local || !appCode(local.fn)) continue;
      if (local.role === "factory")
        report.add(call, { ruleId: "v1-sdk-client", message: vendoredConstructorMessage(callee.getText()) });
      else report.add(callee, { ruleId: "vendored-v1-client", message: vendoredCallMessage(callee.getText()) });
    }
  }

  /** Type positions naming V1 SDK names: `ComfyDeployClient | null`, `ReturnType<ComfyDeployClient["getRun"]>`, `typeof client`. */
  private reportSdkTypes(context: FileContext, report: Reporter): void {
    for (const ref of context.typeReferences) {
      const name = ref.typeName;
      const v1Name = ts.isIdentifier(name)
        ? this.sdk.v1ExportOf(name, context)
        : V1_EXPORT_NAMES.has(name.right.text) &&
            ts.isIdentifier(name.left) &&
            this.sdk.isSdkNamespace(name.left, context)
          ? name.right.text
          : undefined;
      if (v1Name) report.add(ref, { ruleId: "v1-sdk-type", message: sdkTypeMessage(v1Name) });
    }
    for (const query of context.typeQueries) {
      const target = query.exprName;
      if (!ts.isIdentifier(target)) continue;
      const v1Name =
        this.sdk.v1ExportOf(target, context) ?? (this.sdk.isClient(target, context) ? "ComfyDeployClient" : undefined);
      if (v1Name) report.add(query, { ruleId: "v1-sdk-type", message: sdkTypeMessage(v1Name) });
    }
  }

  private reportHostLiterals(context: FileContext, report: Reporter): void {
    const covered: Array<[number, number]> = [];
    for (const part of context.stringParts) {
      const start = part.getStart();
      covered.push([start, part.getEnd()]);
      const text = (part as ts.LiteralLikeNode).text;
      // A bare host in `<a href="…">` is a link to the vendor's site, not an API base.
      const isLink = ts.isJsxAttribute(part.parent) && LINK_ATTRIBUTES.has(part.parent.name.getText());
      const mention = findLegacyHostMentions(text, this.hosts).find(
        (m) => m.kind === "api" || (m.kind === "bare" && !isLink && text.trim() === m.url),
      );
      if (mention) {
        report.add(part, {
          ruleId: "legacy-base-url",
          message: legacyHostMessage(mention.kind === "bare" ? "bare" : "api", mention.url),
        });
      }
    }
    // Mentions outside string literals: comments and JSX text, reported as documentation.
    for (const mention of findLegacyHostMentions(context.text, this.hosts)) {
      if (mention.kind !== "api") continue;
      if (covered.some(([s, e]) => mention.start >= s && mention.start < e)) continue;
      report.addRange(mention.start, mention.end, {
        ruleId: "legacy-base-url",
        message: legacyHostMessage("api", mention.url),
        // Documentation: fix leaves prose to a person.
        severity: "warning",
        fix: "manual",
      });
    }
  }

  private reportSdk(context: FileContext, report: Reporter): void {
    for (const [decl, binding] of context.imports) {
      if (isSdkModule(binding.module) && V1_EXPORT_NAMES.has(binding.name)) {
        // A type named beside a V1 value on one import line is part of that import: the line is one place to act.
        const ruleId = isTypeOnlyImport(decl) && !besideV1Value(decl) ? "v1-sdk-type" : "v1-sdk-import";
        report.add(decl, {
          ruleId,
          message: ruleId === "v1-sdk-type" ? sdkTypeMessage(binding.name) : sdkImportMessage(binding.name),
        });
      }
    }
    for (const statement of context.sourceFile.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
      if (!ts.isStringLiteral(statement.moduleSpecifier) || !isSdkModule(statement.moduleSpecifier.text)) continue;
      const clause = statement.exportClause;
      if (!clause || !ts.isNamedExports(clause)) continue;
      for (const spec of clause.elements) {
        const name = (spec.propertyName ?? spec.name).text;
        if (V1_EXPORT_NAMES.has(name)) report.add(spec, { ruleId: "v1-sdk-import", message: sdkImportMessage(name) });
      }
    }
    for (const type of context.importTypes) {
      const arg = type.argument;
      const module = ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal) ? arg.literal.text : undefined;
      const name =
        type.qualifier && (ts.isIdentifier(type.qualifier) ? type.qualifier.text : type.qualifier.right.text);
      if (module && isSdkModule(module) && name && V1_EXPORT_NAMES.has(name)) {
        report.add(type, { ruleId: "v1-sdk-import", message: sdkImportMessage(name) });
      }
    }
    for (const access of context.propertyAccesses) {
      const name = access.name.text;
      if (V1_EXPORT_NAMES.has(name) && this.sdk.isSdkNamespace(access.expression, context)) {
        report.add(access, { ruleId: "v1-sdk-import", message: sdkImportMessage(name) });
        continue;
      }
      const isCallee = ts.isCallExpression(access.parent) && access.parent.expression === access;
      // Other names count on a local client whose member sends V1 (`comfy.queueRun()`); a name is only asked about on a plain name.
      const asked = isCallee && (V1_METHOD_NAMES.has(name) || ts.isIdentifier(access.expression));
      const kind = asked ? this.sdk.clientKind(access.expression, context) : undefined;
      if (kind === "sdk" && V1_METHOD_NAMES.has(name)) {
        report.add(access.name, { ruleId: "v1-sdk-call", message: sdkCallMessage(name) });
      } else if (
        kind === "vendored" &&
        (V1_METHOD_NAMES.has(name) || this.sdk.vendoredMemberSends(access.expression, name, context))
      ) {
        report.add(access.name, { ruleId: "vendored-v1-client", message: vendoredCallMessage(name) });
      } else if (!isCallee && CLIENT_PROPERTIES.has(name) && this.sdk.isClient(access.expression, context)) {
        report.add(access.name, { ruleId: "v1-sdk-client", message: sdkPropertyMessage(name) });
      }
    }
    for (const expr of context.newExpressions) {
      if (this.sdk.v1ExportOf(expr.expression, context) === "ComfyDeployClient") {
        report.add(expr, { ruleId: "v1-sdk-client", message: sdkConstructorMessage() });
      }
    }
    for (const call of context.calls) {
      if (this.sdk.v1ExportOf(call.expression, context) === "parseWebhookDataSafe") {
        report.add(call.expression, { ruleId: "v1-sdk-call", message: sdkCallMessage("parseWebhookDataSafe") });
      }
    }
  }
}

/** The local name an import binds: `{ X }`, `{ Y as X }`, a default import, `const { X } = require(…)`. */
function importedName(decl: ts.Node): ts.Identifier | undefined {
  if (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isBindingElement(decl))
    return decl.name && ts.isIdentifier(decl.name) ? decl.name : undefined;
  return undefined;
}

/** The request facts the endpoint transform reads instead of re-deriving them. */
function endpointRequest(request: HttpRequest): EndpointRequest {
  return {
    ...(request.client ? { client: request.client } : {}),
    ...(request.method ? { method: request.method } : {}),
    bodyKeys: [...request.bodyKeys],
  };
}
