/**
 * The `js-sdk` facts of a file's V1 SDK findings: every name the file binds to
 * the `comfydeploy` package, read from the imports the analysis already
 * indexed, so that the v2-sdk transform edits these bindings by span instead
 * of reading the imports again.
 */
import { ts } from "./typescript-api.cjs";
import type { Finding } from "../../core/finding.js";
import type { JsSdkFacts, JsSdkImport } from "../../core/facts.js";
import { isSdkModule } from "../../lang/js/sdk-module.js";
import type { FileContext } from "./file-context.js";

/** The rules of V1 SDK use in code, the ones the v2-sdk transform acts on. */
const SDK_RULES: ReadonlySet<string> = new Set(["v1-sdk-import", "v1-sdk-client", "v1-sdk-call", "v1-sdk-type"]);

/** Gives each V1 SDK finding of the file the file's SDK bindings (one shared list, made only when such a finding exists). */
export function addJsSdkFacts(findings: readonly Finding[], context: FileContext): void {
  let facts: JsSdkFacts | undefined;
  for (const finding of findings) {
    if (!SDK_RULES.has(finding.ruleId) || finding.facts) continue;
    facts ??= { kind: "js-sdk", imports: sdkImports(context) };
    finding.facts = facts;
  }
}

function sdkImports(context: FileContext): JsSdkImport[] {
  const out: JsSdkImport[] = [];
  for (const [declaration, binding] of context.imports) {
    if (!isSdkModule(binding.module)) continue;
    const local = localNameOf(declaration);
    if (local === undefined) continue;
    out.push({
      module: binding.module,
      imported: binding.name,
      local,
      typeOnly: isTypeOnlyImport(declaration),
      span: { start: declaration.getStart(context.sourceFile), end: declaration.getEnd() },
    });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

/** The name a binding declares; none for `...rest` of a destructured require, which holds no one export. */
function localNameOf(declaration: ts.Node): string | undefined {
  if (ts.isBindingElement(declaration))
    return declaration.dotDotDotToken || !ts.isIdentifier(declaration.name) ? undefined : declaration.name.text;
  if (ts.isVariableDeclaration(declaration))
    return ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  if (
    ts.isImportSpecifier(declaration) ||
    ts.isImportClause(declaration) ||
    ts.isNamespaceImport(declaration) ||
    ts.isImportEqualsDeclaration(declaration)
  )
    return declaration.name?.text;
  return undefined;
}

/** `import type { X }` or `import { type X }`: the name is used in type positions only. */
export function isTypeOnlyImport(declaration: ts.Node): boolean {
  if (ts.isImportSpecifier(declaration)) return declaration.isTypeOnly || declaration.parent.parent.isTypeOnly;
  if (ts.isImportClause(declaration)) return declaration.isTypeOnly;
  if (ts.isNamespaceImport(declaration)) return declaration.parent.isTypeOnly;
  return false;
}
