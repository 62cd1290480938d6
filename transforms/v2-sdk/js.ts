/**
 * v2-sdk: moves code from the V1 JS SDK (`comfydeploy` 0.0.x,
 * `ComfyDeployClient`) to the V2 SDK (`comfydeploy` 2.0.0-beta.69,
 * `ComfyDeploy`).
 *
 * Policy: adapt at the call site. V1 returned `null` on failure (after a
 * `console.error`) and answered in snake_case; V2 throws and answers in
 * camelCase, and apps read the V1 shape in other files. So every rewritten
 * call keeps the V1 contract: it resolves to exactly the V1 result shape and
 * turns a thrown V2 error into what V1 gave instead (`console.error` + `null`,
 * or `[undefined, Response(500)]` for webhooks). Callers, and the files they
 * live in, need no change. See lib/v1-result-adapters.ts for the field map.
 * Deliberate differences, all in V1's failure quirks: V1 answered null for a
 * run whose status was outside its enum ("cancelled") and a 500 for such a
 * webhook; the adapters pass the status through. V1 parsed GET webhooks from
 * the query string; V2 reads the body only.
 *
 * The scan already proved which nodes are V1 (imports, clients through
 * aliases, fields and factories); this transform only rewrites the nodes its
 * findings point at, and leaves a review marker where the shape is not the
 * one it can keep exactly: a non-literal `run()` argument, extra arguments,
 * runSync / getUploadUrl / getWebsocketUrl, `.apiBase` / `.apiToken` reads,
 * V1 method types (`ComfyDeployClient["getRun"]`), the V1 webhook schema.
 */
import type { API, ASTPath, Collection, FileInfo, JSCodeshift } from "jscodeshift";
import type { MigrationOptions } from "../lib/jscodeshift-part.js";
import type { FixEvent } from "../types.js";
import type { Finding } from "../../src/core/finding.js";
import { JS_SDK, JS_SDK_SHAPES, V1_CLIENT_METHODS, V1_CLIENT_PROPERTIES, V1_SDK_EXPORTS } from "../../src/knowledge/migration.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { optionsFromVariable, plainKeys, rewriteOptionsObject } from "./client-options.js";
import { SpanIndex } from "../lib/span-index.js";
import { addMarker, preferredQuote, statementOf } from "../lib/markers.js";
import { isNameTaken, isSdkModuleCall, referencesOf, reRootSource, type SdkBindings, sdkBindings, type SdkSpecifier } from "./sdk-bindings.js";
import { expressionFrom, printed, printedNode, type PrintOptions, statementsFrom, typeFrom } from "./snippets.js";
import {
  type AdapterStyle,
  failureToNull,
  getRunResult,
  OUTPUTS_HELPER,
  outputsHelperSource,
  queueResult,
  thenAdapter,
  webhookFailure,
  webhookResult,
} from "./v1-result-adapters.js";

type AnyNode = { type: string; [key: string]: unknown };

const SDK_RULES: ReadonlySet<string> = new Set(["v1-sdk-import", "v1-sdk-client", "v1-sdk-call"]);
const V1_CLASS = V1_SDK_EXPORTS.find((e) => e.v1 === "ComfyDeployClient")!;
const V2_CLASS = V1_CLASS.v2;
const WEBHOOK_PARSER = "parseWebhookDataSafe";
const WEBHOOK_SCHEMA = "WebookRequestBody";
const OUTPUT_FILE_SCHEMA = "OutputFileType";
/** V2's output item type and where an ESM file can import it from (the package has no exports map). */
const MEDIA_ITEM = V1_SDK_EXPORTS.find((e) => e.v1 === OUTPUT_FILE_SCHEMA)!.v2;
const COMPONENTS_MODULE = JS_SDK_SHAPES.componentsModule;
const RUN_KEYS: Readonly<Record<string, string>> = JS_SDK_SHAPES.runKeys;
const CLIENT_PROPERTIES: ReadonlySet<string> = new Set(V1_CLIENT_PROPERTIES);
const ZOD_TYPE_HELPERS = new Set(["infer", "output", "input"]);

function methodAdvice(method: string): string {
  const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
  return mapping ? mapping.advice : "no V2 equivalent";
}

function isTypeScript(file: string): boolean {
  return /\.(c|m)?tsx?$/i.test(file);
}

function indentUnit(source: string): string {
  if (/^\t/m.test(source)) return "\t";
  const widths = [...source.matchAll(/^( +)\S/gm)].map((m) => m[1]!.length);
  const smallest = widths.length > 0 ? Math.min(...widths) : 2;
  return " ".repeat(smallest >= 2 && smallest <= 8 ? smallest : 2);
}

function usesTrailingCommas(source: string): boolean {
  return /,\n\s*[}\])]/.test(source);
}

