/**
 * The Python files of a repository as one value space: each module parsed
 * once, and the names it imports from other files of the repository
 * followed into them (`from gallery.config import settings`, `from . import
 * settings`, `import app.settings as cfg`), and Django's `settings` into the
 * project's settings module. Files outside the repository (installed
 * packages) stay unknown.
 */
import { importBindings, moduleFile, type PyImportBinding } from "./imports.js";
import { PyModule } from "./module.js";
import { PyValues } from "./values.js";

export class PyPackage {
  private readonly modules = new Map<string, PyValues | undefined>();
  private readonly fileSet: ReadonlySet<string>;
  /** The Django settings module, once looked for (null: not yet). */
  private settingsModule: string | undefined | null = null;

  constructor(
    files: readonly string[],
    private readonly read: (file: string) => string | undefined,
  ) {
    this.fileSet = new Set(files);
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
    const values = new PyValues(module, (local) => {
      bindings ??= importBindings(module);
      const binding = bindings.get(local);
      return binding && this.follow(file, binding);
    });
    this.modules.set(file, values);
    return values;
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
