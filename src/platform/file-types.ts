/**
 * The one file-type table: per extension or file name, how the tool reads and
 * writes the file — its scan kind, the comment syntax the scanner lexes, the
 * comment syntax fix writes review markers in, the parser of a JS/TS file,
 * and the language model (grammar) that reads it. Add a language here once.
 */
import { posix } from "node:path";
import type { CommentSyntax } from "../core/marker.js";

export type FileKind = "js" | "docs" | "env" | "text";

/** The lexical family of a non-JS text file: it decides what a comment and a string look like. */
export type TextSyntax =
  | "c-like" // Go, C#, Java, Kotlin, Rust, Swift, C/C++, Dart, Scala, Groovy, Vue/Svelte, HCL
  | "php"
  | "hash" // shell, Ruby, Perl, R, Makefile, Dockerfile, Nix, PowerShell
  | "yaml"
  | "toml"
  | "ini"
  | "properties"
  | "env"
  | "json"
  | "sql" // `--` comments: SQL, Lua, Haskell
  | "markup" // Markdown, HTML, XML, reStructuredText
  | "batch"
  | "unknown";

/** Which TypeScript parse a JS/TS file gets (ScriptKind; jscodeshift's parser follows from it). */
export type JsDialect = "ts" | "tsx" | "js" | "jsx";

export interface FileType {
  syntax: TextSyntax;
  /** How fix writes a review marker; undefined where the format has no comments (JSON). */
  marker: CommentSyntax | undefined;
  /** Set for JS/TS files: the JS analyser and the codemods read them. */
  dialect?: JsDialect;
  /** The language model that parses the file (a src/lang/<language>/ module or grammar), where one exists. */
  language?: string;
}

const HASH: CommentSyntax = { line: "#" };
const SLASH: CommentSyntax = { line: "//", block: ["/*", "*/"] };
const HTML: CommentSyntax = { block: ["<!--", "-->"] };

/** The marker syntax each lexical family writes, unless a row says otherwise. */
const MARKER_BY_SYNTAX: Record<TextSyntax, CommentSyntax | undefined> = {
  "c-like": SLASH,
  php: SLASH,
  hash: HASH,
  yaml: HASH,
  toml: HASH,
  ini: { line: ";" },
  properties: HASH,
  env: HASH,
  json: undefined,
  sql: { line: "--" },
  markup: HTML,
  batch: { line: "REM" },
  unknown: undefined,
};

interface Row extends Partial<FileType> {
  syntax: TextSyntax;
}

const BY_EXTENSION = new Map<string, FileType>();
const BY_NAME = new Map<string, FileType>();

function typeOf(row: Row): FileType {
  return { ...row, marker: "marker" in row ? row.marker : MARKER_BY_SYNTAX[row.syntax] };
}
function extensions(list: string[], row: Row): void {
  for (const ext of list) BY_EXTENSION.set(ext, typeOf(row));
}
function names(list: string[], row: Row): void {
  for (const name of list) BY_NAME.set(name, typeOf(row));
}

// JS/TS: the JS analyser reads them, not the text lexer.
extensions([".ts", ".mts", ".cts"], { syntax: "unknown", marker: SLASH, dialect: "ts", language: "typescript" });
extensions([".tsx"], { syntax: "unknown", marker: SLASH, dialect: "tsx", language: "typescript" });
extensions([".js", ".mjs", ".cjs"], { syntax: "unknown", marker: SLASH, dialect: "js", language: "javascript" });
extensions([".jsx"], { syntax: "unknown", marker: SLASH, dialect: "jsx", language: "javascript" });
// Python and plain text: their own models read them; markers are `#` (requirements.txt).
extensions([".py"], { syntax: "unknown", marker: HASH, language: "python" });
extensions([".txt"], { syntax: "unknown", marker: HASH });