function isMember(node: AnyNode | undefined): boolean {
  return node?.type === "MemberExpression" || node?.type === "OptionalMemberExpression";
}

function isCall(node: AnyNode | undefined): boolean {
  return node?.type === "CallExpression" || node?.type === "OptionalCallExpression";
}

function lineOf(node: unknown): number {
  return (node as { loc?: { start: { line: number } } }).loc?.start.line ?? 1;
}

class SdkMigration {
  private readonly bindings: SdkBindings;
  private readonly sites: SpanIndex;
  private readonly style: AdapterStyle;
  readonly print: PrintOptions;
  private readonly flagged = new Set<unknown>();
  private needsOutputsHelper = false;
  /** The local name the V2 class has in this file once imports are migrated (undefined: none can be named). */
  private v2ClassName: string | undefined;
  /** The V2 class name has to be imported next to parseWebhookDataSafe's specifier. */
  private importClassForWebhook = false;
  private webhookRewritten = false;
  private readonly renamedClassSpecifiers = new Map<SdkSpecifier, string>();
  /** Callees of webhook calls already rewritten (their import finding needs nothing more). */
  private readonly rewrittenCallees = new Set<unknown>();
  changed = false;

  constructor(
    private readonly j: JSCodeshift,
    private readonly root: Collection,
    private readonly file: FileInfo,
    private readonly findings: readonly Finding[],
    private readonly report: (event: FixEvent) => void,
  ) {
    this.bindings = sdkBindings(j, root);
    this.sites = new SpanIndex(j, root, file.source);
    const quote = preferredQuote(file.source);
    const trailingComma = usesTrailingCommas(file.source);
    const indent = indentUnit(file.source);
    this.print = { quote, trailingComma, arrowParensAlways: true, useTabs: indent === "\t" };
    this.style = { typescript: isTypeScript(file.path), quote: quote === "single" ? "'" : '"', indent, trailingComma };
    for (const finding of findings) for (const path of this.sites.at(finding)) this.flagged.add(path.node);
  }

  run(): void {
    this.planClassName();
    // Later findings first: an inner call is rewritten before the call around it.
    const ordered = [...this.findings].sort((a, b) => b.line - a.line || b.column - a.column);
    for (const finding of ordered) this.apply(finding);
    this.migrateImports();
    this.migrateNamespaceTypes();
  }

  // ---------------------------------------------------------------- events

  private rewrite(ruleId: RuleId, line: number, message: string): void {
    this.changed = true;
    this.report({ kind: "rewrite", ruleId, line, message });
  }

  private mark(path: ASTPath, ruleId: RuleId, advice: string): void {
    const line = lineOf(statementOf(path).node);
    if (addMarker(this.j, path, ruleId, advice)) {
      this.changed = true;
      this.report({ kind: "marker", ruleId, line, message: advice });
    }
  }

  // -------------------------------------------------------------- dispatch

  private apply(finding: Finding): void {
    const paths = this.sites.at(finding);
    if (finding.ruleId === "v1-sdk-call") {
      const method = paths.find((p) => this.isMethodName(p));
      if (method) return this.migrateMethodCall(method);
      const parser = paths.find((p) => this.isWebhookParserCallee(p));
      if (parser) return this.migrateWebhookCall(parser.parent as ASTPath);
      return;
    }
    if (finding.ruleId === "v1-sdk-client") {
      const created = paths.find((p) => (p.node as AnyNode).type === "NewExpression");
      if (created) return this.migrateConstructor(created);
      const property = paths.find((p) => this.isPropertyRead(p));
      if (property) {
        const name = (property.node as AnyNode).name as string;
        return this.mark(
          property,
          "v1-sdk-client",
          `client.${name} is internal in the V2 SDK: keep the value in your own configuration (V2 takes it as new ${V2_CLASS}({ bearer, serverURL }), and serverURL has no /api appended)`,
        );
      }
      return;
    }
    const exported = paths.find((p) => (p.node as AnyNode).type === "ExportSpecifier");
    if (exported) {
      return this.mark(exported, "v1-sdk-import", "re-export of a V1 SDK name: migrate the modules that import it from here, then export the V2 names (ComfyDeploy, validateWebhook, WorkflowRunWebhookBody, MediaItem)");
    }
    const member = paths.find((p) => isMember(p.node as AnyNode) && this.isSdkNamespace((p.node as AnyNode).object as AnyNode));
    if (member) return this.migrateNamespaceMember(member);
    const importType = paths.find((p) => (p.node as AnyNode).type === "TSImportType");
    if (importType) return this.migrateImportType(importType);
  }

  private isMethodName(path: ASTPath): boolean {
    const node = path.node as AnyNode;
    const parent = path.parent?.node as AnyNode | undefined;
    const grand = path.parent?.parent?.node as AnyNode | undefined;
    return node.type === "Identifier" && isMember(parent) && parent!.property === node && isCall(grand) && grand!.callee === parent;
  }

