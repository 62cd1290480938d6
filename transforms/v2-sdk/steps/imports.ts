/**
 * Step 3: the imports and requires of V1 names. The class specifier becomes
 * the V2 class (its references renamed where its local name changes; V1
 * method types become the compat module's); V1's webhook parser and schemas
 * move to the compat module under the same names, so the code using them
 * keeps its behaviour; a V1 deep import points at the package root.
 */
import type { ASTPath } from "jscodeshift";
import { JS_SDK } from "../../../src/knowledge/migration.js";
import { type AnyNode, flaggedSpecifiers, lineOf, type SdkContext, V1_CLASS, V2_CLASS } from "../context.js";
import { referencesOf, reRootSource, type SdkSpecifier } from "../sdk-bindings.js";
import { COMPAT_NAMES } from "./compat-names.js";
import { checkClassTypeUse } from "./type-positions.js";

export function renameImports(context: SdkContext): void {
  for (const [spec, local] of context.renamedClassSpecifiers) migrateClassSpecifier(context, spec, local);
  moveToCompat(
    context,
    flaggedSpecifiers(context).filter((spec) => COMPAT_NAMES.has(spec.imported)),
  );
  for (const spec of flaggedSpecifiers(context)) {
    const written = spec.source.value;
    if (reRootSource(spec))
      context.rewrite(
        "v1-sdk-import",
        lineOf(spec.declaration.node),
        `"${String(written)}" → "${JS_SDK.packageName}": V2 has no such file, its package root exports the V2 names`,
      );
  }
}

function migrateClassSpecifier(context: SdkContext, spec: SdkSpecifier, local: string): void {
  const existing = context.bindings.specifiers.find((s) => s.imported === V2_CLASS && s.local === local);
  const references = referencesOf(context.j, context.root, spec.local, spec.path);
  let replaced = 0;
  for (const ref of references) {
    // A V1 method type (ComfyDeployClient["getRun"]) becomes the compat module's: that reference is gone.
    if (checkClassTypeUse(context, ref)) {
      replaced++;
      continue;
    }
    if (local !== spec.local) renameReference(context, ref, local);
  }
  if (replaced > 0 && replaced === references.length) {
    removeSpecifier(spec);
    context.rewrite(
      "v1-sdk-import",
      lineOf(spec.path.node),
      `${V1_CLASS} import removed: it named only V1 member types, which now come from the compat module`,
    );
    return;
  }
  if (existing) removeSpecifier(spec);
  else setImported(context, spec, V2_CLASS, local);
  context.rewrite(
    "v1-sdk-import",
    lineOf(spec.path.node),
    `${V1_CLASS} → ${V2_CLASS}${local !== V2_CLASS ? ` (as ${local})` : ""}`,
  );
}

// ---------------------------------------------------- specifier plumbing

function renameReference(context: SdkContext, ref: ASTPath, name: string): void {
  const parent = ref.parent?.node as AnyNode | undefined;
  if (parent && (parent.type === "ObjectProperty" || parent.type === "Property") && parent.shorthand)
    parent.shorthand = false;
  ref.replace(context.j.identifier(name));
}

function setImported(context: SdkContext, spec: SdkSpecifier, imported: string, local: string): void {
  const node = spec.path.node as AnyNode;
  const j = context.j;
  if (spec.kind === "import") {
    node.imported = j.identifier(imported);
    node.local = j.identifier(local);
  } else {
    node.key = j.identifier(imported);
    node.value = j.identifier(local);
    node.shorthand = imported === local;
  }
}

function removeSpecifier(spec: SdkSpecifier): void {
  const declaration = spec.declaration.node as AnyNode;
  if (spec.kind === "import") {
    const specifiers = declaration.specifiers as AnyNode[];
    declaration.specifiers = specifiers.filter((s) => s !== spec.path.node);
    if ((declaration.specifiers as AnyNode[]).length === 0) removeStatement(spec.declaration);
    return;
  }
  const pattern = spec.path.parent!.node as AnyNode;
  pattern.properties = (pattern.properties as AnyNode[]).filter((p) => p !== spec.path.node);
  if ((pattern.properties as AnyNode[]).length === 0) removeStatement(spec.declaration);
}

function removeStatement(path: ASTPath): void {
  const node = path.node as AnyNode & { comments?: unknown[] };
  const comments = node.comments ?? [];
  const body = path.parent?.node?.body as AnyNode[] | undefined;
  if (comments.length > 0 && body) {
    const next = body[body.indexOf(node) + 1] as (AnyNode & { comments?: unknown[] }) | undefined;
    if (next) next.comments = [...comments, ...(next.comments ?? [])];
  }
  path.prune();
}

/**
 * `import { parseWebhookDataSafe } from "comfydeploy"` → the same names from
 * the compat module: the whole declaration when it holds nothing else, else
 * a declaration of their own right after it.
 */
function moveToCompat(context: SdkContext, specs: readonly SdkSpecifier[]): void {
  if (specs.length === 0) return;
  const module = context.compatModule();
  const byDeclaration = new Map<ASTPath, SdkSpecifier[]>();
  for (const spec of specs) byDeclaration.set(spec.declaration, [...(byDeclaration.get(spec.declaration) ?? []), spec]);
  for (const [declaration, moved] of byDeclaration) {
    const node = declaration.node as AnyNode;
    const listed =
      moved[0]!.kind === "import"
        ? (node.specifiers as unknown[])
        : ((moved[0]!.path.parent!.node as AnyNode).properties as unknown[]);
    const onlyThese = listed.length === moved.length;
    if (onlyThese) {
      moved[0]!.source.value = module.specifier;
      delete (moved[0]!.source as { extra?: unknown }).extra;
    } else {
      for (const spec of moved) removeSpecifier(spec);
      const names = moved.map((s) =>
        s.local === s.imported
          ? s.imported
          : s.kind === "import"
            ? `${s.imported} as ${s.local}`
            : `${s.imported}: ${s.local}`,
      );
      const q = context.style.quote;
      const typeOnly = moved.every((s) => s.typeOnly);
      const code =
        moved[0]!.kind === "destructure"
          ? `const { ${names.join(", ")} } = require(${q}${module.specifier}${q});`
          : `import ${typeOnly ? "type " : ""}{ ${names.join(", ")} } from ${q}${module.specifier}${q};`;
      context.importLines.push(code);
    }
    for (const spec of moved) {
      context.rewrite(
        "v1-sdk-import",
        lineOf(declaration.node),
        `${spec.imported} now comes from the compat module, which keeps V1's behaviour (V2 has no such export)`,
      );
    }
  }
}
