/**
 * Step 3: the imports and requires of V1 names. The class specifier becomes
 * the V2 class (its references renamed where its local name changes);
 * parseWebhookDataSafe's specifier goes once every call is rewritten;
 * OutputFileType in `z.infer` becomes a `MediaItem` pick; the V1 webhook
 * schema is marked wherever it is used; a V1 deep import points at the
 * package root.
 */
import type { ASTPath } from "jscodeshift";
import { JS_SDK } from "../../../src/knowledge/migration.js";
import { schemaAdvice } from "../advice.js";
import { statementOf } from "../../lib/markers.js";
import {
  type AnyNode,
  COMPONENTS_MODULE,
  flaggedSpecifiers,
  lineOf,
  MEDIA_ITEM,
  OUTPUT_FILE_SCHEMA,
  type SdkContext,
  V1_CLASS,
  V2_CLASS,
  WEBHOOK_PARSER,
  WEBHOOK_SCHEMA,
} from "../context.js";
import { isNameTaken, referencesOf, reRootSource, type SdkSpecifier } from "../sdk-bindings.js";
import { statementsFrom, typeFrom } from "../snippets.js";
import { isWebhookParserCallee } from "./rewrite-sites.js";
import { checkClassTypeUse } from "./type-positions.js";

const ZOD_TYPE_HELPERS = new Set(["infer", "output", "input"]);

export function renameImports(context: SdkContext): void {
  for (const [spec, local] of context.renamedClassSpecifiers) migrateClassSpecifier(context, spec, local);
  for (const spec of flaggedSpecifiers(context)) {
    if (spec.imported === WEBHOOK_PARSER) migrateWebhookSpecifier(context, spec);
    else if (spec.imported === OUTPUT_FILE_SCHEMA) migrateOutputFileSpecifier(context, spec);
    else if (spec.imported === WEBHOOK_SCHEMA) markSchemaUses(context, spec);
  }
  for (const spec of flaggedSpecifiers(context)) {
    const written = spec.source.value;
    if (reRootSource(spec)) context.rewrite("v1-sdk-import", lineOf(spec.declaration.node), `"${String(written)}" → "${JS_SDK.packageName}": V2 has no such file, its package root exports the V2 names`);
  }
}

function migrateClassSpecifier(context: SdkContext, spec: SdkSpecifier, local: string): void {
  const existing = context.bindings.specifiers.find((s) => s.imported === V2_CLASS && s.local === local);
  const references = referencesOf(context.j, context.root, spec.local, spec.path);
  for (const ref of references) {
    checkClassTypeUse(context, ref);
    if (local !== spec.local) renameReference(context, ref, local);
  }
  if (existing) removeSpecifier(context, spec);
  else setImported(context, spec, V2_CLASS, local);
  context.rewrite("v1-sdk-import", lineOf(spec.path.node), `${V1_CLASS} → ${V2_CLASS}${local !== V2_CLASS ? ` (as ${local})` : ""}`);
}



function migrateWebhookSpecifier(context: SdkContext, spec: SdkSpecifier): void {
  const remaining = referencesOf(context.j, context.root, spec.local, spec.path);
  if (remaining.length > 0) {
    if (remaining.some((ref) => !isWebhookParserCallee(context, ref))) context.mark(spec.path, "v1-sdk-import", schemaAdvice(WEBHOOK_PARSER));
    if (context.webhookRewritten && context.importClassForWebhook) addSpecifierNextTo(context, spec, V2_CLASS);
    return;
  }
  if (context.webhookRewritten && context.importClassForWebhook) {
    setImported(context, spec, V2_CLASS, V2_CLASS);
    context.importClassForWebhook = false;
  } else {
    removeSpecifier(context, spec);
  }
  context.rewrite("v1-sdk-import", lineOf(spec.path.node), `${WEBHOOK_PARSER} import → ${V2_CLASS} (for validateWebhook)`);
}

