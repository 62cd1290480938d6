/**
 * The Python files of a repository as one value space: each module parsed
 * once, and the names it imports from other files of the repository
 * followed into them (`from gallery.config import settings`, `from . import
 * settings`, `import app.settings as cfg`), and Django's `settings` into the
 * project's settings module. Files outside the repository (installed
 * packages) stay unknown. Env reads and loaded config documents resolve
 * through the repository's own env and config files.
 */
import { importBindings, moduleFile, type PyImportBinding, starImports } from "./imports.js";
import { PyModule } from "./module.js";
import { ConfigDocuments, type PyCallSite } from "./repo-sources.js";
import { PyValues } from "./values.js";

export interface PyPackageSources {
  /** The value the repository's env files give a variable (ComfyDeploy bases only). */
  env?: (name: string) => string | undefined;
  /** Every file of the repository, for the config documents modules load. */
  allFiles?: readonly string[];
  /** Whether a value is a ComfyDeploy API base. */
  isApiBase?: (value: string) => boolean;
}

export class PyPackage {
  private readonly modules = new Map<string, PyValues | undefined>();
  private readonly fileSet: ReadonlySet<string>;
  /** The Django settings module, once looked for (null: not yet). */
  private settingsModule: string | undefined | null = null;
  private readonly documents: ConfigDocuments;
  private readonly starLookups = new Set<string>();
  private readonly callSites = new Map<string, PyCallSite[]>();

  constructor(
    files: readonly string[],
    private readonly read: (file: string) => string | undefined,
    private readonly sources: PyPackageSources = {},
  ) {
    this.fileSet = new Set(files);
    this.documents = new ConfigDocuments(sources.allFiles ?? files, read);
  }

  /** The module's values; `text` when the caller has read it already. */
  valuesOf(file: string, text?: string): PyValues | undefined {
    if (this.modules.has(file)) return this.modules.get(file);
    const source = text ?? this.read(file);
    if (source === undefined) {
      this.modules.set(file, undefined);
      return undefined;
    }
    const module = new PyModule(source);
    let bindings: Map<string, PyImportBinding> | undefined;
    const { env, isApiBase } = this.sources;
    const values = new PyValues(
      module,
      (local) => {
        bindings ??= importBindings(module);
        const binding = bindings.get(local);
        return binding ? this.follow(file, binding) : this.starImported(file, module, local);
      },
      {
        ...(env ? { env } : {}),
        ...(isApiBase ? { isApiBase } : {}),
        document: (path) => this.documents.document(path, file),
        callers: (name) => this.callers(file, name),
      },
    );
    this.modules.set(file, values);
    return values;
  }

  /**
   * The calls of `name`, defined in `file`, across the package: in `file`
   * itself, and in modules that import it (`from .api import ComfyAPI`,
   * `from . import api` … `api.ComfyAPI(…)`). Files are parsed only when
   * their text names it.
   */
  private callers(file: string, name: string): PyCallSite[] {
    const key = `${file}\0${name}`;
    let sites = this.callSites.get(key);
    if (!sites) {
      sites = this.findCallers(file, name);
      this.callSites.set(key, sites);
    }
    return sites;
  }

  private findCallers(file: string, name: string): PyCallSite[] {
    const home = this.valuesOf(file);
    if (!home) return [];
    const word = new RegExp(`\\b${name}\\b`);
    const sites: PyCallSite[] = [];
    for (const other of this.fileSet) {
      const text = this.read(other);
      if (text === undefined || !word.test(text)) continue;
      const values = this.valuesOf(other);
      if (!values) continue;
      const t = values.module.tokens;
      for (let open = 0; open < t.length; open++) {
        if (t[open]!.value !== "(" || t[open - 1]?.value !== name) continue;
        const callee = values.module.calleeOf(open);
        if (!callee || callee.receiverCall !== undefined || callee.segments.length > 2) continue;
        const [first] = callee.segments;
        const defined =
          other === file
            ? callee.segments.length === 1
            : callee.segments.length === 1
              ? values.link?.(first!)?.values === home
              : values.link?.(first!)?.values === home && values.link?.(first!)?.name === undefined;
        if (defined) sites.push({ values, open });
      }
    }
    return sites;
  }

  /** A name a module star-imports from another file of the repository (the last such import defining it wins). */
  private starImported(file: string, module: PyModule, local: string): { values: PyValues; name: string } | undefined {
    if (this.starLookups.has(`${file}\0${local}`)) return undefined; // a cycle of star imports
    this.starLookups.add(`${file}\0${local}`);
    try {
      for (const dotted of starImports(module).reverse()) {
        const target = moduleFile(dotted, file, this.fileSet);
        const values = target && target !== file ? this.valuesOf(target) : undefined;
        if (values && (values.module.resolve(local, -1) || values.link?.(local))) return { values, name: local };
      }
      return undefined;
    } finally {
      this.starLookups.delete(`${file}\0${local}`);
    }
  }

  /** A binding's target: a submodule (`from . import settings`) or package module, else a name in the module it is imported from. */
  private follow(importer: string, binding: PyImportBinding): { values: PyValues; name?: string } | undefined {
    if (binding.dotted === "django.conf" && binding.name === "settings") {
      const settings = this.djangoSettings();
      const values = settings && settings !== importer ? this.valuesOf(settings) : undefined;
      return values && { values };
    }
    if (binding.name !== undefined) {
      const separator = binding.dotted.endsWith(".") ? "" : ".";
      const submodule = moduleFile(`${binding.dotted}${separator}${binding.name}`, importer, this.fileSet);
      const values = submodule && submodule !== importer ? this.valuesOf(submodule) : undefined;
      if (values) return { values };
    }
    const target = moduleFile(binding.dotted, importer, this.fileSet);
    const values = target && target !== importer ? this.valuesOf(target) : undefined;
    if (!values) return undefined;
    return binding.name !== undefined ? { values, name: binding.name } : { values };
  }

  /**
   * The module `django.conf.settings` reads: the one DJANGO_SETTINGS_MODULE names in manage.py, else the
   * repository's shallowest `settings.py` (or a settings package's `production.py`, `base.py`, `__init__.py`).
   */
  private djangoSettings(): string | undefined {
    if (this.settingsModule !== null) return this.settingsModule;
    const manage = [...this.fileSet].filter((f) => f === "manage.py" || f.endsWith("/manage.py")).sort()[0];
    const named = manage && DJANGO_SETTINGS_MODULE.exec(this.read(manage) ?? "")?.[1];
    let found = named ? moduleFile(named, manage, this.fileSet) : undefined;
    for (const tail of SETTINGS_FILES) {
      if (found) break;
      found = [...this.fileSet]
        .filter((f) => f === tail || f.endsWith(`/${tail}`))
        .sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b))[0];
    }
    this.settingsModule = found;
    return found;
  }
}

const DJANGO_SETTINGS_MODULE = /DJANGO_SETTINGS_MODULE["']\s*,\s*["']([\w.]+)["']/;
const SETTINGS_FILES = ["settings.py", "settings/production.py", "settings/base.py", "settings/__init__.py"];
