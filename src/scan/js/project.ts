/**
 * The repository as a set of JS/TS modules: resolves import specifiers to
 * repository files (relative paths and tsconfig/jsconfig `paths`) and parses
 * the files it is asked about, once.
 */
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import picomatch from "picomatch";
import { ts } from "./typescript-api.cjs";
import { parse as parseYaml } from "yaml";
import { FileContext, parseSource } from "./file-context.js";
import type { ExportTarget, ImportBinding } from "./file-context.js";
import { AutoImports } from "./auto-imports.js";

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const EXTENSION_SWAPS: Record<string, string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

interface PathAliases {
  /** Directory (repo-relative) that `paths` targets are relative to. */
  baseDir: string;
  paths: Array<{ prefix: string; suffix: string; wildcard: boolean; targets: string[] }>;
}

export interface ResolvedExport {
  context: FileContext;
  target: ExportTarget;
}

/** Parsed files kept for cross-file lookups; older ones are parsed again when needed, so memory stays flat on big trees. */
const MAX_CACHED_FILES = 200;

export class JsProject {
  private readonly contexts = new Map<string, FileContext | null>();
  private readonly aliasCache = new Map<string, PathAliases | null>();
  /** Workspace packages (package.json outside node_modules) by name: their directory and entry files. */
  private workspace: Map<string, { dir: string; entries: string[] }> | undefined;
  /** Names Nuxt or Nitro import without an import statement, read once on first use. */
  private autoImports: AutoImports | undefined;

  constructor(
    /** Absolute root directory. */
    readonly root: string,
    /** Every repository-relative file path the scan may look at. */
    readonly files: ReadonlySet<string>,
    private readonly readText: (file: string) => string = (file) => readFileSync(posix.join(root, file), "utf8"),
  ) {}

  /** Registers a file whose text the caller already holds. */
  contextFor(file: string, text?: string): FileContext | undefined {
    const cached = this.contexts.get(file);
    if (cached !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.contexts.delete(file);
      this.contexts.set(file, cached);
      return cached ?? undefined;
    }
    let context: FileContext | null = null;
    try {
      const source = text ?? this.readText(file);
      context = new FileContext(file, parseSource(file, source), this.implicitImports(file));
    } catch {
      context = null;
    }
    this.contexts.set(file, context);
    while (this.contexts.size > MAX_CACHED_FILES) this.contexts.delete(this.contexts.keys().next().value!);
    return context ?? undefined;
  }

  /** The names a framework imports into this file without an import statement (undefined: none). */
  private implicitImports(file: string): ((name: string) => ImportBinding | undefined) | undefined {
    this.autoImports ??= AutoImports.build(
      this.files,
      new Map(
        AutoImports.modulesToRead(this.files).flatMap((module) => {
          const text = this.textOf(module);
          return text === undefined ? [] : [[module, text] as const];
        }),
      ),
    );
    const table = this.autoImports;
    if (table.empty) return undefined;
    return (name) => {
      const source = table.sourceOf(file, name);
      if (!source) return undefined;
      const relative = posix.relative(posix.dirname(file), source.file);
      return { module: relative.startsWith(".") ? relative : `./${relative}`, name: source.name };
    };
  }

  /** A module's text, without parsing it (undefined when it cannot be read). */
  textOf(file: string): string | undefined {
    const cached = this.contexts.get(file);
    if (cached) return cached.text;
    try {
      return this.readText(file);
    } catch {
      return undefined;
    }
  }

  /** Drops parsed files that are no longer needed, keeping memory flat on big trees. */
  release(file: string): void {
    this.contexts.delete(file);
  }

  resolveModule(fromFile: string, specifier: string): string | undefined {
    return (
      this.resolveLocal(fromFile, specifier, (path) => this.resolvePath(path)) ??
      this.resolveSvelteKitLib(fromFile, specifier) ??
      this.resolveWorkspacePackage(specifier)
    );
  }

