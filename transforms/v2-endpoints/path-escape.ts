/**
 * A run id moved from V1's `?run_id=` query into V2's `/run/{run_id}` path
 * is one path segment: each language's own call escaping it there (a `/`,
 * `?` or `#` in the id would otherwise change the URL), with the import that
 * call needs. Shell has none fix can write, so the id stays as it is there.
 */
import { fileTypeOf } from "../../src/platform/file-types.js";
import type { Segment } from "./segments.js";
import type { TextEdit } from "./urls.js";

export type EscapeLanguage = "php" | "go" | "ruby" | "csharp" | "java" | "kotlin" | "dart" | "python";

const ESCAPING_LANGUAGES: ReadonlySet<string> = new Set<EscapeLanguage>([
  "php",
  "go",
  "ruby",
  "csharp",
  "java",
  "kotlin",
  "dart",
  "python",
]);

/** The file's language (from the one file-type table) when it has a path-segment escaping call fix writes. */
export function escapeLanguageOf(file: string): EscapeLanguage | undefined {
  const language = fileTypeOf(file).language;
  return language && ESCAPING_LANGUAGES.has(language) ? (language as EscapeLanguage) : undefined;
}

export interface SegmentEscape {
  language: EscapeLanguage;
  /** The expression escaping `id` as a path segment. */
  wrap(id: string): string;
  /** What the call needs elsewhere in the file (an import or require), empty when the file has it. */
  imports: TextEdit[];
}

/**
 * The escaping call for a file, or undefined where fix cannot write one:
 * a language without it (shell, config), or Go code that names something
 * else `url`. `quote` is the quote of the URL's string literal: the call's
 * own strings take the other quote `inside` it (a Python f-string), the
 * same one after it.
 */
