/**
 * Following imports of V1 client modules: which JS/TS files import a module
 * that holds the V1 host or exports a V1 client, found by bytes before any
 * file is parsed. The engine asks two questions: `hostModuleImports` (does
 * this candidate import one of these modules?) and `findImporters` (which
 * files not yet analysed use one of these client modules?), the latter
 * answered for the repository's own code from one import index for every
 * round, and in a third-party package by a search of that package
 * (package-importers.ts).
 */
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { thirdPartyPackageOf } from "../files/package-dirs.js";
import { V1_CLIENT_METHODS, V1_CLIENT_PROPERTIES } from "../knowledge/migration.js";
import { barrelSpecifiers, importSpecifiers, mayReexport } from "../lang/js/module-syntax.js";
import { isSdkModule } from "../lang/js/sdk-module.js";
import { isJsFile } from "../platform/file-types.js";
import { contentDigest, decode } from "./file-reading.js";
import type { JsWork } from "./js-pool.js";
import { looksGenerated } from "./js/generated-code.js";
import { looksBinary } from "./needles.js";
import { type ImportIndex, specifierNamingPattern } from "./import-index.js";
import type { JsProject } from "./js/project.js";
import { MAX_FILE_BYTES } from "./prefilter-pass.js";
import { importedNames, PackageImporters } from "./package-importers.js";

const JS_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;

/**
 * Whether a file imports one of the given modules: relative specifiers are
 * resolved against the file (with the usual extensions and index files);
 * aliased ones (`@/lib/config`, `~/config`) match by their path tail.
 */