  /** The repository JSON file an import names (`import config from "../config.json"`, `require("@/app.json")`). */
  resolveJsonModule(fromFile: string, specifier: string): string | undefined {
    if (!specifier.endsWith(".json")) return undefined;
    return this.resolveLocal(fromFile, specifier, (path) => {
      const normalized = posix.normalize(path).replace(/^\.\//, "");
      return this.files.has(normalized) ? normalized : undefined;
    });
  }

  /** A relative specifier, or one the nearest tsconfig/jsconfig `paths` map, resolved by `resolvePath`. */
  private resolveLocal(
    fromFile: string,
    specifier: string,
    resolvePath: (path: string) => string | undefined,
  ): string | undefined {
    if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
      return resolvePath(posix.join(posix.dirname(fromFile), specifier));
    }
    const aliases = this.aliasesFor(posix.dirname(fromFile));
    if (!aliases) return undefined;
    for (const alias of aliases.paths) {
      let rest: string | undefined;
      if (alias.wildcard) {
        if (specifier.startsWith(alias.prefix) && specifier.endsWith(alias.suffix)) {
          rest = specifier.slice(alias.prefix.length, specifier.length - alias.suffix.length);
        }
      } else if (specifier === alias.prefix) {
        rest = "";
      }
      if (rest === undefined) continue;
      for (const target of alias.targets) {
        const resolved = resolvePath(posix.join(aliases.baseDir, target.replace("*", rest)));
        if (resolved) return resolved;
      }
    }
    return undefined;
  }

  /** SvelteKit's built-in `$lib` alias (`src/lib` of the app), which lives in a generated tsconfig that is not checked in. */
  private resolveSvelteKitLib(fromFile: string, specifier: string): string | undefined {
    if (specifier !== "$lib" && !specifier.startsWith("$lib/")) return undefined;
    const rest = specifier.slice("$lib".length);
    for (let dir = posix.dirname(fromFile); ; dir = posix.dirname(dir)) {
      const base = dir === "." ? "" : `${dir}/`;
      if (this.files.has(`${base}package.json`)) return this.resolvePath(`${base}src/lib${rest}`);
      if (dir === "." || dir === "/" || dir === "") return undefined;
    }
  }

  /** `@studio/render-worker` (or `…/sub/path`) naming a package of this monorepo: its entry file. */
  private resolveWorkspacePackage(specifier: string): string | undefined {
    const parts = specifier.split("/");
    const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
    const pkg = this.workspacePackages().get(name);
    if (!pkg) return undefined;
    const sub = specifier.slice(name.length);
    if (sub) return this.resolvePath(posix.join(pkg.dir, sub));
    for (const entry of pkg.entries) {
      const resolved = this.resolvePath(posix.join(pkg.dir, entry));
      if (resolved) return resolved;
    }
    return this.resolvePath(posix.join(pkg.dir, "src/index")) ?? this.resolvePath(posix.join(pkg.dir, "index"));
  }

  /**
   * Packages the repository declares as its workspace (pnpm-workspace.yaml or
   * the root package.json's `workspaces`). Only those: a checked-in copy of
   * `axios` under vendor/ must not shadow the real one.
   */
  private workspacePackages(): Map<string, { dir: string; entries: string[] }> {
    if (this.workspace) return this.workspace;
    this.workspace = new Map();
    const globs = this.workspaceGlobs();
    if (globs.length === 0) return this.workspace;
    const isMember = picomatch(globs.map((g) => g.replace(/\/+$/, "")));
    for (const file of this.files) {
      if (!file.endsWith("/package.json") || file.includes("node_modules/")) continue;
      if (!isMember(posix.dirname(file))) continue;
      let manifest: {
        name?: unknown;
        exports?: unknown;
        module?: unknown;
        main?: unknown;
        types?: unknown;
        source?: unknown;
      };
      try {
        manifest = JSON.parse(this.readText(file)) as typeof manifest;
      } catch {
        continue;
      }
      if (typeof manifest !== "object" || manifest === null || typeof manifest.name !== "string") continue;
      const rootExport =
        typeof manifest.exports === "object" && manifest.exports !== null
          ? (manifest.exports as Record<string, unknown>)["."]
          : manifest.exports;
      const entries = [manifest.source, rootExport, manifest.types, manifest.module, manifest.main].filter(
        (e): e is string => typeof e === "string",
      );
      this.workspace.set(manifest.name, { dir: posix.dirname(file), entries });
    }
    return this.workspace;
  }

