/**
 * v2-sdk for JS/TS: moves code from the V1 JS SDK (`comfydeploy` 0.0.x,
 * `ComfyDeployClient`) to the V2 SDK (`comfydeploy` 2.0.0-beta.69,
 * `ComfyDeploy`).
 *
 * Policy: adapt at the call site. V1 returned `null` on failure (after a
 * `console.error`) and answered in snake_case; V2 throws and answers in
 * camelCase, and apps read the V1 shape in other files. So every rewritten
 * call keeps the V1 contract: it resolves to exactly the V1 result shape and
 * turns a thrown V2 error into what V1 gave instead (`console.error` + `null`,
 * or `[undefined, Response(500)]` for webhooks). Callers, and the files they
 * live in, need no change. See v1-result-adapters.ts for the field map.
 * Deliberate differences, all in V1's failure quirks: V1 answered null for a
 * run whose status was outside its enum ("cancelled") and a 500 for such a
 * webhook; the adapters pass the status through. V1 parsed GET webhooks from
 * the query string; V2 reads the body only.
 *
 * The scan already proved which nodes are V1 (imports, clients through
 * aliases, fields and factories); this transform only rewrites the nodes its
 * findings point at. The recipe, in order:
 *   1. planClassName   the V2 class's local name in this file
 *   2. rewriteSites    each flagged site, later ones first: client calls
 *                      (run, getRun, V1-only methods), webhook parsing, the
 *                      constructor, client properties, namespace members
 *   3. renameImports   the import and require specifiers of V1 names
 *   4. renameNamespaceTypes  `ns.ComfyDeployClient` in type positions
 *   5. the outputs helper, when a rewrite needs it
 */
import type { API, FileInfo } from "jscodeshift";
import type { MigrationOptions } from "../lib/jscodeshift-part.js";
import { type AnyNode, createContext, type SdkContext } from "./context.js";
import { renameImports } from "./steps/imports.js";
import { renameNamespaceTypes } from "./steps/namespaces.js";
import { planClassName } from "./steps/plan-class-name.js";
import { rewriteSites } from "./steps/rewrite-sites.js";
import { OUTPUTS_HELPER, outputsHelperSource } from "./v1-result-adapters.js";

const SDK_RULES: ReadonlySet<string> = new Set(["v1-sdk-import", "v1-sdk-client", "v1-sdk-call"]);

export default function transform(file: FileInfo, api: API, options: MigrationOptions): string {
  const findings = options.findings.filter((f) => SDK_RULES.has(f.ruleId));
  if (findings.length === 0) return file.source;
  const j = api.jscodeshift;
  const context = createContext(j, j(file.source), file, findings, options.report);
  planClassName(context);
  rewriteSites(context, findings);
  renameImports(context);
  renameNamespaceTypes(context);
  if (!context.changed) return file.source;
  const output = context.root.toSource(context.print);
  const helper = outputsHelperToAppend(context);
  // Appended as text, after a blank line: a function declaration is hoisted, so call sites above can use it.
  return helper ? `${output.replace(/\n*$/, "")}\n\n${helper}\n` : output;
}

/** The outputs helper's source when a rewrite needs it and the file does not declare it yet. */
function outputsHelperToAppend(context: SdkContext): string | undefined {
  if (!context.needsOutputsHelper) return undefined;
  const { j, root } = context;
  const declared = root
    .find(j.FunctionDeclaration)
    .filter((p) => (p.node.id as AnyNode | null)?.name === OUTPUTS_HELPER && p.parent?.node.type === "Program");
  return declared.size() > 0 ? undefined : outputsHelperSource(context.style);
}
