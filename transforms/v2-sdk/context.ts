/**
 * What every step of the v2-sdk recipe shares: the tree, the file's style,
 * the SDK bindings, the nodes the scan flagged, the decisions earlier steps
 * made, and the two ways a step reports what it did (a rewrite, a marker).
 */
import type { ASTPath, Collection, FileInfo, JSCodeshift } from "jscodeshift";
import type { Finding } from "../../src/core/finding.js";
import {
  JS_SDK_SHAPES,
  V1_CLIENT_METHODS,
  V1_CLIENT_PROPERTIES,
  V1_SDK_EXPORTS,
} from "../../src/knowledge/migration.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { addMarker, statementOf } from "../lib/markers.js";
import { type SourceStyle, sourceStyleOf } from "../lib/source-style.js";
import { SpanIndex } from "../lib/span-index.js";
import type { EnvChange, FixEvent, SupportImport, SupportModule } from "../types.js";
import { COMPAT_MODULE } from "./compat/module.js";
import { isNameTaken, isSdkModuleCall, type SdkBindings, type SdkSpecifier, sdkBindingsOf } from "./sdk-bindings.js";
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
  /** V1 class specifiers and the local name each gets. */
  readonly renamedClassSpecifiers: Map<SdkSpecifier, string>;
  readonly sourceStyle: SourceStyle;
  /** Import lines to add once the file is printed (see lib/import-lines.ts). */
  readonly importLines: string[];
  /** How this file imports the package's compat module as a namespace, once a step has used it. */
  compatImport: CompatImport | undefined;
  /** Asks for the package's compat module (the runner writes it once) and says how this file imports it. */
  compatModule(): SupportImport;
  changed: boolean;
  /** The compat module's local name in this file; the import is added when the file is printed. */
  compat(use: "value" | "type"): string;
  rewrite(ruleId: RuleId, line: number, message: string, env?: EnvChange): void;
  /** A review marker; `leavesV1` false when the code below it already runs on V2 (a note, not a leftover). */
  mark(path: ASTPath, ruleId: RuleId, advice: string, leavesV1?: boolean): void;
}

/** How a file refers to the compat module. */
export interface CompatImport extends SupportImport {
  local: string;
  /** Some use is a value (else the import can be type-only). */
  values: boolean;
}

const COMPAT_LOCAL_NAMES = ["v1Compat", "comfydeployV1Compat"];

export function createContext(
  j: JSCodeshift,
  root: Collection,
  file: FileInfo,
  findings: readonly Finding[],
  report: (event: FixEvent) => void,
  useSupportModule: (module: SupportModule) => SupportImport,
): SdkContext {
  const sites = new SpanIndex(j, root, file.source);
  const sourceStyle = sourceStyleOf(file.source);
  const { quote, trailingComma, indent } = sourceStyle;
  const flagged = new Set<unknown>();
  for (const finding of findings) for (const path of sites.at(finding)) flagged.add(path.node);
  const context: SdkContext = {
    j,
    root,
    file,
    bindings: sdkBindingsOf(j, root, sites, findings),
    sites,
    print: { quote, trailingComma, arrowParensAlways: true, useTabs: indent === "\t" },
    style: { typescript: isTypeScript(file.path), quote: quote === "single" ? "'" : '"', indent, trailingComma },
    flagged,
    v2ClassName: undefined,
    renamedClassSpecifiers: new Map(),
    sourceStyle,
    importLines: [],
    compatImport: undefined,
    changed: false,
    compatModule: () => useSupportModule(COMPAT_MODULE),
    compat(use) {
      if (!context.compatImport) {
        const local = COMPAT_LOCAL_NAMES.find((name) => !isNameTaken(j, root, name)) ?? COMPAT_LOCAL_NAMES[0]!;
        context.compatImport = { local, ...context.compatModule(), values: false };
      }
      if (use === "value") context.compatImport.values = true;
      return context.compatImport.local;
    },
    rewrite(ruleId, line, message, env) {
      context.changed = true;
      report({ kind: "rewrite", ruleId, line, message, ...(env ? { env } : {}) });
    },
    mark(path, ruleId, advice, leavesV1 = true) {
      const line = lineOf(statementOf(path).node);
      if (addMarker(j, path, ruleId, advice)) {
        context.changed = true;
        report({ kind: "marker", ruleId, line, message: advice, ...(leavesV1 ? { leavesV1 } : {}) });
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
    return (
      context.flagged.has(node) ||
      context.flagged.has(node.imported) ||
      context.flagged.has(node.key) ||
      context.flagged.has(node.local)
    );
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