  private isPropertyRead(path: ASTPath): boolean {
    const node = path.node as AnyNode;
    const parent = path.parent?.node as AnyNode | undefined;
    return node.type === "Identifier" && CLIENT_PROPERTIES.has(node.name as string) && isMember(parent) && parent!.property === node;
  }

  private isWebhookParserCallee(path: ASTPath): boolean {
    const node = path.node as AnyNode;
    const parent = path.parent?.node as AnyNode | undefined;
    if (!isCall(parent) || parent!.callee !== node) return false;
    if (node.type === "Identifier") return this.bindings.specifiers.some((s) => s.imported === WEBHOOK_PARSER && s.local === node.name);
    if (isMember(node)) {
      const property = node.property as AnyNode;
      return !node.computed && property.name === WEBHOOK_PARSER && this.isSdkNamespace(node.object as AnyNode);
    }
    return false;
  }

  private isSdkNamespace(node: AnyNode): boolean {
    if (node.type === "Identifier") return this.bindings.namespaces.has(node.name as string);
    return isSdkModuleCall(node);
  }

  // ------------------------------------------------------------ client calls

  private migrateMethodCall(namePath: ASTPath): void {
    const method = (namePath.node as AnyNode).name as string;
    const memberPath = namePath.parent as ASTPath;
    const callPath = memberPath.parent as ASTPath;
    const member = memberPath.node as AnyNode;
    const call = callPath.node as AnyNode;
    const line = lineOf(call);
    const optional = member.type === "OptionalMemberExpression" || call.type === "OptionalCallExpression" || member.optional === true;
    if (method === "run" || method === "getRun") {
      if (optional) {
        return this.mark(namePath, "v1-sdk-call", `client.${method}() through optional chaining: rewrite it by hand (${methodAdvice(method)})`);
      }
      return method === "run" ? this.migrateRun(namePath, callPath, line) : this.migrateGetRun(namePath, callPath, line);
    }
    const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
    const target = mapping?.v2 ? ` (nearest V2 API: ${mapping.v2})` : "";
    this.mark(namePath, "v1-sdk-call", `client.${method}() has no V2 counterpart that keeps its behaviour: ${methodAdvice(method)}${target}`);
  }

  private migrateRun(namePath: ASTPath, callPath: ASTPath, line: number): void {
    const call = callPath.node as AnyNode;
    const args = call.arguments as AnyNode[];
    const arg = args[0];
    const keys = arg && args.length === 1 && arg.type === "ObjectExpression" ? plainKeys(arg) : undefined;
    const allowed = Object.keys(RUN_KEYS);
    if (!keys || !keys.includes("deployment_id") || keys.some((k) => !allowed.includes(k))) {
      const contract = ".then((res) => ({ run_id: res.runId }), (error) => { console.error(error); return null; })";
      if (!keys) {
        const v = arg && args.length === 1 ? (printed(this.j, callPath.get("arguments", 0) as ASTPath, this.print).split("\n")[0] ?? "v") : "v";
        return this.mark(
          namePath,
          "v1-sdk-call",
          `client.run() without a plain object literal argument: if ${v} holds only deployment_id, inputs and webhook, call client.run.deployment.queue({ deploymentId: ${v}.deployment_id, inputs: ${v}.inputs, webhook: ${v}.webhook })${contract} to keep V1's { run_id } | null contract`,
        );
      }
      const extra = keys.filter((k) => !allowed.includes(k));
      return this.mark(
        namePath,
        "v1-sdk-call",
        `client.run() with ${extra.length > 0 ? `keys V2 does not take (${extra.join(", ")})` : "no deployment_id"}: the V2 queue takes deploymentId (required), inputs, webhook, webhookIntermediateStatus and gpu; V1-only fields such as workflow_api have no V2 counterpart`,
      );
    }
    for (const prop of arg!.properties as AnyNode[]) {
      const key = prop.key as AnyNode;
      const name = (key.type === "Identifier" ? key.name : key.value) as string;
      const v2 = RUN_KEYS[name]!;
      if (v2 === name) continue;
      prop.shorthand = false;
      prop.key = this.j.identifier(v2);
    }
    const client = printed(this.j, callPath.get("callee", "object") as ASTPath, this.print);
    const request = printed(this.j, callPath.get("arguments", 0) as ASTPath, this.print);
    const code = thenAdapter(`${client}.run.deployment.queue(${request})`, queueResult(), failureToNull(this.style), this.style);
    callPath.replace(expressionFrom(this.j, code));
    this.rewrite("v1-sdk-call", line, "client.run() → client.run.deployment.queue(), still resolving to { run_id } or null (errors logged with console.error) as V1 did");
  }

