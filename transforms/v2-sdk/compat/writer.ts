/**
 * Writes the compat module in the flavour of the package it goes into
 * (TypeScript, an ES module or CommonJS) and in the style read from the file
 * the module sits beside: quotes, semicolons, indentation, trailing commas.
 * The tool restyles the template itself: a project's formatter and its
 * config (a prettier.config.js is code) are never loaded.
 */
import { loadTypeScript } from "../../../src/platform/typescript.js";
import type { SourceStyle } from "../../lib/source-style.js";
import { pruneTemplate } from "./prune.js";
import { COMPAT_TEMPLATE } from "./template.js";

import type { ModuleFlavor } from "../../types.js";

/** The module's source for a file at `absolutePath` (where it goes; its style comes from the importing file), holding what `used` needs. */
export async function compatModuleSource(
  flavor: ModuleFlavor,
  _absolutePath: string,
  style: SourceStyle,
  used?: ReadonlySet<string>,
): Promise<string> {
  const template = pruneTemplate(COMPAT_TEMPLATE, used);
  if (flavor === "ts") return restyle(template, 2, style);
  // The compiler prints JavaScript with four-space indents.
  return restyle(flavor === "esm" ? withoutTypes(template) : toCommonJs(withoutTypes(template)), 4, style);
}

const COMMENT_LINE = /^\s*(\/\*|\*|\/\/)/;

/**
 * The template's style (double quotes, semicolons, `unit` spaces of indent,
 * trailing commas) changed line by line into the file's. The template keeps
 * to lines this is safe for: no quotes inside strings, no line that starts
 * with `(` or `[`.
 */
export function restyle(code: string, unit: number, style: SourceStyle): string {
  const lines = code.split("\n");
  return lines
    .map((line, i) => {
      const depth = /^ */.exec(line)![0].length;
      let body = line.slice(depth);
      if (!COMMENT_LINE.test(line)) {
        if (style.quote === "single") body = body.replace(/"([^"'\n]*)"/g, "'$1'");
        if (!style.semicolons) body = body.replace(/;$/, "");
        if (!style.trailingComma && /^\s*[}\])]/.test(nextNonBlank(lines, i))) body = body.replace(/,$/, "");
      }
      return `${style.indent.repeat(Math.floor(depth / unit))}${" ".repeat(depth % unit)}${body}`;
    })
    .join("\n");
}

function nextNonBlank(lines: readonly string[], i: number): string {
  for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim() !== "") return lines[j]!;
  return "";
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
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      removeComments: false,
      verbatimModuleSyntax: true,
    },
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
    .replace(
      /^import \{ ([^}]+) \} from (["'][^"']+["']);?$/gm,
      (_, names: string, from: string) => `const { ${names.trim()} } = require(${from});`,
    )
    .replace(/^export (async function|function|const|let|class) (\w+)/gm, (_, kind: string, name: string) => {
      exported.push(name);
      return `${kind} ${name}`;
    });
  return `${body.trimEnd()}\n\nmodule.exports = { ${exported.join(", ")} };\n`;
}
