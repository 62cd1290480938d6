/**
 * Modules transforms add to a package (the V1 compat module): where each
 * goes, how a file imports it, and, once every file is done, the new files
 * to write. A module goes beside the package's first file (in path order)
 * with a finding of its anchor rules, in that file's flavour; one that is
 * already in the package is used where it is and never rewritten.
 */
import { existsSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import fg from "fast-glob";
import { parse as parseJsonc } from "jsonc-parser";
import type { Finding } from "../core/finding.js";
import { isJsFile } from "../platform/file-types.js";
import { nearestPackageDir } from "../files/package-dirs.js";
import { sourceStyleOf } from "../../transforms/lib/source-style.js";
import type { FixEvent, ModuleFlavor, SupportImport, SupportModule } from "../../transforms/types.js";

interface Placement {
  module: SupportModule;
  /** Repository-relative path of the module. */
  file: string;
  flavor: ModuleFlavor;
  /** The file it sits beside, whose style it takes. */
  anchor: string;
  exists: boolean;
}

export interface NewModule {
  file: string;
  text: string;
  events: FixEvent[];
}

const MODULE_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];

export class SupportModules {
  private readonly placements = new Map<string, Placement>();
  private readonly used = new Set<string>();
  /** Each file's package directory, looked up once (anchors are chosen among every file with findings, for every package). */
  private readonly packages = new Map<string, string>();
  /** Per placed module, the files that import it and the specifier each uses. */
  private readonly importers = new Map<string, Map<string, string>>();
  /** Files' texts after fix, for what they take from the modules. */
  private readonly outputs = new Map<string, string>();
  /** Each package directory's `type` field ("module", "commonjs" or ""). */
  private readonly packageTypes = new Map<string, string>();

  constructor(
    private readonly root: string,
    /** Every active finding of the scan, by file. */
    private readonly findings: ReadonlyMap<string, readonly Finding[]>,
    /** A file's text before fix wrote it (fix writes as it goes; a module takes the style the file had). */
    private readonly original: (file: string) => string | undefined = () => undefined,
  ) {}

  /** How `file` imports `module`; the module is written when planned() runs. */
  use(module: SupportModule, file: string): SupportImport {
    const placement = this.place(module, file);
    const key = placementKey(module, this.packageOf(file));
    this.used.add(key);
    const nodeEsm = this.isNodeEsm(file);
    const specifier = specifierFor(this.root, file, placement, nodeEsm);
    this.importers.set(key, new Map(this.importers.get(key)).set(file, specifier));
    return { specifier, syntax: nodeEsm ? "esm" : importSyntaxOf(this.read(file), file) };
  }

  /** A file's text as fix leaves it: what it takes from the modules it imports. */
  noteOutput(file: string, text: string): void {
    this.outputs.set(file, text);
  }

  /** The modules that were used and are not in their package yet. */
  async planned(): Promise<NewModule[]> {
    const out: NewModule[] = [];
    for (const [key, placement] of [...this.placements].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!this.used.has(key) || placement.exists) continue;
      const absolute = posix.join(this.root, placement.file);
      const text = await placement.module.source(
        placement.flavor,
        absolute,
        sourceStyleOf(this.read(placement.anchor)),
        this.namesUsed(key),
      );
      out.push({ file: placement.file, text, events: [placement.module.announce] });
    }
    return out;
  }

  /** The exports a placed module's importers name, or undefined (all of them) when an import is not one this can read. */
  private namesUsed(key: string): Set<string> | undefined {
    const names = new Set<string>();
    for (const [file, specifier] of this.importers.get(key) ?? []) {
      const text = this.outputs.get(file);
      const found = text === undefined ? undefined : importedFrom(text, specifier);
      if (!found) return undefined;
      for (const name of found) names.add(name);
    }
    return names;
  }

  private place(module: SupportModule, file: string): Placement {
    const pkg = this.packageOf(file);
    const key = placementKey(module, pkg);
    const known = this.placements.get(key);
    if (known) return known;
    const existing = fg.sync(
      MODULE_EXTENSIONS.map((ext) => `**/${module.name}${ext}`),
      {
        cwd: posix.join(this.root, pkg),
        ignore: ["**/node_modules/**"],
      },
    );
    const inPackage = existing
      .map((f) => (pkg === "." ? f : `${pkg}/${f}`))
      .filter((f) => this.packageOf(f) === pkg)
      .sort();
    let placement: Placement;
    if (inPackage[0]) {
      placement = {
        module,
        file: inPackage[0],
        flavor: flavorOf(inPackage[0], ""),
        anchor: inPackage[0],
        exists: true,
      };
    } else {
      const anchor = this.anchorFor(module, pkg) ?? file;
      const flavor = flavorOf(anchor, this.read(anchor), this.isNodeEsm(anchor));
      const dir = posix.dirname(anchor);
      const name = `${module.name}${extensionFor(anchor, flavor)}`;
      placement = { module, file: dir === "." ? name : `${dir}/${name}`, flavor, anchor, exists: false };
    }
    this.placements.set(key, placement);
    return placement;
  }

  /** The package's first JS/TS file, in path order, with a finding of the module's anchor rules. */
  private anchorFor(module: SupportModule, pkg: string): string | undefined {
    return [...this.findings.keys()]
      .filter((f) => isJsFile(f) && !f.endsWith(".d.ts") && this.packageOf(f) === pkg)
      .filter((f) => this.findings.get(f)!.some((finding) => module.anchorRules.includes(finding.ruleId)))
      .sort()[0];
  }

  /** Node runs the file as an ES module: `.mjs`/`.mts`, or `.js`/`.ts` in a package whose package.json says `"type": "module"`. */
  private isNodeEsm(file: string): boolean {
    const ext = posix.extname(file).toLowerCase();
    if (ext === ".mjs" || ext === ".mts") return true;
    if (![".js", ".jsx", ".ts", ".tsx"].includes(ext)) return false;
    const pkg = this.packageOf(file);
    let type = this.packageTypes.get(pkg);
    if (type === undefined) {
      type = packageTypeOf(posix.join(this.root, pkg, "package.json"));
      this.packageTypes.set(pkg, type);
    }
    return type === "module";
  }

  private packageOf(file: string): string {
    let pkg = this.packages.get(file);
    if (pkg === undefined) {
      pkg = nearestPackageDir(file, (path) => existsSync(posix.join(this.root, path))) ?? ".";
      this.packages.set(file, pkg);
    }
    return pkg;
  }

  private read(file: string): string {
    const original = this.original(file);
    if (original !== undefined) return original;
    try {
      return readFileSync(posix.join(this.root, file), "utf8");
    } catch {
      return "";
    }
  }
}

