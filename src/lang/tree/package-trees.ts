/**
 * The parsed files of one scan, shared by every file that resolves a name
 * across its package: each candidate file of a language is parsed once, the
 * first time a file of that language asks. Only candidate files (those the
 * prefilter kept: they hold a host, a `/run` path or a V1 key) are peers, so
 * the cost grows with what the scan reads anyway, not with the repository.
 */
import { PackageScope, TreeSource } from "./declarations.js";
import { parseTree } from "./grammars.js";
import { treeLanguageOf } from "./languages.js";
import { isPathConstant, readsOneOf } from "./run-expressions.js";
import { TreeValues } from "./values.js";
import { isUrlPart } from "./url-parts.js";

/** Tests, vendored and installed code: not where an app configures its clients. */
const NOT_CALLERS = /(?:^|\/)(?:vendor|node_modules|third_party|testdata)\/|_test\.go$|(?:^|\/)tests?\//;

export class PackageTrees {
  private readonly sources = new Map<string, TreeSource | null>();
  private readonly byLanguage = new Map<string, TreeSource[]>();
  private readonly runNames = new Map<string, Set<string>>();
  private readonly mentions = new Map<string, TreeSource[]>();
  readonly values = new TreeValues(new PackageScope((from) => this.peersOf(from)));

  constructor(
    private readonly candidates: readonly string[],
    private readonly read: (file: string) => string | undefined,
    /** Every listed file: where the callers of a generated client's functions are looked for. */
    private readonly files: readonly string[] = candidates,
  ) {}

  /**
   * The repository's files of a source's language (not tests, not vendored
   * code) whose text mentions a word, parsed: the callers of a function.
   */
  mentioning(word: string, like: TreeSource): readonly TreeSource[] {
    const key = `${like.language}\u0000${word}`;
    let found = this.mentions.get(key);
    if (!found) {
      found = [];
      for (const file of this.files) {
        if (treeLanguageOf(file) !== like.language || NOT_CALLERS.test(file)) continue;
        const text = file === like.file ? like.text : this.read(file);
        if (text === undefined || !text.includes(word)) continue;
        const source = file === like.file ? like : this.source(file, text);
        if (source) found.push(source);
      }
      this.mentions.set(key, found);
    }
    return found;
  }

  /** The file's tree, parsed once; undefined when its grammar is not loaded or it cannot be read. */
  source(file: string, text?: string): TreeSource | undefined {
    const known = this.sources.get(file);
    if (known !== undefined) return known ?? undefined;
    const content = text ?? this.read(file);
    const parsed = content === undefined ? undefined : parseTree(file, content);
    const source =
      parsed && content !== undefined ? new TreeSource(file, content, parsed.tree, parsed.language) : undefined;
    this.sources.set(file, source ?? null);
    return source;
  }

  /** Names bound to a `/run` literal anywhere in the file's package (`RUN_PATH = "/run"`): their reads are run paths too. */
  runConstants(from: TreeSource): ReadonlySet<string> {
    let names = this.runNames.get(from.language);
    if (!names) {
      const found = new Set<string>();
      names = found;
      const peers = this.peersOf(from);
      for (const peer of peers) {
        for (const [name, bindings] of peer.bindings) {
          // A URL constructor's `path:` argument or `Path =` field is part of that URL, not a constant.
          if (
            bindings.some(
              (b) =>
                b.kind === "value" && typeof b.value !== "string" && isPathConstant(b.value) && !isUrlPart(b.value),
            )
          )
            found.add(name);
        }
      }
      // Names bound to one of those (`final _runPath = Endpoints.run`, `RUN = Paths.RUN`) hold the path too.
      for (let grown = found.size > 0; grown; ) {
        grown = false;
        for (const peer of peers) {
          for (const [name, bindings] of peer.bindings) {
            if (found.has(name)) continue;
            if (bindings.some((b) => b.kind === "value" && typeof b.value !== "string" && readsOneOf(b.value, found))) {
              found.add(name);
              grown = true;
            }
          }
        }
      }
      this.runNames.set(from.language, names);
    }
    return names;
  }

  private peersOf(from: TreeSource): readonly TreeSource[] {
    let peers = this.byLanguage.get(from.language);
    if (!peers) {
      peers = [];
      for (const file of this.candidates) {
        if (treeLanguageOf(file) !== from.language) continue;
        const source = file === from.file ? from : this.source(file);
        if (source) peers.push(source);
      }
      this.byLanguage.set(from.language, peers);
    }
    return peers;
  }

  /** Frees the trees (they live in WebAssembly memory, outside the garbage collector's reach). */
  dispose(): void {
    for (const source of this.sources.values()) source?.tree.delete();
    this.sources.clear();
    this.byLanguage.clear();
    this.runNames.clear();
    this.mentions.clear();
  }
}
