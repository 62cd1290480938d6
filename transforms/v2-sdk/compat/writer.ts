/**
 * Writes the compat module in the flavour of the package it goes into
 * (TypeScript, an ES module or CommonJS) and formats it as the package
 * formats its code: with the project's own Prettier settings when it has
 * them, else with the style read from the file the module sits beside.
 */
import { loadTypeScript } from "../../../src/platform/typescript.js";
import type { SourceStyle } from "../../lib/source-style.js";
import { COMPAT_TEMPLATE } from "./template.js";

import type { ModuleFlavor } from "../../types.js";

/** Formatted sources by flavour and Prettier options: one format per style, not one per package (Prettier costs ~100 ms a call). */
const formatted = new Map<string, Promise<string>>();

/** The module's source for a file at `absolutePath`. */
export async function compatModuleSource(flavor: ModuleFlavor, absolutePath: string, style: SourceStyle): Promise<string> {
  const prettier = await import("prettier");
  const inferred = {
    singleQuote: style.quote === "single",
    semi: style.semicolons,
    useTabs: style.indent === "\t",
    tabWidth: style.indent === "\t" ? 2 : style.indent.length,
    trailingComma: style.trailingComma ? ("all" as const) : ("none" as const),
  };
  // The project's settings (a Prettier config, or an .editorconfig) win where they say something.
  const project = await prettier.resolveConfig(absolutePath, { editorconfig: true }).catch(() => null);
  const options = { ...inferred, ...project, parser: flavor === "ts" ? "typescript" : "babel" };
  // Plugins may be objects a key cannot tell apart: those formats are not shared.
  const key = project?.plugins?.length ? undefined : `${flavor}\u0000${JSON.stringify(options)}`;
  let source = key === undefined ? undefined : formatted.get(key);
  if (!source) {
    const code = flavor === "ts" ? COMPAT_TEMPLATE : flavor === "esm" ? withoutTypes(COMPAT_TEMPLATE) : toCommonJs(withoutTypes(COMPAT_TEMPLATE));
    source = prettier.format(code, options);
    if (key !== undefined) formatted.set(key, source);
  }
  return source;
}

/**
 * The TypeScript source as JavaScript: types erased, comments kept. The
 * compiler drops the file's header (it hangs on a type import) and every
 * blank line, so the header goes back on top and top-level declarations get
 * a blank line before them again.
 */
function withoutTypes(source: string): string {
  const ts = loadTypeScript();
  const header = /^\/\*\*[\s\S]*?\*\/\n/.exec(source)?.[0] ?? "";
  const code = ts.transpileModule(source.slice(header.length), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false, verbatimModuleSyntax: true },
  }).outputText;
  const lines = code.split("\n");
  const spaced = lines.flatMap((line, i) => {
    const previous = lines[i - 1] ?? "";
    const startsDeclaration = /^(\/\*\*|export |function |async function |const |let |class )/.test(line);
    const follows = previous !== "" && !previous.startsWith("import ") && !previous.endsWith("*/") && i > 0;
    return startsDeclaration && follows ? ["", line] : [line];
  });
  return `${header}${spaced.join("\n")}`;
}

/** An ES module with named function and const exports as CommonJS: require for imports, one module.exports at the end. */
function toCommonJs(source: string): string {
  const exported: string[] = [];
  const body = source
    .replace(/^import \{ ([^}]+) \} from (["'][^"']+["']);?$/gm, (_, names: string, from: string) => `const { ${names.trim()} } = require(${from});`)
    .replace(/^export (async function|function|const|let|class) (\w+)/gm, (_, kind: string, name: string) => {
      exported.push(name);
      return `${kind} ${name}`;
    });
  return `${body.trimEnd()}\n\nmodule.exports = { ${exported.join(", ")} };\n`;
}