export function segmentEscape(file: string, text: string, quote: string, inside: boolean): SegmentEscape | undefined {
  const language = escapeLanguageOf(file);
  if (!language) return undefined;
  const single = inside ? quote.startsWith('"') : quote.startsWith("'");
  const str = (s: string): string => (single ? `'${s}'` : `"${s}"`);
  switch (language) {
    case "php":
      return { language, wrap: (id) => `rawurlencode(${id})`, imports: [] };
    case "dart":
      return { language, wrap: (id) => `Uri.encodeComponent(${id})`, imports: [] };
    case "csharp": {
      const uri = /^\s*(?:global\s+)?using\s+System\s*;/m.test(text) ? "Uri" : "System.Uri";
      return { language, wrap: (id) => `${uri}.EscapeDataString(${id})`, imports: [] };
    }
    case "java": {
      // URLEncoder writes a space as `+`, a form's encoding; a path wants `%20`.
      const encoder = /^import\s+java\.net\.URLEncoder\s*;/m.test(text) ? "URLEncoder" : "java.net.URLEncoder";
      const charsets = /^import\s+java\.nio\.charset\.StandardCharsets\s*;/m.test(text)
        ? "StandardCharsets"
        : "java.nio.charset.StandardCharsets";
      return { language, wrap: (id) => `${encoder}.encode(${id}, ${charsets}.UTF_8).replace("+", "%20")`, imports: [] };
    }
    case "kotlin": {
      const encoder = /^import\s+java\.net\.URLEncoder\s*$/m.test(text) ? "URLEncoder" : "java.net.URLEncoder";
      return { language, wrap: (id) => `${encoder}.encode(${id}, Charsets.UTF_8).replace("+", "%20")`, imports: [] };
    }
    case "ruby": {
      const has = /^\s*require\s*\(?\s*["']erb["']/m.test(text);
      return { language, wrap: (id) => `ERB::Util.url_encode(${id})`, imports: has ? [] : rubyRequire(text, "erb") };
    }
    case "python":
      return pythonQuote(text, str);
    case "go":
      return goPathEscape(text);
  }
}

/** `require "erb"` after the file's first block of requires, in their quotes; at the top (after magic comments) when it has none. */
function rubyRequire(text: string, library: string): TextEdit[] {
  const lines = [...text.matchAll(/^require(?:_relative)?\s*\(?\s*(["'])[^"'\n]*\1\)?[ \t]*$/gm)];
  if (lines.length === 0) {
    const header = /^(?:#.*\n)*/.exec(text)![0].length;
    return [{ start: header, end: header, text: `require "${library}"\n${header > 0 ? "" : "\n"}` }];
  }
  const first = lines[0]!;
  let end = first.index! + first[0].length;
  for (const line of lines.slice(1)) {
    if (/^\s*$/.test(text.slice(end + 1, line.index!)) && !text.slice(end + 1, line.index!).includes("\n"))
      end = line.index! + line[0].length;
    else break;
  }
  const q = first[1]!;
  return [{ start: end, end, text: `\nrequire ${q}${library}${q}` }];
}

function pythonQuote(text: string, str: (s: string) => string): SegmentEscape {
  if (/^from\s+urllib\.parse\s+import\s+(?:[^\n]*,\s*)?quote\b(?!\s+as)/m.test(text))
    return { language: "python", wrap: (id) => `quote(${id}, safe=${str("")})`, imports: [] };
  const has = /^import\s+urllib\.parse\s*$/m.test(text);
  return {
    language: "python",
    wrap: (id) => `urllib.parse.quote(${id}, safe=${str("")})`,
    imports: has ? [] : pythonImport(text, "urllib.parse"),
  };
}

/** `import x` after the file's first block of imports; after a shebang, comments and the module docstring when it has none. */
function pythonImport(text: string, module: string): TextEdit[] {
  const line = /^(?:import\s+[^\n]+|from\s+\S+\s+import\s+(?:\([^)]*\)|[^\n]+))$/gm;
  let end = -1;
  for (const m of text.matchAll(line)) {
    if (end >= 0 && text.slice(end, m.index!) !== "\n") break;
    end = m.index! + m[0].length;
  }
  if (end >= 0) return [{ start: end, end, text: `\nimport ${module}` }];
  const header = /^(?:#.*\n|\s*\n)*(?:(?:"""[\s\S]*?"""|'''[\s\S]*?''')[ \t]*\n)?/.exec(text)![0].length;
  return [{ start: header, end: header, text: `import ${module}\n\n` }];
}

/** Go's url.PathEscape: through the file's net/url import (or its alias), adding it when missing; never where `url` names a variable. */
function goPathEscape(text: string): SegmentEscape | undefined {
  const aliased = /^\s*(?:import\s+)?([A-Za-z_]\w*)\s+"net\/url"\s*$/m.exec(text)?.[1];
  const plain = /^\s*(?:import\s+)?"net\/url"\s*$/m.test(text);
  const name = aliased ?? "url";
  if (
    !aliased &&
    new RegExp(
      `\\b${name}\\s*(?::=|=(?!=))|\\b${name}\\s*,[^\\n]*:=|\\bvar\\s+${name}\\b|[(,]\\s*${name}\\s+(?:\\*|\\[\\]|[A-Za-z])`,
    ).test(text)
  )
    return undefined;
  return {
    language: "go",
    wrap: (id) => `${name}.PathEscape(${id})`,
    imports: aliased || plain ? [] : goImport(text, "net/url"),
  };
}

/** An import spec added in sorted place to the first group of a grouped import, beside a single import, or after the package clause. */
function goImport(text: string, path: string): TextEdit[] {
  const spec = `"${path}"`;
  const group = /^import\s*\(\n([\s\S]*?)^\)/m.exec(text);
  if (group) {
    const bodyStart = group.index + group[0].indexOf("\n") + 1;
    let at = bodyStart;
    for (const line of group[1]!.split("\n")) {
      const current = /^\s*(?:[A-Za-z_.]\w*\s+)?("[^"]*")/.exec(line)?.[1];
      if (!current || current > spec) break;
      at += line.length + 1;
    }
    return [{ start: at, end: at, text: `\t${spec}\n` }];
  }
  const single = /^import\s+(?:[A-Za-z_.]\w*\s+)?"[^"]*"[ \t]*$/m.exec(text);
  if (single) {
    const end = single.index + single[0].length;
    return [{ start: end, end, text: `\nimport ${spec}` }];
  }
  const pkg = /^package\s+\w+[ \t]*$/m.exec(text);
  if (!pkg) return [];
  const end = pkg.index + pkg[0].length;
  return [{ start: end, end, text: `\n\nimport ${spec}` }];
}

/**
 * An interpolation of the run id in a string (`#{id}`, `{id}`, `$id`,
 * `${id}`) rewritten to interpolate the escaped id; undefined when it is not
 * a single interpolation this language writes so. PHP cannot call inside a
 * string: there the string is closed and the call concatenated.
 */
export function escapedInterpolation(value: string, idEscape: SegmentEscape, stringQuote: string): string | undefined {
  const { wrap } = idEscape;
  switch (idEscape.language) {
    case "ruby": {
      const inner = /^#\{([^{}]+)\}$/.exec(value)?.[1];
      return inner && `#{${wrap(inner.trim())}}`;
    }
    case "csharp":
    case "python": {
      // A format spec or conversion (`{id:D}`, `{id!r}`) is kept by leaving the value as it is.
      const inner = /^\{([^{}:!,]+)\}$/.exec(value)?.[1];
      return inner && `{${wrap(inner.trim())}}`;
    }
    case "kotlin":
    case "dart": {
      const inner = /^\$\{([^{}]+)\}$/.exec(value)?.[1] ?? /^\$([A-Za-z_]\w*)$/.exec(value)?.[1];
      return inner && `\${${wrap(inner.trim())}}`;
    }
    case "php": {
      const inner = /^\{(\$[^{}]+)\}$/.exec(value)?.[1] ?? /^(\$[A-Za-z_]\w*(?:->[A-Za-z_]\w*)?)$/.exec(value)?.[1];
      return inner && stringQuote === '"' ? `" . ${wrap(inner)} . "` : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The operand concatenated after a string (`'…/run/' . $id`, `"…/run/" + runID`):
 * where it is in `after` (the text following the closing quote), when it is a
 * name or member chain that ends there.
 */
export function concatenatedOperand(
  after: string,
  language: EscapeLanguage,
): { start: number; end: number } | undefined {
  const member = language === "php" ? "(?:->|::)" : "(?:\\?\\.|\\.|::|->)";
  const m = new RegExp(
    `^(\\s*[+.]\\s*)(\\$?[A-Za-z_]\\w*(?:${member}\\$?[A-Za-z_]\\w*)*)(?=\\s*(?:[),;+\\]}]|\\.(?!\\w)|\\.\\s|$))`,
  ).exec(after);
  if (!m) return undefined;
  const start = m[1]!.length;
  return { start, end: start + m[2]!.length };
}

/** Whether a string literal interpolates expressions, by its quote and the prefix before its opening quote in this language. */
export function interpolates(text: string, segment: Segment, language: EscapeLanguage): boolean {
  const { open, quote } = segment;
  if (open === undefined) return false;
  const prefix = text.slice(Math.max(0, open - 2), open);
  switch (language) {
    case "csharp":
      return /\$@?$|@\$$/.test(prefix);
    case "ruby":
    case "php":
    case "kotlin":
      return quote === '"';
    case "dart":
      return !/(?:^|[^\w])r$/.test(prefix);
    default:
      return false;
  }
}
