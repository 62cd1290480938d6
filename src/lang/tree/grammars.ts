/**
 * Tree-sitter grammars, loaded once each and only when a candidate file of
 * their language is scanned: the runtime and the grammars are WebAssembly,
 * so loading is asynchronous and parsing is not. The engine awaits
 * `loadGrammarsFor(candidates)` before its file scanners run; the scanners
 * then ask `parseTree` synchronously and fall back to text rules when no
 * grammar is loaded.
 */
import { createRequire } from "node:module";
import { Language, Parser, type Tree } from "web-tree-sitter";
import { grammarFileOf, type TreeLanguage, treeLanguageOf } from "./languages.js";

const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const loading = new Map<TreeLanguage, Promise<Parser | undefined>>();
const loaded = new Map<TreeLanguage, Parser>();

/** Grammars load one at a time: the runtime links each module's symbols as it loads, and parallel loads mix them up. */
let queue: Promise<unknown> = Promise.resolve();

function loadGrammar(language: TreeLanguage): Promise<Parser | undefined> {
  const next = queue.then(() => loadNow(language));
  queue = next.catch(() => undefined);
  return next;
}

async function loadNow(language: TreeLanguage): Promise<Parser | undefined> {
  runtime ??= Parser.init();
  await runtime;
  const grammar = await Language.load(require.resolve(grammarFileOf(language)));
  const parser = new Parser();
  parser.setLanguage(grammar);
  loaded.set(language, parser);
  return parser;
}

/**
 * Loads the grammars these files need (each once per process). A grammar
 * that fails to load leaves its files to the text rules.
 */
export async function loadGrammarsFor(files: Iterable<string>): Promise<void> {
  const wanted = new Set<TreeLanguage>();
  for (const file of files) {
    const language = treeLanguageOf(file);
    if (language) wanted.add(language);
  }
  await Promise.all(
    [...wanted].map((language) => {
      let pending = loading.get(language);
      if (!pending) {
        pending = loadGrammar(language).catch(() => undefined);
        loading.set(language, pending);
      }
      return pending;
    }),
  );
}

/** The file's syntax tree, when its grammar is loaded. The caller deletes the tree when done with it. */
export function parseTree(file: string, text: string): { tree: Tree; language: TreeLanguage } | undefined {
  const language = treeLanguageOf(file);
  const parser = language && loaded.get(language);
  if (!language || !parser) return undefined;
  const tree = parser.parse(text);
  return tree ? { tree, language } : undefined;
}

/** The languages whose grammar is loaded, for tests and the bench. */
export function loadedGrammars(): TreeLanguage[] {
  return [...loaded.keys()];
}
