/**
 * Which files can pin the ComfyUI node BennyKok/comfyui-deploy, by their
 * names: the scanner reads these kinds, and the node-pin transform edits them.
 */
import { posix } from "node:path";
import { isJsFile } from "../../platform/file-types.js";
import { isDockerfile } from "../shell/dockerfile.js";

export type PinFileKind =
  | "dockerfile"
  | "shell"
  | "maybe-shell"
  | "yaml"
  | "json"
  | "gitmodules"
  | "pyproject"
  | "python"
  | "list"
  | "makefile"
  | "js"
  | "markdown";

/** Manifests and lockfiles other scanners own (and report as unreadable). */
const OTHER_OWNERS = new Set([
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "composer.json",
]);

/** Install lists: one package or clone URL a line. */
function isPinList(file: string): boolean {
  return /\.(txt|list|lst)$/i.test(file);
}

/** `Makefile`, `GNUmakefile`, `*.mk`: recipes are shell commands. */
function isMakefile(base: string): boolean {
  return base === "makefile" || base === "gnumakefile" || base.endsWith(".mk");
}

/** A pyproject.toml: a vendored copy of the node names its version there. */
function isPyproject(file: string): boolean {
  return /(^|\/)pyproject\.toml$/i.test(file);
}

export function pinFileKind(file: string): PinFileKind | undefined {
  const base = posix.basename(file).toLowerCase();
  if (OTHER_OWNERS.has(base)) return undefined;
  // Before the Dockerfile names: `dockerfile.py` is code that writes one.
  if (posix.extname(base) === ".py") return "python";
  // Code that writes a Dockerfile or runs git; the transforms leave JS/TS to their codemods.
  if (isJsFile(file)) return "js";
  if (isDockerfile(file)) return "dockerfile";
  if (base === ".gitmodules") return "gitmodules";
  if (isPyproject(file)) return "pyproject";
  if (isMakefile(base)) return "makefile";
  const ext = posix.extname(base);
  if ([".sh", ".bash", ".zsh", ".ksh"].includes(ext)) return "shell";
  if (ext === ".yml" || ext === ".yaml") return "yaml";
  if (ext === ".json") return "json";
  if (isPinList(file)) return "list";
  // A README's setup section: its fenced shell and Dockerfile blocks.
  if ([".md", ".mdx", ".markdown"].includes(ext)) return "markdown";
  // Scripts without an extension are recognised by their shebang.
  if (!base.includes(".")) return "maybe-shell";
  return undefined;
}