  private migrateGetRun(namePath: ASTPath, callPath: ASTPath, line: number): void {
    const call = callPath.node as AnyNode;
    const args = call.arguments as AnyNode[];
    if (args.length !== 1 || args[0]!.type === "SpreadElement") {
      return this.mark(namePath, "v1-sdk-call", `client.getRun() with ${args.length === 1 ? "a spread" : `${args.length}`} argument(s): call client.run.get({ runId }) and keep V1's contract (${methodAdvice("getRun")})`);
    }
    const client = printed(this.j, callPath.get("callee", "object") as ASTPath, this.print);
    const id = printed(this.j, callPath.get("arguments", 0) as ASTPath, this.print);
    const request = id === "runId" ? "{ runId }" : `{ runId: ${id} }`;
    const code = thenAdapter(`${client}.run.get(${request})`, getRunResult(this.style), failureToNull(this.style), this.style);
    callPath.replace(expressionFrom(this.j, code));
    this.needsOutputsHelper = true;
    this.rewrite("v1-sdk-call", line, "client.getRun(id) → client.run.get({ runId: id }), still resolving to the V1 run shape { id, status, outputs, live_status, progress } or null as V1 did");
  }

  // ---------------------------------------------------------------- webhooks

  private migrateWebhookCall(callPath: ASTPath): void {
    const call = callPath.node as AnyNode;
    const callee = call.callee as AnyNode;
    const args = call.arguments as AnyNode[];
    const line = lineOf(call);
    const calleePath = callPath.get("callee") as ASTPath;
    const headers = args[1];
    const simpleHeaders = !headers || ["Identifier", "StringLiteral", "ObjectExpression", "MemberExpression"].includes(headers.type);
    if (args.length < 1 || args.length > 2 || args.some((a) => a.type === "SpreadElement") || !simpleHeaders || call.type === "OptionalCallExpression") {
      return this.mark(calleePath, "v1-sdk-call", "parseWebhookDataSafe() with these arguments: use new ComfyDeploy().validateWebhook({ request }), which throws instead of answering [data, errorResponse] and returns camelCase keys (runId, liveStatus)");
    }
    let classExpression: string;
    if (isMember(callee)) {
      const namespace = printedNode(this.j, callee.object, this.print);
      classExpression = `${namespace}.${V2_CLASS}`;
    } else if (this.v2ClassName) {
      classExpression = this.v2ClassName;
    } else {
      return this.mark(calleePath, "v1-sdk-call", `parseWebhookDataSafe(): the name ${V2_CLASS} is taken in this file; import it under another name and use new ${V2_CLASS}().validateWebhook({ request })`);
    }
    const headersText = headers ? printed(this.j, callPath.get("arguments", 1) as ASTPath, this.print) : undefined;
    const request = printed(this.j, callPath.get("arguments", 0) as ASTPath, this.print);
    const requestField = request === "request" ? "{ request }" : `{ request: ${request} }`;
    const validated = `new ${classExpression}().validateWebhook(${requestField})`;
    const code = thenAdapter(validated, webhookResult(this.style), webhookFailure(this.style, headersText), this.style);
    callPath.replace(expressionFrom(this.j, code));
    this.rewrittenCallees.add(callee);
    this.needsOutputsHelper = true;
    if (!isMember(callee)) this.webhookRewritten = true;
    this.rewrite(
      "v1-sdk-call",
      line,
      "parseWebhookDataSafe(req) → validateWebhook({ request }), still answering [data with V1 keys, undefined] or [undefined, a 500 Response]; V2 requires live_status in the body and accepts status \"cancelled\"",
    );
  }

  // ------------------------------------------------------------- constructor

