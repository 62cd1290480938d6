/**
 * Where the repository constructs a class (`new RenderService(config.comfy)`,
 * `export const comfy = new ComfyClient({ baseUrl: … })`): a constructor
 * parameter with no default holds what those calls pass. Looked up only for a
 * request that would otherwise be a V1 shape on an unknown base, since it
 * reads the repository's JS/TS files for the class's name.
 */
import { ts } from "./typescript-api.cjs";
import type { FileContext } from "./file-context.js";
import type { JsProject } from "./project.js";
import type { Values } from "./values.js";

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** Calls beyond these many files are not looked for: a class constructed all over is not a client set up once. */
const MAX_FILES_READ = 2_000;

type Located = { context: FileContext; expr: ts.Expression };

export class ConstructionSites {
  private readonly memo = new Map<ts.Node, Array<{ context: FileContext; call: ts.NewExpression }>>();
  private filesWithText: string[] | undefined;

  constructor(private readonly project: JsProject) {}

  /** What the first construction of the parameter's class passes for it. */
  argumentFor(param: ts.ParameterDeclaration, values: Values): Located | undefined {
    const ctor = param.parent;
    if (!ts.isConstructorDeclaration(ctor) || param.dotDotDotToken) return undefined;
    const cls = ctor.parent;
    const index = ctor.parameters.indexOf(param);
    for (const site of this.sitesOf(cls, values)) {
      const arg = site.call.arguments?.[index];
      if (arg) return { context: site.context, expr: arg };
    }
    return undefined;
  }

  forget(): void {
    this.memo.clear();
  }

  private sitesOf(
    cls: ts.ClassLikeDeclaration,
    values: Values,
  ): Array<{ context: FileContext; call: ts.NewExpression }> {
    const known = this.memo.get(cls);
    if (known) return known;
    const sites: Array<{ context: FileContext; call: ts.NewExpression }> = [];
    this.memo.set(cls, sites);
    const name = cls.name?.text;
    const home = cls.getSourceFile().fileName;
    if (!name) return sites;
    const needle = new RegExp(`\\bnew\\s+${name}\\s*\\(`);
    for (const file of this.sourceFiles()) {
      const text = this.project.textOf(file);
      if (!text || !needle.test(text)) continue;
      const context = this.project.contextFor(file);
      for (const call of context?.newExpressions ?? []) {
        const target = call.expression;
        if (!context || !ts.isIdentifier(target) || target.text !== name) continue;
        if (file === home || constructs(values, target, context, cls)) sites.push({ context, call });
      }
    }
    return sites;
  }

  private sourceFiles(): string[] {
    this.filesWithText ??= [...this.project.files].filter((f) => SOURCE_FILE.test(f)).slice(0, MAX_FILES_READ);
    return this.filesWithText;
  }
}

/** The name is the class: its own declaration, a default or named import of it, or a `require` of its module. */
function constructs(
  values: Values,
  target: ts.Identifier,
  context: FileContext,
  cls: ts.ClassLikeDeclaration,
): boolean {
  const def = values.definitionOf(target, context);
  if (def?.kind === "module") return def.file === cls.getSourceFile().fileName;
  if (def?.kind !== "node") return false;
  if (def.node === cls) return true;
  const value = values.valueOf(def);
  return value !== undefined && value.expr === cls;
}
