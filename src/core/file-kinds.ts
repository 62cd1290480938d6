/** How a file is scanned, decided by its name. */
import { posix } from "node:path";

export type FileKind = "js" | "docs" | "env" | "text";

const JS_EXTENSIONS = new Set([".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"]);
const DOC_EXTENSIONS = new Set([".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc", ".html", ".htm"]);

export function isJsFile(file: string): boolean {
  return JS_EXTENSIONS.has(posix.extname(file).toLowerCase());
}

export function fileKind(file: string): FileKind {
  if (isJsFile(file)) return "js";
  const base = posix.basename(file).toLowerCase();
  if (base === ".env" || base.startsWith(".env.") || base.endsWith(".env")) return "env";
  if (DOC_EXTENSIONS.has(posix.extname(base))) return "docs";
  return "text";
}

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

const SYNTAX_BY_EXTENSION: Record<string, TextSyntax> = {};
const register = (syntax: TextSyntax, extensions: string[]): void => {
  for (const ext of extensions) SYNTAX_BY_EXTENSION[ext] = syntax;
};
register("c-like", [
  ".go", ".cs", ".csx", ".java", ".kt", ".kts", ".scala", ".sc", ".groovy", ".gradle", ".rs", ".swift",
  ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".m", ".mm", ".dart", ".proto", ".zig", ".vue", ".svelte", ".astro",
  ".fs", ".fsx", ".v", ".sol", ".jsonc", ".json5", ".hcl", ".tf", ".tfvars",
]);
register("php", [".php", ".phtml"]);
register("hash", [
  ".sh", ".bash", ".zsh", ".fish", ".ksh", ".rb", ".rake", ".gemspec", ".pl", ".pm", ".r", ".nix", ".ps1", ".psm1",
  ".mk", ".cmake", ".conf", ".dockerfile", ".containerfile", ".tcl", ".jl", ".cr", ".ex", ".exs", ".nim",
]);
register("yaml", [".yaml", ".yml"]);
register("toml", [".toml"]);
register("ini", [".ini", ".cfg", ".editorconfig", ".desktop", ".service"]);
register("properties", [".properties"]);
register("env", [".env"]);
register("json", [".json", ".har", ".ipynb", ".webmanifest", ".postman_collection", ".postman_environment"]);
register("sql", [".sql", ".lua", ".hs", ".elm", ".ada"]);
register("markup", [".md", ".mdx", ".markdown", ".html", ".htm", ".xml", ".xhtml", ".csproj", ".fsproj", ".vbproj", ".props", ".targets", ".config", ".plist", ".svg", ".rst", ".adoc", ".xaml"]);
register("batch", [".bat", ".cmd"]);

const SYNTAX_BY_NAME: Record<string, TextSyntax> = {
  dockerfile: "hash",
  containerfile: "hash",
  makefile: "hash",
  gnumakefile: "hash",
  gemfile: "hash",
  rakefile: "hash",
  procfile: "hash",
  justfile: "hash",
  vagrantfile: "hash",
  brewfile: "hash",
  ".bashrc": "hash",
  ".profile": "hash",
  ".envrc": "hash",
  ".npmrc": "ini",
  ".gitconfig": "ini",
  ".pypirc": "ini",
  ".curlrc": "hash",
};

export function textSyntaxOf(file: string): TextSyntax {
  const base = posix.basename(file).toLowerCase();
  if (fileKind(file) === "env") return "env";
  const named = SYNTAX_BY_NAME[base];
  if (named) return named;
  // Dockerfile.dev, api.Dockerfile, Makefile.local
  if (/^(docker|container)file\b|\.(docker|container)file$|^makefile\./.test(base)) return "hash";
  return SYNTAX_BY_EXTENSION[posix.extname(base)] ?? "unknown";
}