  private migrateConstructor(path: ASTPath): void {
    const node = path.node as AnyNode;
    const callee = node.callee as AnyNode;
    const line = lineOf(node);
    const classKnown =
      (callee.type === "Identifier" && this.classSpecifierFor(callee.name as string) !== undefined) ||
      (isMember(callee) &&
        !callee.computed &&
        [V1_CLASS.v1, V2_CLASS].includes((callee.property as AnyNode).name as string) &&
        this.isSdkNamespace(callee.object as AnyNode));
    if (!classKnown) {
      return this.mark(path, "v1-sdk-client", `the V1 client class reaches this file through another module: migrate that module, then use new ${V2_CLASS}({ bearer, serverURL? }) here`);
    }
    const args = node.arguments as AnyNode[];
    if (args.length !== 1) {
      return this.mark(path, "v1-sdk-client", `new ${V1_CLASS.v1}() needs exactly one options object: use new ${V2_CLASS}({ bearer: <token> })`);
    }
    const arg = args[0]!;
    if (arg.type === "ObjectExpression") {
      const outcome = rewriteOptionsObject(this.j, arg, this.print);
      if (outcome.kind === "unsupported") {
        return this.mark(path, "v1-sdk-client", `new ${V1_CLASS.v1}(): ${outcome.reason}; V2 takes { bearer, serverURL? } (apiToken → bearer; V1 appended /api to apiBase, V2 takes serverURL verbatim)`);
      }
      if (outcome.replacement) (node.arguments as unknown[])[0] = outcome.replacement;
      this.rewrite("v1-sdk-client", line, `new ${V1_CLASS.v1}() → new ${V2_CLASS}(): ${outcome.notes.join("; ") || "no options"}`);
      if (outcome.review) this.mark(path, "v1-sdk-client", outcome.review);
      return;
    }
    if (arg.type === "Identifier") {
      const object = this.constObject(path, arg.name as string);
      const outcome = object ? optionsFromVariable(this.j, arg.name as string, object, this.print) : undefined;
      if (outcome?.kind === "rewritten" && outcome.node) {
        (node.arguments as unknown[])[0] = outcome.node;
        this.rewrite("v1-sdk-client", line, `new ${V1_CLASS.v1}(${arg.name as string}) → new ${V2_CLASS}(): ${outcome.notes.join("; ")}`);
        if (outcome.review) this.mark(path, "v1-sdk-client", outcome.review);
        return;
      }
    }
    const v = arg.type === "Identifier" ? (arg.name as string) : "options";
    this.mark(
      path,
      "v1-sdk-client",
      `new ${V1_CLASS.v1}(${v}) with options the migration cannot see: if they hold only apiToken and apiBase, pass new ${V2_CLASS}({ bearer: ${v}.apiToken, serverURL: ${v}.apiBase ? \`\${${v}.apiBase}/api\` : undefined }) (V1 appended /api to apiBase, V2 takes serverURL verbatim)`,
    );
  }

  /** The object literal of `const name = { … }` when that is the binding `name` resolves to at `from`. */
  private constObject(from: ASTPath, name: string): AnyNode | undefined {
    const scope = (from as unknown as { scope?: { lookup(n: string): { getBindings(): Record<string, ASTPath[]> } | null } }).scope;
    const binding = scope?.lookup(name)?.getBindings()[name]?.[0];
    const declarator = binding?.parent?.node as AnyNode | undefined;
    const declaration = binding?.parent?.parent?.node as AnyNode | undefined;
    if (declarator?.type !== "VariableDeclarator" || declarator.id !== binding?.node || declaration?.kind !== "const") return undefined;
    let init = declarator.init as AnyNode | undefined;
    while (init && (init.type === "TSAsExpression" || init.type === "TSSatisfiesExpression")) init = init.expression as AnyNode;
    return init?.type === "ObjectExpression" ? init : undefined;
  }

  // -------------------------------------------------------------- namespaces

  private migrateNamespaceMember(path: ASTPath): void {
    const node = path.node as AnyNode;
    const property = node.property as AnyNode;
    const name = property.name as string;
    if (name === V1_CLASS.v1) {
      node.property = this.j.identifier(V2_CLASS);
      this.rewrite("v1-sdk-import", lineOf(node), `${V1_CLASS.v1} → ${V2_CLASS}`);
      return;
    }
    const parent = path.parent?.node as AnyNode | undefined;
    // A call of it has its own finding, which rewrites it (before or after this one).
    if (name === WEBHOOK_PARSER && (this.rewrittenCallees.has(node) || (isCall(parent) && parent!.callee === node))) return;
    this.mark(path, "v1-sdk-import", this.schemaAdvice(name));
  }

  private migrateImportType(path: ASTPath): void {
    const node = path.node as AnyNode;
    const qualifier = node.qualifier as AnyNode | undefined;
    if (qualifier?.type === "Identifier" && qualifier.name === V1_CLASS.v1) {
      node.qualifier = this.j.identifier(V2_CLASS);
      this.rewrite("v1-sdk-import", lineOf(node), `import("comfydeploy").${V1_CLASS.v1} → ${V2_CLASS}`);
      this.markIndexedAccess(path);
      return;
    }
    this.mark(path, "v1-sdk-import", this.schemaAdvice((qualifier?.name as string | undefined) ?? "this name"));
  }

  /** `ns.ComfyDeployClient` in type positions: the scan reports values only, so types follow the namespace import. */
  private migrateNamespaceTypes(): void {
    if (this.bindings.namespaces.size === 0) return;
    this.root.find(this.j.TSQualifiedName).forEach((path) => {
      const node = path.node as unknown as AnyNode;
      const left = node.left as AnyNode;
      const right = node.right as AnyNode;
      if (left.type !== "Identifier" || !this.bindings.namespaces.has(left.name as string) || right.name !== V1_CLASS.v1) return;
      node.right = this.j.identifier(V2_CLASS);
      this.rewrite("v1-sdk-import", lineOf(node), `${left.name as string}.${V1_CLASS.v1} → ${left.name as string}.${V2_CLASS} (type)`);
      this.markIndexedAccess(path.parent as ASTPath);
    });
  }

