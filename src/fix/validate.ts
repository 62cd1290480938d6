/** Re-parses a rewritten file before it is written: a file that would not parse is left untouched. */
import { posix } from "node:path";
import { parse as parseJsonc, type ParseError, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { parseAllDocuments } from "yaml";
import { isJsFile } from "../platform/file-types.js";
import { loadTypeScript, scriptKindOf } from "../platform/typescript.js";

/** The first parse error of the text, or undefined when it parses (or has no parser here). */
export function parseError(file: string, text: string): string | undefined {
  const base = posix.basename(file).toLowerCase();
  const ext = posix.extname(base);
  if (isJsFile(file)) {
    const api = loadTypeScript();
    const source = api.createSourceFile(file, text, api.ScriptTarget.Latest, false, scriptKindOf(file, api));
    const diagnostics =
      (
        source as unknown as {
          parseDiagnostics?: Array<{ messageText: string | import("ts-morph").ts.DiagnosticMessageChain }>;
        }
      ).parseDiagnostics ?? [];
    const first = diagnostics[0];
    return first ? api.flattenDiagnosticMessageText(first.messageText, " ") : undefined;
  }
  if (ext === ".json" || base === ".babelrc") {
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: false });
    return errors[0] ? `${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}` : undefined;
  }
  if (ext === ".yaml" || ext === ".yml") {
    const error = parseAllDocuments(text).flatMap((d) => ("errors" in d ? d.errors : []))[0];
    return error?.message.split("\n")[0];
  }
  if (ext === ".toml" || base === "pipfile") {
    try {
      parseToml(text);
      return undefined;
    } catch (error) {
      return (error as Error).message.split("\n")[0];
    }
  }
  return undefined;
}
