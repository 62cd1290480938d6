/**
 * `new ComfyDeployClient({ apiToken, apiBase })` becomes
 * `new ComfyDeploy({ bearer, serverURL? })`: from an object literal, or from
 * a `const` options object in the same file.
 */
import type { ASTPath } from "jscodeshift";
import { HOSTS } from "../../../src/knowledge/migration.js";
import type { EnvChange } from "../../types.js";
import { optionsFromVariable, rewriteOptionsObject } from "../client-options.js";
import { expressionFrom, printed } from "../snippets.js";
import {
  type AnyNode,
  flaggedSpecifiers,
  isMember,
  isSdkNamespace,
  lineOf,
  type SdkContext,
  V1_CLASS,
  V2_CLASS,
} from "../context.js";

export function convertConstructor(context: SdkContext, path: ASTPath): void {
  const { j, print } = context;
  const node = path.node as AnyNode;
  const callee = node.callee as AnyNode;
  const line = lineOf(node);
  const classKnown =
    (callee.type === "Identifier" &&
      flaggedSpecifiers(context).some((s) => s.imported === V1_CLASS && s.local === callee.name)) ||
    (isMember(callee) &&
      !callee.computed &&
      [V1_CLASS, V2_CLASS].includes((callee.property as AnyNode).name as string) &&
      isSdkNamespace(context, callee.object as AnyNode));
  if (!classKnown) {
    return context.mark(
      path,
      "v1-sdk-client",
      `the V1 client class reaches this file through another module: migrate that module, then use new ${V2_CLASS}({ bearer, serverURL? }) here`,
    );
  }
  const args = node.arguments as AnyNode[];
  if (args.length !== 1) {
    return context.mark(
      path,
      "v1-sdk-client",
      `new ${V1_CLASS}() needs exactly one options object: use new ${V2_CLASS}({ bearer: <token> })`,
    );
  }
  const arg = args[0]!;
  if (arg.type === "ObjectExpression") {
    const outcome = rewriteOptionsObject(j, arg, print, () => context.compat("value"));
    if (outcome.kind === "unsupported") {
      return context.mark(
        path,
        "v1-sdk-client",
        `new ${V1_CLASS}(): ${outcome.reason}; V2 takes { bearer, serverURL? } (apiToken → bearer; V1 appended /api to apiBase, V2 takes serverURL verbatim)`,
      );
    }
    if (outcome.replacement) (node.arguments as unknown[])[0] = outcome.replacement;
    context.rewrite(
      "v1-sdk-client",
      line,
      `new ${V1_CLASS}() → new ${V2_CLASS}(): ${outcome.notes.join("; ") || "no options"}`,
      envChange(outcome.env),
    );
    if (outcome.review) context.mark(path, "v1-sdk-client", outcome.review, false);
    return;
  }
  if (arg.type === "Identifier") {
    const object = constObject(path, arg.name as string);
    const outcome = object
      ? optionsFromVariable(j, arg.name as string, object, print, () => context.compat("value"))
      : undefined;
    if (outcome?.kind === "rewritten" && outcome.node) {
      (node.arguments as unknown[])[0] = outcome.node;
      context.rewrite(
        "v1-sdk-client",
        line,
        `new ${V1_CLASS}(${arg.name as string}) → new ${V2_CLASS}(): ${outcome.notes.join("; ")}`,
        envChange(outcome.env),
      );
      if (outcome.review) context.mark(path, "v1-sdk-client", outcome.review, false);
      return;
    }
  }
  // Options the migration cannot see: V2 would ignore apiToken and apiBase and send no token at all.
  const compat = context.compat("value");
  const argumentPath = path.get("arguments", 0) as ASTPath;
  context.mark(
    path,
    "v1-sdk-client",
    `new ${V1_CLASS}() with options the migration cannot see: they go through ${compat}.optionsFromV1, which maps apiToken to bearer and apiBase to serverURL (V1 appended /api); if they hold more than those two, pass V2's options (${V2_CLASS}({ bearer, serverURL })) yourself`,
    false,
  );
  (node.arguments as unknown[])[0] = expressionFrom(j, `${compat}.optionsFromV1(${printed(j, argumentPath, print)})`);
  context.rewrite(
    "v1-sdk-client",
    line,
    `new ${V1_CLASS}(options) → new ${V2_CLASS}(${compat}.optionsFromV1(options))`,
  );
}

/** The env variable the API base is read from, and the value it needs now. */
function envChange(variable: string | undefined): EnvChange | undefined {
  return variable ? { variable, value: `https://${HOSTS.v2.host}` } : undefined;
}

/** The object literal of `const name = { … }` when that is the binding `name` resolves to at `from`. */
function constObject(from: ASTPath, name: string): AnyNode | undefined {
  const scope = (
    from as unknown as { scope?: { lookup(n: string): { getBindings(): Record<string, ASTPath[]> } | null } }
  ).scope;
  const binding = scope?.lookup(name)?.getBindings()[name]?.[0];
  const declarator = binding?.parent?.node as AnyNode | undefined;
  const declaration = binding?.parent?.parent?.node as AnyNode | undefined;
  if (declarator?.type !== "VariableDeclarator" || declarator.id !== binding?.node || declaration?.kind !== "const")
    return undefined;
  let init = declarator.init as AnyNode | undefined;
  while (init && (init.type === "TSAsExpression" || init.type === "TSSatisfiesExpression"))
    init = init.expression as AnyNode;
  return init?.type === "ObjectExpression" ? init : undefined;
}