  private schemaAdvice(name: string): string {
    if (name === WEBHOOK_SCHEMA) {
      return `${WEBHOOK_SCHEMA} is the V1 webhook schema: the migrated parseWebhookDataSafe calls keep its snake_case shape ({ status, run_id, outputs }), so declare that type locally; or move to validateWebhook and WorkflowRunWebhookBody (${COMPONENTS_MODULE}), whose keys are camelCase (runId, liveStatus)`;
    }
    if (name === OUTPUT_FILE_SCHEMA) {
      return `${OUTPUT_FILE_SCHEMA} is a V1 zod schema: as a type use Pick<${MEDIA_ITEM}, "url" | "filename"> (${MEDIA_ITEM} from ${COMPONENTS_MODULE}); V2 has no public schema for it`;
    }
    if (name === WEBHOOK_PARSER) return `${WEBHOOK_PARSER} used as a value: call new ${V2_CLASS}().validateWebhook({ request }) instead (it throws and answers in camelCase)`;
    return `${name} is V1 SDK API with no V2 counterpart`;
  }

  // ----------------------------------------------------------------- imports

  private flaggedSpecifiers(): SdkSpecifier[] {
    return this.bindings.specifiers.filter((s) => {
      const node = s.path.node as AnyNode;
      return this.flagged.has(node) || this.flagged.has(node.imported) || this.flagged.has(node.key) || this.flagged.has(node.local);
    });
  }

  private classSpecifierFor(local: string): SdkSpecifier | undefined {
    return this.flaggedSpecifiers().find((s) => s.imported === V1_CLASS.v1 && s.local === local);
  }

  /** Decides the V2 class's local name before any call is rewritten (webhook calls need it). */
  private planClassName(): void {
    const existing = this.bindings.specifiers.find((s) => s.imported === V2_CLASS && !s.typeOnly);
    for (const spec of this.flaggedSpecifiers()) {
      if (spec.imported !== V1_CLASS.v1) continue;
      const local = spec.local !== spec.imported ? spec.local : existing ? existing.local : isNameTaken(this.j, this.root, V2_CLASS) ? spec.local : V2_CLASS;
      this.renamedClassSpecifiers.set(spec, local);
      if (!spec.typeOnly) this.v2ClassName ??= local;
    }
    if (this.v2ClassName) return;
    if (existing) {
      this.v2ClassName = existing.local;
    } else if (!isNameTaken(this.j, this.root, V2_CLASS)) {
      this.v2ClassName = V2_CLASS;
      this.importClassForWebhook = true;
    }
  }

  private migrateImports(): void {
    for (const [spec, local] of this.renamedClassSpecifiers) this.migrateClassSpecifier(spec, local);
    for (const spec of this.flaggedSpecifiers()) {
      if (spec.imported === WEBHOOK_PARSER) this.migrateWebhookSpecifier(spec);
      else if (spec.imported === OUTPUT_FILE_SCHEMA) this.migrateOutputFileSpecifier(spec);
      else if (spec.imported === WEBHOOK_SCHEMA) this.markSchemaUses(spec);
    }
    for (const spec of this.flaggedSpecifiers()) {
      const written = spec.source.value;
      if (reRootSource(spec)) this.rewrite("v1-sdk-import", lineOf(spec.declaration.node), `"${String(written)}" → "${JS_SDK.packageName}": V2 has no such file, its package root exports the V2 names`);
    }
  }

  private migrateClassSpecifier(spec: SdkSpecifier, local: string): void {
    const existing = this.bindings.specifiers.find((s) => s.imported === V2_CLASS && s.local === local);
    const references = referencesOf(this.j, this.root, spec.local, spec.path);
    for (const ref of references) {
      this.checkClassTypeUse(ref);
      if (local !== spec.local) this.renameReference(ref, local);
    }
    if (existing) this.removeSpecifier(spec);
    else this.setImported(spec, V2_CLASS, local);
    this.rewrite("v1-sdk-import", lineOf(spec.path.node), `${V1_CLASS.v1} → ${V2_CLASS}${local !== V2_CLASS ? ` (as ${local})` : ""}`);
  }

  /** V1 method types and subclasses cannot follow the rename: they get a marker (and fail to compile, which is the point). */
  private checkClassTypeUse(ref: ASTPath): void {
    const parent = ref.parent?.node as AnyNode | undefined;
    if (parent?.type === "ClassDeclaration" || parent?.type === "ClassExpression") {
      if (ref.name === "superClass") {
        this.mark(ref, "v1-sdk-client", `a subclass of the V1 client: port its overrides and its calls of V1 methods (run, getRun, …) to ${V2_CLASS} by hand`);
      }
      return;
    }
    if (parent?.type === "TSTypeReference" || parent?.type === "TSTypeQuery") this.markIndexedAccess(ref.parent as ASTPath);
  }

