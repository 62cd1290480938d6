/**
 * Where the base of a JS/TS URL expression comes from, when the analyser
 * could not resolve it: a parameter of the enclosing function (the caller
 * decides it), a package outside the repository, or somewhere the
 * repository's own V1 base may reach (an env read, a member, a fallback).
 */
import { ts } from "./typescript-api.cjs";
import { type BaseOrigin, type HeldBase, heldBaseFor } from "../held-base.js";
import { enclosingClass, type FileContext, unwrap } from "./file-context.js";
import type { JsProject } from "./project.js";

/** How many local bindings (`const url = base + "/run"`) are followed back to the base. */
const MAX_DEPTH = 4;

/** Where the repository sets the base a V1-shaped URL on an unresolved base is taken to be on, if the file allows it. */
export function heldBaseOfUrl(
  url: ts.Node,
  context: FileContext,
  project: JsProject,
  legacyBase: HeldBase,
): ReturnType<typeof heldBaseFor> {
  const inRepository = (module: string): boolean =>
    module.startsWith(".") || project.resolveModule(context.file, module) !== undefined;
  const cls = enclosingClass(url);
  return heldBaseFor(
    { legacyBase },
    {
      file: context.file,
      fileText: context.text,
      scopeText: cls ? cls.getText(context.sourceFile) : context.text,
      ...(cls?.name ? { scopeName: cls.name.text } : {}),
      urlText: url.getText(context.sourceFile),
      // A request's URL argument is an expression; the casts keep the syntax helpers' types.
      origin: baseOriginOf(url as ts.Expression, context, inRepository),
    },
  );
}

/** `inRepository(module)`: the import specifier resolves to a file of the repository. */
export function baseOriginOf(
  url: ts.Expression,
  context: FileContext,
  inRepository: (module: string) => boolean,
  depth = 0,
): BaseOrigin {
  const base = leadingOperand(url);
  let root: ts.Expression = base;
  while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root)) root = unwrap(root.expression);
  if (!ts.isIdentifier(root)) return "unresolved";
  const declaration = context.resolve(root);
  if (!declaration) return "unresolved";
  const binding = context.imports.get(declaration);
  if (binding) return inRepository(binding.module) ? "unresolved" : "package";
  // A member of a parameter (`opts.baseUrl`) is the caller's setting too, but a client built on the repository's base.
  if (root !== base) return "unresolved";
  if (isParameterBinding(declaration)) return "parameter";
  if (ts.isVariableDeclaration(declaration) && declaration.initializer && depth < MAX_DEPTH)
    return baseOriginOf(declaration.initializer, context, inRepository, depth + 1);
  return "unresolved";
}

/** The expression a URL starts with: `${base}/run` and `base + "/run"` start with `base`. */
function leadingOperand(expression: ts.Expression): ts.Expression {
  const e = unwrap(expression);
  if (ts.isTemplateExpression(e) && e.head.text === "" && e.templateSpans[0])
    return leadingOperand(e.templateSpans[0].expression);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return leadingOperand(e.left);
  return e;
}

function isParameterBinding(declaration: ts.Node): boolean {
  for (let at: ts.Node | undefined = declaration; at; at = at.parent) {
    if (ts.isParameter(at)) return true;
    if (!ts.isBindingElement(at) && !ts.isObjectBindingPattern(at) && !ts.isArrayBindingPattern(at)) return false;
  }
  return false;
}