  private resolvePath(path: string): string | undefined {
    const normalized = posix.normalize(path).replace(/^\.\//, "");
    if (this.files.has(normalized) && EXTENSIONS.some((e) => normalized.endsWith(e))) return normalized;
    const ext = posix.extname(normalized);
    for (const swap of EXTENSION_SWAPS[ext] ?? []) {
      const candidate = normalized.slice(0, -ext.length) + swap;
      if (this.files.has(candidate)) return candidate;
    }
    for (const e of EXTENSIONS) if (this.files.has(normalized + e)) return normalized + e;
    for (const e of EXTENSIONS) if (this.files.has(`${normalized}/index${e}`)) return `${normalized}/index${e}`;
    return undefined;
  }

  /** The nearest tsconfig.json or jsconfig.json `paths`, walking up from a directory. */
  private aliasesFor(dir: string): PathAliases | null {
    const cached = this.aliasCache.get(dir);
    if (cached !== undefined) return cached;
    let result: PathAliases | null = null;
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const file = dir === "." || dir === "" ? name : `${dir}/${name}`;
      if (!this.files.has(file)) continue;
      result = this.readAliases(file, dir);
      break;
    }
    if (result === null && dir !== "." && dir !== "") result = this.aliasesFor(posix.dirname(dir));
    this.aliasCache.set(dir, result);
    return result;
  }

  private workspaceGlobs(): string[] {
    const globs: string[] = [];
    try {
      if (this.files.has("pnpm-workspace.yaml")) {
        const parsed = parseYaml(this.readText("pnpm-workspace.yaml")) as { packages?: unknown } | null;
        if (Array.isArray(parsed?.packages))
          globs.push(...parsed.packages.filter((g): g is string => typeof g === "string"));
      }
      if (this.files.has("package.json")) {
        const root = JSON.parse(this.readText("package.json")) as { workspaces?: unknown };
        const list = Array.isArray(root.workspaces)
          ? root.workspaces
          : (root.workspaces as { packages?: unknown } | undefined)?.packages;
        if (Array.isArray(list)) globs.push(...list.filter((g): g is string => typeof g === "string"));
      }
    } catch {
      // An unreadable workspace file: no workspace resolution (the manifest scanner reports the file).
    }
    return globs.filter((g) => !g.startsWith("!"));
  }

  private readAliases(configFile: string, dir: string): PathAliases | null {
    let text: string;
    try {
      text = this.readText(configFile);
    } catch {
      return null;
    }
    const parsed = ts.parseConfigFileTextToJson(configFile, text);
    const options = (
      parsed.config as { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } } | undefined
    )?.compilerOptions;
    if (!options?.paths) return null;
    const baseDir = posix.normalize(posix.join(dir === "" ? "." : dir, options.baseUrl ?? "."));
    const paths = Object.entries(options.paths).map(([pattern, targets]) => {
      const star = pattern.indexOf("*");
      return star < 0
        ? { prefix: pattern, suffix: "", wildcard: false, targets }
        : { prefix: pattern.slice(0, star), suffix: pattern.slice(star + 1), wildcard: true, targets };
    });
    return { baseDir, paths };
  }

  /** Follows re-exports to the node that defines an export of a module file. */
  resolveExport(file: string, name: string, seen = new Set<string>()): ResolvedExport | undefined {
    const key = `${file}#${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const context = this.contextFor(file);
    if (!context) return undefined;
    const target = context.exports.get(name);
    // A module passed on whole (`export * as x from`) is the caller's to take as a module.
    if (target?.kind === "reexport" && target.name !== "*") {
      const next = this.resolveModule(file, target.module);
      return next ? this.resolveExport(next, target.name, seen) : { context, target };
    }
    if (target) return { context, target };
    for (const module of context.starExports) {
      const next = this.resolveModule(file, module);
      const found = next && this.resolveExport(next, name, seen);
      if (found) return found;
    }
    return undefined;
  }
}