  /** `ComfyDeployClient["getRun"]` and friends name V1 signatures that V2 does not have. */
  private markIndexedAccess(typePath: ASTPath): void {
    let current: ASTPath | null = typePath;
    while (current && (current.node as AnyNode).type === "TSParenthesizedType") current = current.parent as ASTPath;
    const parent = current?.parent?.node as AnyNode | undefined;
    if (!current || parent?.type !== "TSIndexedAccessType" || parent.objectType !== current.node) return;
    const index = parent.indexType as AnyNode;
    const literal = index.type === "TSLiteralType" ? ((index.literal as AnyNode).value as string | undefined) : undefined;
    const name = literal ?? "member";
    const ruleId: RuleId = CLIENT_PROPERTIES.has(name) ? "v1-sdk-client" : "v1-sdk-call";
    const v2 = V1_CLIENT_METHODS.find((m) => m.v1 === name)?.v2;
    const advice = v2
      ? `the type of V1 ${V1_CLASS.v1}["${name}"] has no V2 equivalent: the migrated calls still resolve to the V1 result shape or null, so spell that type out (V2 method: ${v2})`
      : `the type of V1 ${V1_CLASS.v1}["${name}"] has no V2 equivalent: ${CLIENT_PROPERTIES.has(name) ? "the value is internal in V2" : methodAdvice(name)}`;
    this.mark(current.parent as ASTPath, ruleId, advice);
  }

  private migrateWebhookSpecifier(spec: SdkSpecifier): void {
    const remaining = referencesOf(this.j, this.root, spec.local, spec.path);
    if (remaining.length > 0) {
      if (remaining.some((ref) => !this.isWebhookParserCallee(ref))) this.mark(spec.path, "v1-sdk-import", this.schemaAdvice(WEBHOOK_PARSER));
      if (this.webhookRewritten && this.importClassForWebhook) this.addSpecifierNextTo(spec, V2_CLASS);
      return;
    }
    if (this.webhookRewritten && this.importClassForWebhook) {
      this.setImported(spec, V2_CLASS, V2_CLASS);
      this.importClassForWebhook = false;
    } else {
      this.removeSpecifier(spec);
    }
    this.rewrite("v1-sdk-import", lineOf(spec.path.node), `${WEBHOOK_PARSER} import → ${V2_CLASS} (for validateWebhook)`);
  }

  private migrateOutputFileSpecifier(spec: SdkSpecifier): void {
    const references = referencesOf(this.j, this.root, spec.local, spec.path);
    const mediaTaken = isNameTaken(this.j, this.root, MEDIA_ITEM);
    let rewritten = 0;
    for (const ref of references) {
      const inferred = this.zodInferOf(ref);
      if (!inferred || mediaTaken || !this.style.typescript) {
        this.mark(ref, "v1-sdk-import", this.schemaAdvice(OUTPUT_FILE_SCHEMA));
        continue;
      }
      const q = this.style.quote;
      inferred.replace(typeFrom(this.j, `Pick<${MEDIA_ITEM}, ${q}url${q} | ${q}filename${q}>`));
      rewritten++;
      this.rewrite("v1-sdk-import", lineOf(ref.node), `z.infer<typeof ${OUTPUT_FILE_SCHEMA}> → Pick<${MEDIA_ITEM}, "url" | "filename"> (the V1 shape)`);
    }
    if (rewritten === 0) return;
    this.addTypeImport(spec, MEDIA_ITEM);
    if (rewritten === references.length) this.removeSpecifier(spec);
  }

  private markSchemaUses(spec: SdkSpecifier): void {
    // The import itself stops compiling against V2, and so does every use.
    this.mark(spec.path, "v1-sdk-import", this.schemaAdvice(spec.imported));
    for (const ref of referencesOf(this.j, this.root, spec.local, spec.path)) this.mark(ref, "v1-sdk-import", this.schemaAdvice(spec.imported));
  }

  /** `z.infer<typeof X>` (or output/input) around a reference to X, as the path of the whole type. */
  private zodInferOf(ref: ASTPath): ASTPath | undefined {
    const query = ref.parent as ASTPath | undefined;
    if ((query?.node as AnyNode | undefined)?.type !== "TSTypeQuery") return undefined;
    const params = query!.parent as ASTPath | undefined;
    const reference = params?.parent as ASTPath | undefined;
    const node = reference?.node as AnyNode | undefined;
    if (node?.type !== "TSTypeReference") return undefined;
    const name = node.typeName as AnyNode;
    const helper = name.type === "TSQualifiedName" ? ((name.right as AnyNode).name as string) : undefined;
    const typeArgs = (node.typeParameters ?? node.typeArguments) as AnyNode | undefined;
    if (!helper || !ZOD_TYPE_HELPERS.has(helper) || (typeArgs?.params as unknown[] | undefined)?.length !== 1) return undefined;
    return reference;
  }

