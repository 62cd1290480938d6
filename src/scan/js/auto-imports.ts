/**
 * Names a framework puts in scope without an import statement. In a Nuxt app
 * (a folder with nuxt.config.*) the exports of `composables/`, `utils/`
 * (also under `app/`, Nuxt 4's source folder) and `shared/utils/` are in
 * scope in every file of the app, and those of `server/utils/` in every file
 * under `server/`; a Nitro app (nitro.config.*) does the same for `utils/`
 * and `server/utils/`. A route calling `useComfy()` with no import uses the
 * `useComfy` that `server/utils/comfy.ts` exports.
 *
 * The export names are read from the text (no parser): the importer
 * follow-up's index needs them before anything is parsed, and the analysis
 * resolves a free name through the same table.
 */
import { posix } from "node:path";

/** Where an auto-imported name comes from: the module, and the name it exports (`default` for a default export). */
export interface AutoImportSource {
  file: string;
  name: string;
}

interface SourceDir {
  /** The folder whose modules' exports are auto-imported, with a trailing slash. */
  dir: string;
  /** The folder whose files see them ("" for the whole repository), with a trailing slash. */
  scope: string;
  /** A folder inside the scope that does not see them (a Nuxt app's server does not get its composables). */
  outside?: string;
}

const CONFIG = /(?:^|\/)(nuxt|nitro)\.config\.[cm]?[jt]s$/;
const MODULE = /\.(?:[cm]?[jt]sx?)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** `export function f`, `export const f`, `export class F`, and the names of `export { a, b as c }`. */
const DECLARED_EXPORT = /\bexport\s+(?:async\s+)?(?:function\s*\*?|const|let|var|class)\s*([A-Za-z_$][\w$]*)/g;
const EXPORT_LIST = /\bexport\s*\{([^}]*)\}/g;
const DEFAULT_EXPORT = /\bexport\s+default\b/;

export class AutoImports {
  private constructor(
    private readonly dirs: readonly SourceDir[],
    /** Per source folder: the names its modules export, first module (in path order) first. */
    private readonly names: ReadonlyMap<SourceDir, ReadonlyMap<string, AutoImportSource>>,
  ) {}

  /** The modules whose texts `build` needs: those in an auto-import folder of the list's apps. */
  static modulesToRead(files: Iterable<string>): string[] {
    const list = [...files];
    const dirs = sourceDirs(list);
    if (dirs.length === 0) return [];
    return list.filter((f) => MODULE.test(f) && !DECLARATION.test(f) && dirs.some((d) => f.startsWith(d.dir))).sort();
  }

  /** The table for a file list, from the texts of its `modulesToRead` (a module without a text exports nothing). */
  static build(files: Iterable<string>, texts: ReadonlyMap<string, string>): AutoImports {
    const list = [...files];
    const dirs = sourceDirs(list);
    const names = new Map<SourceDir, Map<string, AutoImportSource>>();
    for (const file of AutoImports.modulesToRead(list)) {
      const dir = dirs.find((d) => file.startsWith(d.dir))!;
      const text = texts.get(file);
      if (text === undefined) continue;
      const table = names.get(dir) ?? new Map<string, AutoImportSource>();
      names.set(dir, table);
      for (const [local, name] of exportedNames(file, text)) if (!table.has(local)) table.set(local, { file, name });
    }
    return new AutoImports(dirs, names);
  }

  /** Whether the repository has any auto-import folder at all. */
  get empty(): boolean {
    return this.names.size === 0;
  }

  /** Every name some auto-import folder puts in scope (for the import index's one pass). */
  allNames(): string[] {
    return [...new Set([...this.names.values()].flatMap((table) => [...table.keys()]))];
  }

  /** The module and export a free name of this file refers to, if an auto-import folder whose scope holds the file has it. */
  sourceOf(file: string, local: string): AutoImportSource | undefined {
    for (const dir of this.dirs) {
      if (!inScope(file, dir)) continue;
      const found = this.names.get(dir)?.get(local);
      if (found && found.file !== file) return found;
    }
    return undefined;
  }

  /** The names a module puts in scope, and which files see them; undefined when it is in no auto-import folder. */
  exportsOf(module: string): { names: string[]; sees: (file: string) => boolean } | undefined {
    const names: string[] = [];
    const dirs: SourceDir[] = [];
    for (const [dir, table] of this.names) {
      const own = [...table].filter(([, source]) => source.file === module).map(([local]) => local);
      if (own.length === 0) continue;
      names.push(...own);
      dirs.push(dir);
    }
    if (names.length === 0) return undefined;
    return { names, sees: (file) => file !== module && dirs.some((dir) => inScope(file, dir)) };
  }
}

function inScope(file: string, dir: SourceDir): boolean {
  return (
    file.startsWith(dir.scope) && !(dir.outside && file.startsWith(dir.outside)) && !file.includes("node_modules/")
  );
}

/** The auto-import folders of every Nuxt or Nitro app in the list, by the folder of its config file. */
function sourceDirs(files: readonly string[]): SourceDir[] {
  const dirs: SourceDir[] = [];
  for (const file of files) {
    const match = CONFIG.exec(file);
    if (!match || file.includes("node_modules/")) continue;
    const dir = posix.dirname(file);
    const root = dir === "." ? "" : `${dir}/`;
    if (match[1] === "nuxt") {
      dirs.push({ dir: `${root}server/utils/`, scope: `${root}server/` });
      for (const app of ["", "app/"])
        for (const folder of ["composables/", "utils/"])
          dirs.push({ dir: `${root}${app}${folder}`, scope: root, outside: `${root}server/` });
      dirs.push({ dir: `${root}shared/utils/`, scope: root });
    } else {
      for (const folder of ["utils/", "server/utils/"]) dirs.push({ dir: `${root}${folder}`, scope: root });
    }
  }
  return dirs;
}

/** Local name → exported name: declared and listed exports by their names, a default export by the module's name in camelCase. */
function exportedNames(file: string, text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of text.matchAll(DECLARED_EXPORT)) out.set(match[1]!, match[1]!);
  for (const match of text.matchAll(EXPORT_LIST)) {
    for (const part of match[1]!.split(",")) {
      const words = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/);
      const exported = words[words.length - 1]!.trim();
      if (/^[A-Za-z_$][\w$]*$/.test(exported) && exported !== "default") out.set(exported, exported);
    }
  }
  if (DEFAULT_EXPORT.test(text)) {
    const base = posix.basename(file).replace(MODULE, "");
    const stem = base === "index" ? posix.basename(posix.dirname(file)) : base;
    out.set(camelCase(stem), "default");
  }
  return out;
}

function camelCase(stem: string): string {
  return stem.replace(/[-_.]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}
