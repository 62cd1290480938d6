/**
 * Where the importer follow-up looks in third-party code: a client module in a
 * library is imported by that library's own files (other libraries import it
 * by package name, which resolves to their own copy). A package's files are
 * searched with rg for import specifiers naming the module. The search for a
 * round is started as soon as the round's work is known, before its analysis,
 * for every package and name that work holds (its client modules are among
 * them), so rg runs beside the parser and the round only filters its result.
 */
import { posix } from "node:path";
import { specifierNamingPattern } from "./import-index.js";
import { RIPGREP_MIN_FILES } from "./prefilter-pass.js";
import { ripgrepMatches } from "./ripgrep-feed.js";

/** The names an import of these modules spells after its last slash: the file's name, an index file's folder. */
export function importedNames(modules: readonly string[]): Set<string> {
  return new Set(
    modules.map((m) => {
      const base = posix.basename(m).replace(/\.[^.]+$/, "");
      return base === "index" ? posix.basename(posix.dirname(m)) : base;
    }),
  );
}

interface Prepared {
  packages: ReadonlySet<string>;
  names: ReadonlySet<string>;
  found: Promise<Set<string>>;
}

export class PackageImporters {
  private prepared: Prepared | undefined;
  /** The importer files of each third-party package, grouped once. */
  private byPackage: Map<string, string[]> | undefined;

  constructor(
    private readonly root: string,
    private readonly ripgrep: string | undefined,
    /** The JS/TS files that may import (importerCandidates). */
    private readonly importerFiles: readonly string[],
    private readonly thirdPartyPackage: (file: string) => string | undefined,
  ) {}

  /** Starts the search for files importing any of these (the work about to be analysed), in their packages. */
  prepare(files: readonly string[], analysed: ReadonlySet<string>): void {
    const packages = this.packagesOf(files);
    const names = importedNames(files);
    const found = this.search(packages, names, analysed);
    found.catch(() => undefined); // a failure surfaces where the round asks
    this.prepared = { packages, names, found };
  }

  /**
   * Files of the modules' packages, not analysed yet, whose import specifiers
   * may name one of the modules: from a prepared search, also files naming
   * another module of that work, so the caller checks each text against the
   * modules' names.
   */
  async filesNaming(modules: readonly string[], analysed: ReadonlySet<string>): Promise<Set<string>> {
    const packages = this.packagesOf(modules);
    if (packages.size === 0) return new Set();
    const names = importedNames(modules);
    const prepared = this.prepared;
    const covered =
      prepared !== undefined &&
      [...packages].every((pkg) => prepared.packages.has(pkg)) &&
      [...names].every((name) => prepared.names.has(name));
    const found = covered ? await prepared.found : await this.search(packages, names, analysed);
    return new Set(
      [...found].filter((file) => !analysed.has(file) && packages.has(this.thirdPartyPackage(file) ?? "")),
    );
  }

  private filesOf(pkg: string): readonly string[] {
    if (!this.byPackage) {
      this.byPackage = new Map();
      for (const file of this.importerFiles) {
        const owner = this.thirdPartyPackage(file);
        if (owner === undefined) continue;
        const files = this.byPackage.get(owner);
        if (files) files.push(file);
        else this.byPackage.set(owner, [file]);
      }
    }
    return this.byPackage.get(pkg) ?? [];
  }

  private packagesOf(files: readonly string[]): Set<string> {
    const packages = new Set<string>();
    for (const file of files) {
      const pkg = this.thirdPartyPackage(file);
      if (pkg !== undefined) packages.add(pkg);
    }
    return packages;
  }

  /** rg over many files; fewer are all returned, for the caller reads and tests each anyway. */
  private async search(
    packages: ReadonlySet<string>,
    names: ReadonlySet<string>,
    analysed: ReadonlySet<string>,
  ): Promise<Set<string>> {
    if (packages.size === 0) return new Set();
    const files = [...packages].flatMap((pkg) => this.filesOf(pkg).filter((file) => !analysed.has(file)));
    if (!this.ripgrep || files.length < RIPGREP_MIN_FILES) return new Set(files);
    return ripgrepMatches(this.ripgrep, this.root, files, [specifierNamingPattern(names)]);
  }
}
