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
 *   5. addCompatImport the package's compat module, when a step used it
 *      (what V1 gave that V2 lacks, kept on V2; written once per package)
 */
import type { API, FileInfo } from "jscodeshift";
import type { MigrationOptions } from "../lib/jscodeshift-part.js";
import { insertImportLines } from "../lib/import-lines.js";
import { createContext, type SdkContext } from "./context.js";
import { renameImports } from "./steps/imports.js";
import { renameNamespaceTypes } from "./steps/namespaces.js";
import { planClassName } from "./steps/plan-class-name.js";
import { rewriteSites } from "./steps/rewrite-sites.js";

const SDK_RULES: ReadonlySet<string> = new Set(["v1-sdk-import", "v1-sdk-client", "v1-sdk-call", "v1-sdk-type"]);

export default function transform(file: FileInfo, api: API, options: MigrationOptions): string {
  const findings = options.findings.filter((f) => SDK_RULES.has(f.ruleId));
  if (findings.length === 0) return file.source;
  const j = api.jscodeshift;
  const context = createContext(j, j(file.source), file, findings, options.report, options.useSupportModule);
  planClassName(context);
  rewriteSites(context, findings);
  renameImports(context);
  renameNamespaceTypes(context);
  if (!context.changed) return file.source;
  return insertImportLines(
    context.root.toSource(context.print),
    [...context.importLines, ...compatNamespaceImport(context)],
    file.path,
  );
}

/** One namespace import of the compat module (type-only when only types use it), when a step used it. */
function compatNamespaceImport(context: SdkContext): string[] {
  const compat = context.compatImport;
  if (!compat) return [];
  const { style } = context;
  const from = `${style.quote}${compat.specifier}${style.quote}`;
  if (compat.syntax === "cjs") return [`const ${compat.local} = require(${from});`];
  return [`import ${!compat.values && style.typescript ? "type " : ""}* as ${compat.local} from ${from};`];
}