export function hostModuleImports(modules: readonly string[]): (file: string, text: string) => boolean {
  if (modules.length === 0) return () => false;
  const stems = new Set(modules.map((m) => m.replace(JS_EXTENSION, "").replace(/\/index$/, "")));
  const tails = [...stems].map((stem) => stem.split("/").slice(-2).join("/"));
  return (file, text) => {
    for (const imported of importSpecifiers(text)) {
      const specifier = imported.replace(JS_EXTENSION, "").replace(/\/index$/, "");
      if (specifier.startsWith(".")) {
        if (stems.has(posix.normalize(posix.join(posix.dirname(file), specifier)))) return true;
      } else if (/^[@~#]\//.test(specifier)) {
        const tail = specifier.slice(2);
        if (tails.some((t) => t === tail || t.endsWith(`/${tail}`) || tail.endsWith(`/${t}`))) return true;
      }
    }
    return false;
  };
}

/**
 * Byte needles for an import of one of these modules: the module's name after
 * a slash and before a quote or an extension ("./comfy", '@/lib/comfy',
 * "../comfy.js"; an index file by its folder). A bare word would match far too much.
 */
function importNeedles(names: ReadonlySet<string>): Buffer[] {
  return [...names].flatMap((n) => [`/${n}"`, `/${n}'`, `/${n}.`, `/${n}\``].map((needle) => Buffer.from(needle)));
}

/**
 * What an importer of a client module must do for its import to matter: call
 * a V1 client method or read a client property, type something by a binding
 * (`typeof client` in TypeScript), or pass the module on (a barrel).
 * Third-party files that happen to import a module of the same name do none
 * of these and are not parsed.
 */
const CALLS_A_CLIENT = new RegExp(
  `\\.(?:${V1_CLIENT_METHODS.map((m) => m.v1).join("|")})\\s*\\(|\\.(?:${V1_CLIENT_PROPERTIES.join("|")})\\b`,
);
/**
 * `typeof` in a type: not compared (`typeof x === "function"`, `"number" === typeof x`), which is how JavaScript
 * libraries use it hundreds of times a file, so only TypeScript sources are asked.
 */
const TYPE_OF_BINDING = /(?<![=!]=\s*)\btypeof\s+[A-Za-z_$][\w$.]*(?![\w$.])(?!\s*[=!]=)/;
const TYPESCRIPT_SOURCE = /\.[cm]?tsx?$/;
const usesAClient = (file: string, text: string): boolean =>
  CALLS_A_CLIENT.test(text) || (TYPESCRIPT_SOURCE.test(file) && TYPE_OF_BINDING.test(text)) || mayReexport(text);

/** Where findImporters looks: the import index, the files that may import, and which third-party package a file is in. */
export interface ImporterSearch {
  /** The repository's own code, indexed once for every round. */
  index: ImportIndex;
  importerFiles: readonly string[];
  thirdPartyPackage?: (file: string) => string | undefined;
  /** The search of third-party packages, prepared before the round's analysis (else made when the round asks). */
  packages?: PackageImporters;
  /** The importer files that are the repository's own code (worked out from `importerFiles` when not given). */
  ownCode?: readonly string[];
}

/** Module resolution as the analyser does it (relative paths, tsconfig `paths`, workspace packages), one per scan's file set. */
const projects = new WeakMap<ReadonlySet<string>, Promise<JsProject>>();

/** Whether one of the file's import specifiers resolves, as the analyser resolves it, to one of the modules. */
async function importsOneOf(
  root: string,
  fileSet: ReadonlySet<string>,
  file: string,
  specifiers: readonly string[],
  modules: ReadonlySet<string>,
): Promise<boolean> {
  let project = projects.get(fileSet);
  if (!project) {
    // Loaded only here: the project module brings the parser, which a scan with no such candidate never needs.
    project = import("./js/project.js").then(({ JsProject }) => new JsProject(root, fileSet));
    projects.set(fileSet, project);
  }
  const resolver = await project;
  return specifiers.some((specifier) => {
    const target = resolver.resolveModule(file, specifier);
    return target !== undefined && modules.has(target);
  });
}

/** The files whose importers the follow-up may look for: JS/TS code, not declaration files (they hold no calls). */
export function importerCandidates(files: readonly string[], fileSet: ReadonlySet<string>): string[] {
  return files.filter((f) => isJsFile(f) && !/\.d\.[cm]?ts$/.test(f) && fileSet.has(f));
}

/** The third-party package a file is in (undefined for the repository's own code), answered once per directory. */
export function thirdPartyPackages(fileSet: ReadonlySet<string>): (file: string) => string | undefined {
  const packageOfDir = new Map<string, string | undefined>();
  return (file) => {
    // The directory as a slice: posix.dirname, called for every JS/TS file of a tree several times, costs tens of ms.
    const dir = file.slice(0, Math.max(0, file.lastIndexOf("/")));
    if (!packageOfDir.has(dir))
      packageOfDir.set(
        dir,
        thirdPartyPackageOf(file, (path) => fileSet.has(path)),
      );
    return packageOfDir.get(dir);
  };
}

function readIfPossible(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** What a round of the follow-up found: files for the parser, and barrels that pass a client module on (they need none). */
export interface Importers {
  importers: JsWork[];
  barrels: string[];
}

/**
 * JS/TS files not yet analysed that import one of the client modules by name
 * (by file or folder name), so that the import can be checked by the parser.
 * `importerFiles` are the files that may import (importerCandidates). The
 * repository's own code is answered by the import index, built once for every
 * round. A third-party package is searched for the names only when a round's
 * client module sits in it: few rounds have one, and an index of every
 * specifier in a library costs several times the search.
 */
export async function findImporters(
  root: string,
  fileSet: ReadonlySet<string>,
  analysed: ReadonlySet<string>,
  modules: readonly string[],
  {
    index,
    importerFiles,
    thirdPartyPackage = thirdPartyPackages(fileSet),
    packages = new PackageImporters(root, undefined, importerFiles, thirdPartyPackage),
    ownCode = importerFiles.filter((file) => thirdPartyPackage(file) === undefined),
  }: ImporterSearch,
  digests: Map<string, string>,
  /** Every client module the scan has proved so far (these modules included): the importers' analysis takes them as clients. */
  proven: readonly string[] = modules,
): Promise<Importers> {
  const names = importedNames(modules);
  const provenSet = new Set(proven);
  const needles = importNeedles(names);
  const importers: JsWork[] = [];
  const barrels: string[] = [];
  // For a module in third-party code, its importers are looked for in its own package and in the repository's own code:
  // other libraries import a library by name, which resolves to their own dependencies, not to this copy.
  const [, inPackages] = await Promise.all([index.cover(ownCode), packages.filesNaming(modules, analysed)]);
  const namingInText = new RegExp(specifierNamingPattern(names));
  // Files that see a name a module puts in scope without an import (Nuxt's auto-imports) use it by naming it.
  const usedWithout = new Map<string, Buffer[]>();
  for (const module of modules) {
    const exported = index.autoImports.exportsOf(module);
    if (!exported) continue;
    for (const file of index.usersOf(exported.names)) {
      if (!exported.sees(file)) continue;
      usedWithout.set(file, [...(usedWithout.get(file) ?? []), ...exported.names.map((name) => Buffer.from(name))]);
    }
  }
  const candidates = [...new Set([...index.importersOf(names), ...usedWithout.keys(), ...inPackages])]
    .filter((f) => !analysed.has(f))
    .sort();
  // Read synchronously: the search has just read these files, so they are in the page cache.
  for (const file of candidates) {
    const content = readIfPossible(posix.join(root, file));
    if (!content || content.length > MAX_FILE_BYTES || looksBinary(content)) continue;
    const named = [...needles, ...(usedWithout.get(file) ?? [])];
    // A bundle's imports are inlined copies of files the follow-up reaches in their own right.
    if (!named.some((n) => content.indexOf(n) !== -1) || looksGenerated(file, content)) continue;
    const text = decode(content);
    // A barrel holds no V1 use of its own, and passes a client on when it re-exports one: no parse of it says more.
    const reexported = barrelSpecifiers(text);
    if (reexported && !reexported.some((specifier) => isSdkModule(specifier) || specifier.includes(":"))) {
      if (!(await importsOneOf(root, fileSet, file, reexported, provenSet))) continue;
      barrels.push(file);
      digests.set(file, contentDigest(content));
      continue;
    }
    // The repository's own code is parsed whatever it calls: a local client's methods have any names (`jobs.enqueue()`).
    // A library file must use a client, and import a client module, not another module of the same name (`./lib`, `./index`).
    if (thirdPartyPackage(file) !== undefined) {
      if (inPackages.has(file) && !namingInText.test(text)) continue;
      if (!usesAClient(file, text)) continue;
      if (!usedWithout.has(file) && !(await importsOneOf(root, fileSet, file, importSpecifiers(text), provenSet)))
        continue;
    }
    importers.push({ file, text, clientModules: proven });
    digests.set(file, contentDigest(content));
  }
  return { importers, barrels };
}