  // ---------------------------------------------------- specifier plumbing

  private renameReference(ref: ASTPath, name: string): void {
    const parent = ref.parent?.node as AnyNode | undefined;
    if (parent && (parent.type === "ObjectProperty" || parent.type === "Property") && parent.shorthand) parent.shorthand = false;
    ref.replace(this.j.identifier(name));
  }

  private setImported(spec: SdkSpecifier, imported: string, local: string): void {
    const node = spec.path.node as AnyNode;
    const j = this.j;
    if (spec.kind === "import") {
      node.imported = j.identifier(imported);
      node.local = j.identifier(local);
    } else {
      node.key = j.identifier(imported);
      node.value = j.identifier(local);
      node.shorthand = imported === local;
    }
  }

  private removeSpecifier(spec: SdkSpecifier): void {
    const declaration = spec.declaration.node as AnyNode;
    if (spec.kind === "import") {
      const specifiers = declaration.specifiers as AnyNode[];
      declaration.specifiers = specifiers.filter((s) => s !== spec.path.node);
      if ((declaration.specifiers as AnyNode[]).length === 0) this.removeStatement(spec.declaration);
      return;
    }
    const pattern = spec.path.parent!.node as AnyNode;
    pattern.properties = (pattern.properties as AnyNode[]).filter((p) => p !== spec.path.node);
    if ((pattern.properties as AnyNode[]).length === 0) this.removeStatement(spec.declaration);
  }

  private removeStatement(path: ASTPath): void {
    const node = path.node as AnyNode & { comments?: unknown[] };
    const comments = node.comments ?? [];
    const body = path.parent?.node?.body as AnyNode[] | undefined;
    if (comments.length > 0 && body) {
      const next = body[body.indexOf(node) + 1] as (AnyNode & { comments?: unknown[] }) | undefined;
      if (next) next.comments = [...comments, ...(next.comments ?? [])];
    }
    path.prune();
  }

  /** Adds `Name` to the import (or destructuring) that holds `spec`. */
  private addSpecifierNextTo(spec: SdkSpecifier, name: string): void {
    const j = this.j;
    if (spec.kind === "import") {
      const declaration = spec.declaration.node as AnyNode;
      (declaration.specifiers as unknown[]).push(j.importSpecifier(j.identifier(name)));
    } else {
      const pattern = spec.path.parent!.node as AnyNode;
      const prop = j.objectProperty(j.identifier(name), j.identifier(name));
      (prop as unknown as AnyNode).shorthand = true;
      (pattern.properties as unknown[]).push(prop);
    }
  }

  /** `import type { MediaItem } from "comfydeploy/models/components/index.js"`, once, below the SDK import. */
  private addTypeImport(spec: SdkSpecifier, name: string): void {
    const j = this.j;
    const existing = this.root
      .find(j.ImportDeclaration)
      .filter((p) => (p.node.source as AnyNode).value === COMPONENTS_MODULE);
    if (existing.size() > 0) {
      const declaration = existing.paths()[0]!.node as unknown as AnyNode;
      const has = (declaration.specifiers as AnyNode[]).some((s) => (s.local as AnyNode | undefined)?.name === name);
      if (!has) (declaration.specifiers as unknown[]).push(j.importSpecifier(j.identifier(name)));
      return;
    }
    const q = this.style.quote;
    const [statement] = statementsFrom(j, `import type { ${name} } from ${q}${COMPONENTS_MODULE}${q};`);
    const anchor = spec.kind === "import" ? spec.declaration : (statementOf(spec.declaration) as ASTPath);
    anchor.insertAfter(statement);
  }

  // ------------------------------------------------------------ the helper

  /** The outputs helper's source when a rewrite needs it and the file does not declare it yet. */
  helperToAppend(): string | undefined {
    if (!this.needsOutputsHelper) return undefined;
    const j = this.j;
    const declared = this.root
      .find(j.FunctionDeclaration)
      .filter((p) => (p.node.id as AnyNode | null)?.name === OUTPUTS_HELPER && p.parent?.node.type === "Program");
    return declared.size() > 0 ? undefined : outputsHelperSource(this.style);
  }
}

export default function transform(file: FileInfo, api: API, options: MigrationOptions): string {
  const findings = options.findings.filter((f) => SDK_RULES.has(f.ruleId));
  if (findings.length === 0) return file.source;
  const j = api.jscodeshift;
  const root = j(file.source);
  const migration = new SdkMigration(j, root, file, findings, options.report);
  migration.run();
  if (!migration.changed) return file.source;
  const output = root.toSource(migration.print);
  const helper = migration.helperToAppend();
  // Appended as text, after a blank line: a function declaration is hoisted, so call sites above can use it.
  return helper ? `${output.replace(/\n*$/, "")}\n\n${helper}\n` : output;
}