extensions([".go"], { syntax: "c-like", language: "go" });
extensions([".cs", ".csx"], { syntax: "c-like", language: "csharp" });
extensions([".java"], { syntax: "c-like", language: "java" });
extensions([".kt", ".kts"], { syntax: "c-like", language: "kotlin" });
extensions([".dart"], { syntax: "c-like", language: "dart" });
extensions(
  [
    ".scala",
    ".sc",
    ".groovy",
    ".gradle",
    ".rs",
    ".swift",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".cxx",
    ".hpp",
    ".m",
    ".mm",
    ".proto",
    ".zig",
  ],
  { syntax: "c-like" },
);
extensions([".fs", ".fsx", ".v", ".sol", ".jsonc", ".json5", ".hcl", ".tf", ".tfvars"], { syntax: "c-like" });
// Components whose markup holds the code: the marker is an HTML comment.
extensions([".vue", ".svelte", ".astro"], { syntax: "c-like", marker: HTML });
extensions([".php", ".phtml"], { syntax: "php", language: "php" });
extensions([".rb", ".rake", ".gemspec"], { syntax: "hash", language: "ruby" });
extensions([".sh", ".bash", ".zsh", ".fish", ".ksh"], { syntax: "hash", language: "shell" });
extensions(
  [
    ".pl",
    ".pm",
    ".r",
    ".nix",
    ".ps1",
    ".psm1",
    ".mk",
    ".cmake",
    ".conf",
    ".dockerfile",
    ".containerfile",
    ".tcl",
    ".jl",
    ".cr",
    ".ex",
    ".exs",
    ".nim",
  ],
  { syntax: "hash" },
);
extensions([".yaml", ".yml"], { syntax: "yaml" });
extensions([".toml"], { syntax: "toml" });
extensions([".ini", ".cfg", ".editorconfig", ".desktop", ".service"], { syntax: "ini" });
extensions([".properties"], { syntax: "properties" });
extensions([".env"], { syntax: "env" });
extensions([".json", ".har", ".ipynb", ".webmanifest", ".postman_collection", ".postman_environment"], {
  syntax: "json",
});
extensions([".sql", ".lua", ".hs", ".elm", ".ada"], { syntax: "sql" });
extensions(
  [
    ".md",
    ".mdx",
    ".markdown",
    ".html",
    ".htm",
    ".xml",
    ".xhtml",
    ".csproj",
    ".fsproj",
    ".vbproj",
    ".props",
    ".targets",
    ".config",
    ".plist",
    ".svg",
    ".xaml",
  ],
  { syntax: "markup" },
);
extensions([".rst"], { syntax: "markup", marker: { line: ".." } });
extensions([".adoc"], { syntax: "markup", marker: { line: "//" } });
extensions([".bat", ".cmd"], { syntax: "batch" });

names(
  [
    "dockerfile",
    "containerfile",
    "makefile",
    "gnumakefile",
    "procfile",
    "justfile",
    ".bashrc",
    ".profile",
    ".envrc",
    ".curlrc",
  ],
  { syntax: "hash" },
);
names(["gemfile", "rakefile", "vagrantfile", "brewfile"], { syntax: "hash", language: "ruby" });
names([".npmrc", ".gitconfig", ".pypirc"], { syntax: "ini" });
// Read by the lexer's catch-all; written with `#`, which both formats take.
names(["pipfile", ".gitmodules"], { syntax: "unknown", marker: HASH });

const ENV_TYPE = typeOf({ syntax: "env" });
const HASH_TYPE = typeOf({ syntax: "hash" });
const UNKNOWN_TYPE = typeOf({ syntax: "unknown" });
const DOC_EXTENSIONS = new Set([".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc", ".html", ".htm"]);

function isEnvName(base: string): boolean {
  return base === ".env" || base.startsWith(".env.") || base.endsWith(".env");
}

/** The row of a file, by its name first (Dockerfile, .env.local), then by its extension. */
export function fileTypeOf(file: string): FileType {
  // Slices, as posix.basename and extname answer for a file path (a leading dot starts a name, not an extension):
  // asked for every listed file several times a scan, the path functions cost tens of ms on a big tree.
  const base = file.slice(file.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot) : "";
  const dialect = BY_EXTENSION.get(ext)?.dialect;
  if (dialect) return BY_EXTENSION.get(ext)!;
  if (isEnvName(base)) return ENV_TYPE;
  const named = BY_NAME.get(base);
  if (named) return named;
  // Dockerfile.dev, api.Dockerfile, Makefile.local
  if (/^(docker|container)file\b|\.(docker|container)file$|^makefile\./.test(base)) return HASH_TYPE;
  return BY_EXTENSION.get(ext) ?? UNKNOWN_TYPE;
}

export function isJsFile(file: string): boolean {
  return fileTypeOf(file).dialect !== undefined;
}

/** How a file is scanned, decided by its name. */
export function fileKind(file: string): FileKind {
  if (isJsFile(file)) return "js";
  const base = posix.basename(file).toLowerCase();
  if (isEnvName(base)) return "env";
  if (DOC_EXTENSIONS.has(posix.extname(base))) return "docs";
  return "text";
}

export function textSyntaxOf(file: string): TextSyntax {
  return fileTypeOf(file).syntax;
}

/** The comment syntax fix writes review markers in, or undefined when the file has none (JSON). */
export function markerSyntaxFor(file: string): CommentSyntax | undefined {
  return fileTypeOf(file).marker;
}

/** The TypeScript parse of a JS/TS file; other files parse as TypeScript, as the analyser always did. */
export function jsDialectOf(file: string): JsDialect {
  return fileTypeOf(file).dialect ?? "ts";
}