/**
 * The names a file takes from the module at `specifier`: the members it reads
 * through a namespace (`ns.name`), or the names it imports or destructures.
 * Undefined when the file imports it in a way not read here.
 */
function importedFrom(text: string, specifier: string): string[] | undefined {
  const from = `["']${specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}["']`;
  const names: string[] = [];
  let found = false;
  const namespaces = [
    ...text.matchAll(new RegExp(`import\\s+(?:type\\s+)?\\*\\s+as\\s+(\\w+)\\s+from\\s+${from}`, "g")),
    ...text.matchAll(new RegExp(`(?:const|let|var)\\s+(\\w+)\\s*=\\s*require\\(\\s*${from}\\s*\\)`, "g")),
  ];
  for (const [, local] of namespaces) {
    found = true;
    for (const member of text.matchAll(new RegExp(`\\b${local}\\.(\\w+)`, "g"))) names.push(member[1]!);
  }
  const lists = [
    ...text.matchAll(new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s+${from}`, "g")),
    ...text.matchAll(new RegExp(`(?:const|let|var)\\s+\\{([^}]*)\\}\\s*=\\s*require\\(\\s*${from}\\s*\\)`, "g")),
  ];
  for (const [, list] of lists) {
    found = true;
    for (const entry of list!.split(",")) {
      const name = /^\s*(?:type\s+)?(\w+)/.exec(entry)?.[1];
      if (name) names.push(name);
    }
  }
  return found ? names : undefined;
}

function placementKey(module: SupportModule, pkg: string): string {
  return `${pkg}\u0000${module.name}`;
}

/** TypeScript files get a TypeScript module; JavaScript ones an ES module or CommonJS, as Node runs the file or as it is written. */
function flavorOf(file: string, text: string, nodeEsm = false): ModuleFlavor {
  const ext = posix.extname(file).toLowerCase();
  if ([".ts", ".tsx", ".mts", ".cts"].includes(ext)) return "ts";
  if (ext === ".mjs" || nodeEsm) return "esm";
  if (ext === ".cjs") return "cjs";
  return /^\s*(import\s[^(]|export\s)/m.test(text) ? "esm" : "cjs";
}

function extensionFor(anchor: string, flavor: ModuleFlavor): string {
  const ext = posix.extname(anchor).toLowerCase();
  if (flavor === "ts") return ext === ".mts" || ext === ".cts" ? ext : ".ts";
  return ext === ".mjs" || ext === ".cjs" ? ext : ".js";
}

/** The extension a module is imported with where explicit extensions are the rule (NodeNext, Node's ESM). */
function runtimeExtension(file: string): string {
  const ext = posix.extname(file);
  return ext === ".ts" ? ".js" : ext === ".mts" ? ".mjs" : ext === ".cts" ? ".cjs" : ext;
}

/**
 * A specifier in the asking file's own style. Through a path alias
 * (`@/lib/…`) when the file imports other modules with that alias and the
 * nearest tsconfig maps it over the module; else a relative path. With an
 * extension when the file's relative imports carry one, when the file is a
 * `.mjs`/`.cjs` (or their TypeScript forms), or when the module's extension
 * is not one resolvers try by themselves. A file with no relative imports
 * takes the rule of its module system: explicit in Node ESM (`nodeEsm`) and
 * NodeNext, none where the nearest tsconfig resolves as a bundler does.
 */
function specifierFor(root: string, file: string, placement: Placement, nodeEsm: boolean): string {
  let text = "";
  try {
    text = readFileSync(posix.join(root, file), "utf8");
  } catch {
    // a file the runner could not read asks for nothing
  }
  const specifiers = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
  const aliased = aliasSpecifier(root, file, placement.file, specifiers);
  if (aliased) return aliased;
  let relative = posix.relative(posix.dirname(file), placement.file);
  if (!relative.startsWith(".")) relative = `./${relative}`;
  const bare = relative.slice(0, -posix.extname(relative).length);
  const relativeImports = specifiers.filter((s) => s.startsWith("./") || s.startsWith("../"));
  const explicit = relativeImports.some((s) => /\.(m|c)?[jt]s$/.test(s));
  const needsExtension =
    explicit ||
    [".mjs", ".cjs", ".mts", ".cts"].includes(posix.extname(file)) ||
    [".mjs", ".cjs", ".mts", ".cts"].includes(posix.extname(placement.file)) ||
    (relativeImports.length === 0 && explicitByResolution(root, file, nodeEsm));
  return needsExtension ? `${bare}${runtimeExtension(placement.file)}` : bare;
}

/**
 * The module's path through an alias of the nearest config's `paths` that
 * the file already uses (`"@/*": ["./*"]` and `@/lib/comfy` imported), when
 * the alias's target covers the module.
 */
function aliasSpecifier(root: string, file: string, module: string, used: readonly string[]): string | undefined {
  const config = nearestConfig(root, file);
  const paths = config?.options.paths;
  if (!config || !paths) return undefined;
  const base = posix.normalize(posix.join(config.dir, config.options.baseUrl ?? "."));
  const bare = module.slice(0, -posix.extname(module).length);
  for (const [pattern, targets] of Object.entries(paths)) {
    const star = pattern.indexOf("*");
    if (star < 0 || !used.some((s) => s.startsWith(pattern.slice(0, star)))) continue;
    for (const target of targets) {
      const targetStar = target.indexOf("*");
      if (targetStar < 0) continue;
      const prefix = posix.normalize(posix.join(base, target.slice(0, targetStar))).replace(/\/$/, "");
      const within = prefix === "." ? bare : bare.startsWith(`${prefix}/`) ? bare.slice(prefix.length + 1) : undefined;
      if (within !== undefined) return `${pattern.slice(0, star)}${within}${pattern.slice(star + 1)}`;
    }
  }
  return undefined;
}

interface ConfigOptions {
  module?: string;
  moduleResolution?: string;
  baseUrl?: string;
  paths?: Record<string, string[]>;
}

/** The nearest tsconfig.json or jsconfig.json above a file, with the directory it sits in. */
function nearestConfig(root: string, file: string): { dir: string; options: ConfigOptions } | undefined {
  for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const options = compilerOptionsOf(posix.join(root, dir, name));
      if (options) return { dir, options };
    }
    if (dir === "." || dir === "/") return undefined;
  }
}

/**
 * Relative imports need an extension: the nearest tsconfig.json or
 * jsconfig.json resolves as Node does (node16, nodenext), or it says nothing
 * of bundlers and Node runs the file as an ES module.
 */
function explicitByResolution(root: string, file: string, nodeEsm: boolean): boolean {
  const options = nearestConfig(root, file)?.options;
  const resolution = options?.moduleResolution ?? options?.module ?? "";
  if (/^node(16|next)$/i.test(resolution)) return true;
  if (/^bundler$/i.test(options?.moduleResolution ?? "")) return false;
  return nodeEsm;
}

/** The `type` field of a package.json ("" when absent or unreadable). */
function packageTypeOf(path: string): string {
  try {
    const type = (JSON.parse(readFileSync(path, "utf8")) as { type?: unknown }).type;
    return typeof type === "string" ? type : "";
  } catch {
    return "";
  }
}

/** A config's compilerOptions, merged over those of a relative `extends`. */
function compilerOptionsOf(path: string, depth = 0): ConfigOptions | undefined {
  if (!existsSync(path) || depth > 4) return undefined;
  const config = parseJsonc(readFileSync(path, "utf8")) as
    | { extends?: unknown; compilerOptions?: ConfigOptions }
    | undefined;
  const base =
    typeof config?.extends === "string" && config.extends.startsWith(".")
      ? compilerOptionsOf(
          posix.join(posix.dirname(path), config.extends.endsWith(".json") ? config.extends : `${config.extends}.json`),
          depth + 1,
        )
      : undefined;
  return { ...base, ...config?.compilerOptions };
}

function importSyntaxOf(text: string, file: string): "esm" | "cjs" {
  if (file.endsWith(".cjs") || file.endsWith(".cts")) return "cjs";
  if (/^\s*(import\s|export\s)/m.test(text)) return "esm";
  return /\brequire\s*\(/.test(text) ? "cjs" : "esm";
}
