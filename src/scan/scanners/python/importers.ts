/**
 * The Python importer follow-up: files that hold nothing V1 themselves but
 * import a module that sends V1 requests (`from worker.comfy import submit`
 * in a Celery task), so that the import and the calls are reported. The
 * prefilter never passes such a file on; one index of the Python files'
 * import statements, built once, answers every round.
 */
import { readFile } from "node:fs/promises";
import { posix } from "node:path";
import type { Finding } from "../../../core/finding.js";
import { forEachLimit } from "../../../platform/concurrency.js";
import { MAX_FILE_BYTES, READ_CONCURRENCY } from "../../prefilter-pass.js";

const PYTHON_FILE = /\.pyw?$/i;
/** `from a.b import c, d` (also parenthesised over several lines) and `import a.b as m, e`. */
const IMPORT_LINE = /^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]*(\([^)]*\)|[^\n#]*)|import[ \t]+([^\n#]+))/gm;

/** Module name segment (`comfy` of `worker.comfy`, or a name imported from a package) → the files naming it in an import. */
export class PyImportIndex {
  private readonly bySegment = new Map<string, Set<string>>();

  static async build(root: string, files: readonly string[]): Promise<PyImportIndex> {
    const index = new PyImportIndex();
    await forEachLimit(files, READ_CONCURRENCY, async (file) => {
      const content = await readFile(posix.join(root, file)).catch(() => undefined);
      if (!content || content.length > MAX_FILE_BYTES) return;
      index.add(file, content.toString("utf8"));
    });
    return index;
  }

  add(file: string, text: string): void {
    for (const match of text.matchAll(IMPORT_LINE)) {
      const words = match[1] !== undefined ? [match[1], match[2] ?? ""] : [match[3] ?? ""];
      for (const word of words.join(" ").match(/[A-Za-z_]\w*/g) ?? []) {
        const files = this.bySegment.get(word) ?? new Set<string>();
        files.add(file);
        this.bySegment.set(word, files);
      }
    }
  }

  importersOf(names: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const name of names) for (const file of this.bySegment.get(name) ?? []) out.add(file);
    return out;
  }
}

/**
 * The names an import of these modules spells: the module's own name (a
 * package's by its folder) and its folder's, for the package's
 * `__init__.py` re-exporting it (`from worker import submit`).
 */
export function pythonModuleNames(modules: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const module of modules) {
    const stem = posix.basename(module).replace(PYTHON_FILE, "");
    const dir = posix.dirname(module);
    if (stem !== "__init__") names.add(stem);
    if (dir !== ".") names.add(posix.basename(dir));
  }
  return names;
}

export const isPythonFile = (file: string): boolean => PYTHON_FILE.test(file);

/** Rules that say a scanned module sends V1 requests itself or passes a V1 client or SDK result on. */
const CLIENT_MODULE_RULES: ReadonlySet<string> = new Set([
  "legacy-create-run",
  "legacy-get-run",
  "other-host-v1-shape",
  "v1-shape-unknown-base",
  "v1-sdk-import",
  "v1-sdk-client",
  "v1-sdk-call",
]);
const MAX_ROUNDS = 4;

/**
 * Findings in the Python files that import a module the scan found sending
 * V1 (or passing a V1 client on), round after round through the modules
 * that import one in turn. `scan` is the text pass's scan of one file.
 */
export async function pythonImporterFindings(
  root: string,
  files: readonly string[],
  scanned: ReadonlySet<string>,
  findings: readonly Finding[],
  scan: (file: string, bytes: Buffer) => Finding[],
): Promise<Finding[]> {
  const clientModules = (list: readonly Finding[]): string[] => [
    ...new Set(list.filter((f) => isPythonFile(f.file) && CLIENT_MODULE_RULES.has(f.ruleId)).map((f) => f.file)),
  ];
  let modules = clientModules(findings);
  if (modules.length === 0) return [];
  const unscanned = files.filter((f) => isPythonFile(f) && !scanned.has(f));
  const index = await PyImportIndex.build(root, unscanned);
  const done = new Set(scanned);
  const out: Finding[] = [];
  for (let round = 0; round < MAX_ROUNDS && modules.length > 0; round++) {
    const importers = [...index.importersOf(pythonModuleNames(modules))].filter((f) => !done.has(f)).sort();
    const found: Finding[] = [];
    for (const file of importers) {
      done.add(file);
      const bytes = await readFile(posix.join(root, file)).catch(() => undefined);
      if (bytes && bytes.length <= MAX_FILE_BYTES) found.push(...scan(file, bytes));
    }
    out.push(...found);
    modules = clientModules(found);
  }
  return out;
}
