/**
 * Step 2: every site the scan flagged, later ones first (an inner call is
 * rewritten before the call around it re-prints it), handed to the step that
 * knows its shape.
 */
import type { ASTPath } from "jscodeshift";
import type { Finding } from "../../../src/core/finding.js";
import {
  type AnyNode,
  CLIENT_PROPERTIES,
  isCall,
  isMember,
  isSdkNamespace,
  type SdkContext,
  V2_CLASS,
  WEBHOOK_PARSER,
} from "../context.js";
import { rewriteClientCall } from "./client-calls.js";
import { convertConstructor } from "./constructor.js";
import { renameImportType, renameNamespaceMember } from "./namespaces.js";
import { moveNamespaceMember, routePropertyRead } from "./compat-names.js";
import { JS_SDK } from "../../../src/knowledge/migration.js";
import { isSdkModule } from "../../../src/lang/js/sdk-module.js";

export function rewriteSites(context: SdkContext, findings: readonly Finding[]): void {
  const ordered = [...findings].sort((a, b) => b.line - a.line || b.column - a.column);
  for (const finding of ordered) rewriteSite(context, finding);
}

function rewriteSite(context: SdkContext, finding: Finding): void {
  const paths = context.sites.at(finding);
  if (finding.ruleId === "v1-sdk-call") {
    const method = paths.find((p) => isMethodName(p));
    if (method) return rewriteClientCall(context, method);
    // parseWebhookDataSafe(req) keeps its name: the import moves to the compat module, a namespace call moves here.
    const parser = paths.find((p) => isWebhookParserCallee(context, p));
    if (parser && isMember(parser.node as AnyNode)) return moveNamespaceMember(context, parser);
    return;
  }
  if (finding.ruleId === "v1-sdk-client") {
    const created = paths.find((p) => (p.node as AnyNode).type === "NewExpression");
    if (created) return convertConstructor(context, created);
    const property = paths.find((p) => isPropertyRead(p));
    if (property) return routePropertyRead(context, property);
    return;
  }
  const exported = paths.find((p) => (p.node as AnyNode).type === "ExportSpecifier");
  if (exported) {
    return context.mark(
      exported,
      "v1-sdk-import",
      "re-export of a V1 SDK name: migrate the modules that import it from here, then export the V2 names (ComfyDeploy, validateWebhook, WorkflowRunWebhookBody, MediaItem)",
    );
  }
  const member = paths.find(
    (p) => isMember(p.node as AnyNode) && isSdkNamespace(context, (p.node as AnyNode).object as AnyNode),
  );
  if (member) return renameNamespaceMember(context, member);
  const importType = paths.find((p) => (p.node as AnyNode).type === "TSImportType");
  if (importType) return renameImportType(context, importType);
  const local = paths.find((p) => isLocalModuleImport(p));
  if (local) {
    return context.mark(
      local,
      "v1-sdk-import",
      `this imports a local copy of the V1 client: import { ${V2_CLASS} } from "${JS_SDK.packageName}" (${JS_SDK.v2Pin}) here instead, or migrate that copy`,
    );
  }
}

/** A binding imported from a module other than the SDK (`import { X } from "./lib"`, `const { X } = require("./lib")`): a local copy of the client. */
function isLocalModuleImport(path: ASTPath): boolean {
  const node = path.node as AnyNode;
  const parent = path.parent?.node as AnyNode | undefined;
  let source: AnyNode | undefined;
  if (
    (node.type === "ImportSpecifier" || node.type === "ImportDefaultSpecifier") &&
    parent?.type === "ImportDeclaration"
  )
    source = parent.source as AnyNode;
  else if ((node.type === "ObjectProperty" || node.type === "Property") && parent?.type === "ObjectPattern") {
    const init = path.parent?.parent?.node as AnyNode | undefined;
    const call = init?.type === "VariableDeclarator" ? (init.init as AnyNode | undefined) : undefined;
    const callee = call?.type === "CallExpression" ? (call.callee as AnyNode) : undefined;
    if (callee?.type === "Identifier" && callee.name === "require") source = (call!.arguments as AnyNode[])[0];
  }
  const module = source && typeof source.value === "string" ? source.value : undefined;
  return module !== undefined && !isSdkModule(module);
}

/** The name of a method in a call of it: `client.run` in `client.run(...)`. */
function isMethodName(path: ASTPath): boolean {
  const node = path.node as AnyNode;
  const parent = path.parent?.node as AnyNode | undefined;
  const grand = path.parent?.parent?.node as AnyNode | undefined;
  return (
    node.type === "Identifier" &&
    isMember(parent) &&
    parent!.property === node &&
    isCall(grand) &&
    grand!.callee === parent
  );
}

function isPropertyRead(path: ASTPath): boolean {
  const node = path.node as AnyNode;
  const parent = path.parent?.node as AnyNode | undefined;
  return (
    node.type === "Identifier" &&
    CLIENT_PROPERTIES.has(node.name as string) &&
    isMember(parent) &&
    parent!.property === node
  );
}

/** The callee of a parseWebhookDataSafe call: its imported name, or `ns.parseWebhookDataSafe`. */
export function isWebhookParserCallee(context: SdkContext, path: ASTPath): boolean {
  const node = path.node as AnyNode;
  const parent = path.parent?.node as AnyNode | undefined;
  if (!isCall(parent) || parent!.callee !== node) return false;
  if (node.type === "Identifier")
    return context.bindings.specifiers.some((s) => s.imported === WEBHOOK_PARSER && s.local === node.name);
  if (isMember(node)) {
    const property = node.property as AnyNode;
    return !node.computed && property.name === WEBHOOK_PARSER && isSdkNamespace(context, node.object as AnyNode);
  }
  return false;
}
