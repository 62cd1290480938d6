/**
 * `new ComfyDeployClient({ apiToken, apiBase })` becomes
 * `new ComfyDeploy({ bearer, serverURL? })`: from an object literal, or from
 * a `const` options object in the same file.
 */
import type { ASTPath } from "jscodeshift";
import { optionsFromVariable, rewriteOptionsObject } from "../client-options.js";
import { type AnyNode, flaggedSpecifiers, isMember, isSdkNamespace, lineOf, type SdkContext, V1_CLASS, V2_CLASS } from "../context.js";

export function convertConstructor(context: SdkContext, path: ASTPath): void {
  const { j, print } = context;
  const node = path.node as AnyNode;
  const callee = node.callee as AnyNode;
  const line = lineOf(node);
  const classKnown =
    (callee.type === "Identifier" && flaggedSpecifiers(context).some((s) => s.imported === V1_CLASS && s.local === callee.name)) ||
    (isMember(callee) &&
      !callee.computed &&
      [V1_CLASS, V2_CLASS].includes((callee.property as AnyNode).name as string) &&
      isSdkNamespace(context, callee.object as AnyNode));
  if (!classKnown) {
    return context.mark(path, "v1-sdk-client", `the V1 client class reaches this file through another module: migrate that module, then use new ${V2_CLASS}({ bearer, serverURL? }) here`);
  }
  const args = node.arguments as AnyNode[];
  if (args.length !== 1) {
    return context.mark(path, "v1-sdk-client", `new ${V1_CLASS}() needs exactly one options object: use new ${V2_CLASS}({ bearer: <token> })`);
  }
  const arg = args[0]!;
  if (arg.type === "ObjectExpression") {
    const outcome = rewriteOptionsObject(j, arg, print);
    if (outcome.kind === "unsupported") {
      return context.mark(path, "v1-sdk-client", `new ${V1_CLASS}(): ${outcome.reason}; V2 takes { bearer, serverURL? } (apiToken → bearer; V1 appended /api to apiBase, V2 takes serverURL verbatim)`);
    }
    if (outcome.replacement) (node.arguments as unknown[])[0] = outcome.replacement;
    context.rewrite("v1-sdk-client", line, `new ${V1_CLASS}() → new ${V2_CLASS}(): ${outcome.notes.join("; ") || "no options"}`);
    if (outcome.review) context.mark(path, "v1-sdk-client", outcome.review);
    return;
  }
  if (arg.type === "Identifier") {
    const object = constObject(path, arg.name as string);
    const outcome = object ? optionsFromVariable(j, arg.name as string, object, print) : undefined;
    if (outcome?.kind === "rewritten" && outcome.node) {
      (node.arguments as unknown[])[0] = outcome.node;
      context.rewrite("v1-sdk-client", line, `new ${V1_CLASS}(${arg.name as string}) → new ${V2_CLASS}(): ${outcome.notes.join("; ")}`);
      if (outcome.review) context.mark(path, "v1-sdk-client", outcome.review);
      return;
    }
  }
  const v = arg.type === "Identifier" ? (arg.name as string) : "options";
  context.mark(
    path,
    "v1-sdk-client",
    `new ${V1_CLASS}(${v}) with options the migration cannot see: if they hold only apiToken and apiBase, pass new ${V2_CLASS}({ bearer: ${v}.apiToken, serverURL: ${v}.apiBase ? \`\${${v}.apiBase}/api\` : undefined }) (V1 appended /api to apiBase, V2 takes serverURL verbatim)`,
  );
}

/** The object literal of `const name = { … }` when that is the binding `name` resolves to at `from`. */
function constObject(from: ASTPath, name: string): AnyNode | undefined {
  const scope = (from as unknown as { scope?: { lookup(n: string): { getBindings(): Record<string, ASTPath[]> } | null } }).scope;
  const binding = scope?.lookup(name)?.getBindings()[name]?.[0];
  const declarator = binding?.parent?.node as AnyNode | undefined;
  const declaration = binding?.parent?.parent?.node as AnyNode | undefined;
  if (declarator?.type !== "VariableDeclarator" || declarator.id !== binding?.node || declaration?.kind !== "const") return undefined;
  let init = declarator.init as AnyNode | undefined;
  while (init && (init.type === "TSAsExpression" || init.type === "TSSatisfiesExpression")) init = init.expression as AnyNode;
  return init?.type === "ObjectExpression" ? init : undefined;
}
