/**
 * What every step of the v2-sdk recipe shares: the tree, the file's style,
 * the SDK bindings, the nodes the scan flagged, the decisions earlier steps
 * made, and the two ways a step reports what it did (a rewrite, a marker).
 */
import type { ASTPath, Collection, FileInfo, JSCodeshift } from "jscodeshift";
import type { Finding } from "../../src/core/finding.js";
import { JS_SDK_SHAPES, V1_CLIENT_METHODS, V1_CLIENT_PROPERTIES, V1_SDK_EXPORTS } from "../../src/knowledge/migration.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { addMarker, preferredQuote, statementOf } from "../lib/markers.js";
import { SpanIndex } from "../lib/span-index.js";
import type { FixEvent } from "../types.js";
import { isSdkModuleCall, type SdkBindings, sdkBindings, type SdkSpecifier } from "./sdk-bindings.js";
import type { PrintOptions } from "./snippets.js";
import type { AdapterStyle } from "./v1-result-adapters.js";

export type AnyNode = { type: string; [key: string]: unknown };

const V1_CLASS_EXPORT = V1_SDK_EXPORTS.find((e) => e.v1 === "ComfyDeployClient")!;
export const V1_CLASS = V1_CLASS_EXPORT.v1;
export const V2_CLASS = V1_CLASS_EXPORT.v2;
export const WEBHOOK_PARSER = "parseWebhookDataSafe";
export const WEBHOOK_SCHEMA = "WebookRequestBody";
export const OUTPUT_FILE_SCHEMA = "OutputFileType";
/** V2's output item type and where an ESM file can import it from (the package has no exports map). */
export const MEDIA_ITEM = V1_SDK_EXPORTS.find((e) => e.v1 === OUTPUT_FILE_SCHEMA)!.v2;
export const COMPONENTS_MODULE = JS_SDK_SHAPES.componentsModule;
export const RUN_KEYS: Readonly<Record<string, string>> = JS_SDK_SHAPES.runKeys;
export const CLIENT_PROPERTIES: ReadonlySet<string> = new Set(V1_CLIENT_PROPERTIES);

export interface SdkContext {
  readonly j: JSCodeshift;
  readonly root: Collection;
  readonly file: FileInfo;
  readonly bindings: SdkBindings;
  readonly sites: SpanIndex;
  readonly style: AdapterStyle;
  readonly print: PrintOptions;
  /** Nodes the scan's findings point at. */
  readonly flagged: ReadonlySet<unknown>;
  /** The local name the V2 class has in this file once imports are migrated (undefined: none can be named). */
  v2ClassName: string | undefined;
  /** The V2 class name has to be imported next to parseWebhookDataSafe's specifier. */
  importClassForWebhook: boolean;
  webhookRewritten: boolean;
  /** V1 class specifiers and the local name each gets. */
  readonly renamedClassSpecifiers: Map<SdkSpecifier, string>;
  /** Callees of webhook calls already rewritten (their import finding needs nothing more). */
  readonly rewrittenCallees: Set<unknown>;
  /** A rewrite adapts V2 outputs to V1's lists, so the file needs the outputs helper. */
  needsOutputsHelper: boolean;
  changed: boolean;
  rewrite(ruleId: RuleId, line: number, message: string): void;
  mark(path: ASTPath, ruleId: RuleId, advice: string): void;
}

export function createContext(j: JSCodeshift, root: Collection, file: FileInfo, findings: readonly Finding[], report: (event: FixEvent) => void): SdkContext {
  const sites = new SpanIndex(j, root, file.source);
  const quote = preferredQuote(file.source);
  const trailingComma = usesTrailingCommas(file.source);
  const indent = indentUnit(file.source);
  const flagged = new Set<unknown>();
  for (const finding of findings) for (const path of sites.at(finding)) flagged.add(path.node);
  const context: SdkContext = {
    j,
    root,
    file,
    bindings: sdkBindings(j, root),
    sites,
    print: { quote, trailingComma, arrowParensAlways: true, useTabs: indent === "\t" },
    style: { typescript: isTypeScript(file.path), quote: quote === "single" ? "'" : '"', indent, trailingComma },
    flagged,
    v2ClassName: undefined,
    importClassForWebhook: false,
    webhookRewritten: false,
    renamedClassSpecifiers: new Map(),
    rewrittenCallees: new Set(),
    needsOutputsHelper: false,
    changed: false,
    rewrite(ruleId, line, message) {
      context.changed = true;
      report({ kind: "rewrite", ruleId, line, message });
    },
    mark(path, ruleId, advice) {
      const line = lineOf(statementOf(path).node);
      if (addMarker(j, path, ruleId, advice)) {
        context.changed = true;
        report({ kind: "marker", ruleId, line, message: advice });
      }
    },
  };
  return context;
}

/** The advice V1's method mapping gives for a client method. */
export function methodAdvice(method: string): string {
  const mapping = V1_CLIENT_METHODS.find((m) => m.v1 === method);
  return mapping ? mapping.advice : "no V2 equivalent";
}

/** True when an expression is the SDK module itself: a namespace import or a require/import() of it. */
export function isSdkNamespace(context: SdkContext, node: AnyNode): boolean {
  if (node.type === "Identifier") return context.bindings.namespaces.has(node.name as string);
  return isSdkModuleCall(node);
}

/** The flagged import specifiers and destructured requires of V1 names. */
export function flaggedSpecifiers(context: SdkContext): SdkSpecifier[] {
  return context.bindings.specifiers.filter((s) => {
    const node = s.path.node as AnyNode;
    return context.flagged.has(node) || context.flagged.has(node.imported) || context.flagged.has(node.key) || context.flagged.has(node.local);
  });
}

export function isMember(node: AnyNode | undefined): boolean {
  return node?.type === "MemberExpression" || node?.type === "OptionalMemberExpression";
}

export function isCall(node: AnyNode | undefined): boolean {
  return node?.type === "CallExpression" || node?.type === "OptionalCallExpression";
}

export function lineOf(node: unknown): number {
  return (node as { loc?: { start: { line: number } } }).loc?.start.line ?? 1;
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