function migrateOutputFileSpecifier(context: SdkContext, spec: SdkSpecifier): void {
  const references = referencesOf(context.j, context.root, spec.local, spec.path);
  const mediaTaken = isNameTaken(context.j, context.root, MEDIA_ITEM);
  let rewritten = 0;
  for (const ref of references) {
    const inferred = zodInferOf(context, ref);
    if (!inferred || mediaTaken || !context.style.typescript) {
      context.mark(ref, "v1-sdk-import", schemaAdvice(OUTPUT_FILE_SCHEMA));
      continue;
    }
    const q = context.style.quote;
    inferred.replace(typeFrom(context.j, `Pick<${MEDIA_ITEM}, ${q}url${q} | ${q}filename${q}>`));
    rewritten++;
    context.rewrite("v1-sdk-import", lineOf(ref.node), `z.infer<typeof ${OUTPUT_FILE_SCHEMA}> → Pick<${MEDIA_ITEM}, "url" | "filename"> (the V1 shape)`);
  }
  if (rewritten === 0) return;
  addTypeImport(context, spec, MEDIA_ITEM);
  if (rewritten === references.length) removeSpecifier(context, spec);
}

function markSchemaUses(context: SdkContext, spec: SdkSpecifier): void {
  // The import itself stops compiling against V2, and so does every use.
  context.mark(spec.path, "v1-sdk-import", schemaAdvice(spec.imported));
  for (const ref of referencesOf(context.j, context.root, spec.local, spec.path)) context.mark(ref, "v1-sdk-import", schemaAdvice(spec.imported));
}

/** `z.infer<typeof X>` (or output/input) around a reference to X, as the path of the whole type. */
function zodInferOf(context: SdkContext, ref: ASTPath): ASTPath | undefined {
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

function renameReference(context: SdkContext, ref: ASTPath, name: string): void {
  const parent = ref.parent?.node as AnyNode | undefined;
  if (parent && (parent.type === "ObjectProperty" || parent.type === "Property") && parent.shorthand) parent.shorthand = false;
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

function removeSpecifier(context: SdkContext, spec: SdkSpecifier): void {
  const declaration = spec.declaration.node as AnyNode;
  if (spec.kind === "import") {
    const specifiers = declaration.specifiers as AnyNode[];
    declaration.specifiers = specifiers.filter((s) => s !== spec.path.node);
    if ((declaration.specifiers as AnyNode[]).length === 0) removeStatement(context, spec.declaration);
    return;
  }
  const pattern = spec.path.parent!.node as AnyNode;
  pattern.properties = (pattern.properties as AnyNode[]).filter((p) => p !== spec.path.node);
  if ((pattern.properties as AnyNode[]).length === 0) removeStatement(context, spec.declaration);
}

function removeStatement(context: SdkContext, path: ASTPath): void {
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
function addSpecifierNextTo(context: SdkContext, spec: SdkSpecifier, name: string): void {
  const j = context.j;
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
function addTypeImport(context: SdkContext, spec: SdkSpecifier, name: string): void {
  const j = context.j;
  const existing = context.root
    .find(j.ImportDeclaration)
    .filter((p) => (p.node.source as AnyNode).value === COMPONENTS_MODULE);
  if (existing.size() > 0) {
    const declaration = existing.paths()[0]!.node as unknown as AnyNode;
    const has = (declaration.specifiers as AnyNode[]).some((s) => (s.local as AnyNode | undefined)?.name === name);
    if (!has) (declaration.specifiers as unknown[]).push(j.importSpecifier(j.identifier(name)));
    return;
  }
  const q = context.style.quote;
  const [statement] = statementsFrom(j, `import type { ${name} } from ${q}${COMPONENTS_MODULE}${q};`);
  const anchor = spec.kind === "import" ? spec.declaration : (statementOf(spec.declaration) as ASTPath);
  anchor.insertAfter(statement);
}

