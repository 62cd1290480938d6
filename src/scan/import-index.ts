/**
 * Who imports which module, by name: every path-like import specifier
 * (`from "…/x"`, `require("…/x")`, `import("…/x")`) of the repository's own
 * JS/TS files, collected in one pass (one ripgrep run, or one read of each
 * file without it) and kept as an inverted index from a path segment to the
 * files naming it. Each round of the importer follow-up asks the index instead
 * of searching the tree again, so following imports costs at most one pass
 * over each file whatever the tree's shape (third-party packages are searched
 * instead, only where a client module lives: package-importers.ts). Only names
 * are kept, not texts: the follow-up reads the few files the index answers.
 *
 * In a Nuxt or Nitro app a module is also used without an import: the names
 * its auto-import folders export are looked for in the same passes, and a file
 * naming one of them is indexed as using it (`AutoImports` says which files
 * see which names).
 */
import { ripgrepEnv } from "../platform/child-env.js";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { posix } from "node:path";
import { forEachLimit } from "../platform/concurrency.js";
import { AutoImports } from "./js/auto-imports.js";
import { MAX_FILE_BYTES, READ_CONCURRENCY, RIPGREP_MIN_FILES } from "./prefilter-pass.js";
import { chunkArguments, RG_LISTED_FILES } from "./ripgrep-feed.js";

/**
 * A quoted specifier with a slash after an import keyword. The slash is what
 * the follow-up's names need (`/client"`, `/client.js"`); a bare package name
 * can never be one of them.
 */
const IMPORT_KEYWORD = String.raw`(?:\bfrom|\brequire\s*\(|\bimport\s*\()`;
const SPECIFIER_SOURCE = String.raw`${IMPORT_KEYWORD}\s*["'\x60][^"'\x60\n]*/[^"'\x60\n]*["'\x60]`;
const SPECIFIER = new RegExp(SPECIFIER_SOURCE, "g");

/**
 * An rg (and JavaScript) pattern for a specifier naming one of these modules
 * the way `importersOf` answers for indexed files: a segment after a slash
 * that is the name, before the closing quote or a dot.
 */
export function specifierNamingPattern(names: Iterable<string>): string {
  const alternatives = [...names].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return String.raw`${IMPORT_KEYWORD}\s*["'\x60][^"'\x60\n]*/(?:${alternatives.join("|")})["'\x60.]`;
}

/** Index keys of auto-imported names start with a character no path segment holds. */
const NAME_KEY = "\0";
/** Bytes of names per rg pattern, well under Linux's limit on one argument. */
const NAMES_PATTERN_BYTES = 32 * 1024;

export class ImportIndex {
  /** Segment key (a segment after a slash, or its part before a dot) → indexes into `files` of the files whose specifiers hold it. */
  private readonly bySegment = new Map<string, number[]>();
  /** The files covered so far, by id. */
  private readonly files: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Passes run one after another: an answer after `cover` includes every file covered before it. */
  private passes: Promise<void>;

  /** The names Nuxt or Nitro put in scope, and where from (read before the first pass). */
  autoImports: AutoImports = AutoImports.build([], new Map());
  /** Patterns for the auto-imported names (none outside a Nuxt or Nitro app). */
  private namePatterns: string[] = [];
  private nameExpressions: RegExp[] = [];

  /**
   * An empty index; `cover` adds files (with rg when given and the files are
   * many enough, else by reading them). `codeFiles` are the JS/TS files whose
   * auto-import folders say which names are in scope without an import.
   */
  constructor(
    private readonly root: string,
    private readonly ripgrep: string | undefined,
    codeFiles: readonly string[] = [],
  ) {
    this.passes = this.readAutoImports(codeFiles);
  }

  /** An index of these files' import specifiers. */
  static async build(root: string, files: readonly string[], ripgrep: string | undefined): Promise<ImportIndex> {
    const index = new ImportIndex(root, ripgrep, files);
    await index.cover(files);
    return index;
  }

  /** Files naming one of these auto-imported names (whether they see it is `AutoImports`' to say). */
  usersOf(names: Iterable<string>): Set<string> {
    return this.importersOf([...names].map((name) => NAME_KEY + name));
  }

  private async readAutoImports(files: readonly string[]): Promise<void> {
    const texts = new Map<string, string>();
    await forEachLimit(AutoImports.modulesToRead(files), READ_CONCURRENCY, async (module) => {
      const content = await readFile(posix.join(this.root, module)).catch(() => undefined);
      if (content && content.length <= MAX_FILE_BYTES) texts.set(module, content.toString("utf8"));
    });
    this.autoImports = AutoImports.build(files, texts);
    this.namePatterns = namePatterns(this.autoImports.allNames());
    this.nameExpressions = this.namePatterns.map((pattern) => new RegExp(pattern, "g"));
  }

  /** Indexes the files not indexed yet, in one pass; resolves once every file covered so far is in the index. */
  cover(files: readonly string[]): Promise<void> {
    const first = this.files.length;
    for (const file of files) {
      if (this.ids.has(file)) continue;
      this.ids.set(file, this.files.length);
      this.files.push(file);
    }
    const ids = Array.from({ length: this.files.length - first }, (_, i) => first + i);
    const pass = (): Promise<void> =>
      this.ripgrep && ids.length >= RIPGREP_MIN_FILES ? this.addWithRipgrep(this.ripgrep, ids) : this.addByReading(ids);
    // A failed pass fails the cover that ran it, and every later one (its files would be missing from the answers).
    this.passes = this.passes.then(() => (ids.length > 0 ? pass() : undefined));
    return this.passes;
  }

  /**
   * Files with a specifier naming one of these modules the way an import does:
   * a segment after a slash that is the name, or the name followed by a dot
   * (`./comfy`, `../comfy.js`, `@/lib/comfy`).
   */
  importersOf(names: Iterable<string>): Set<string> {
    const files = new Set<string>();
    for (const name of names) for (const id of this.bySegment.get(name) ?? []) files.add(this.files[id]!);
    return files;
  }

  /** Records one quoted specifier (`"../lib/comfy.js"`, quotes included) of the file with this index. */
  private add(file: number, quoted: string): void {
    // The follow-up's needles: `/name` then the closing quote (the last segment), or `/name.` (any segment).
    const segments = quoted.slice(1, -1).split("/").slice(1);
    this.keyOf(segments[segments.length - 1]!, file);
    for (const segment of segments) {
      for (let dot = segment.indexOf("."); dot > 0; dot = segment.indexOf(".", dot + 1))
        this.keyOf(segment.slice(0, dot), file);
    }
  }

  private keyOf(key: string, file: number): void {
    // Arrays, lighter than sets: a file's specifiers arrive together, so a repeat is mostly the last entry (importersOf drops the rest).
    const files = this.bySegment.get(key);
    if (!files) this.bySegment.set(key, [file]);
    else if (files[files.length - 1] !== file) files.push(file);
  }

  private async addByReading(ids: readonly number[]): Promise<void> {
    await forEachLimit(ids, READ_CONCURRENCY, async (id) => {
      const content = await readFile(posix.join(this.root, this.files[id]!)).catch(() => undefined);
      if (!content || content.length > MAX_FILE_BYTES) return;
      const text = content.toString("utf8");
      for (const match of text.matchAll(SPECIFIER)) this.add(id, quotedPart(match[0]));
      for (const pattern of this.nameExpressions)
        for (const match of text.matchAll(pattern)) this.keyOf(NAME_KEY + match[0], id);
    });
  }

  /** One rg run a chunk of paths, matches only (`path\0match` a line), read as it streams. */
  private async addWithRipgrep(rg: string, ids: readonly number[]): Promise<void> {
    const base = [
      "--only-matching",
      "--with-filename",
      "--null",
      "--no-line-number",
      "--no-heading",
      ...RG_LISTED_FILES,
      "--color=never",
      "-e",
      SPECIFIER_SOURCE,
      ...this.namePatterns.flatMap((pattern) => ["-e", pattern]),
      "--",
    ];
    await forEachLimit(chunkArguments(ids.map((id) => this.files[id]!)), 2, (chunk) =>
      this.streamRipgrep(rg, [...base, ...chunk]),
    );
  }

  private streamRipgrep(rg: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(rg, args, { cwd: this.root, env: ripgrepEnv(), stdio: ["ignore", "pipe", "ignore"] });
      let rest = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop()!;
        for (const line of lines) this.addLine(line);
      });
      child.on("error", reject);
      // Exit 1: no match; 2: some file could not be read, which only loses its names (the prefilter reports it).
      child.on("close", (code) => {
        if (rest) this.addLine(rest);
        if (code === 0 || code === 1 || code === 2) resolve();
        else reject(new Error(`rg exited with ${code}`));
      });
    });
  }

  private addLine(line: string): void {
    const nul = line.indexOf("\0");
    const id = nul > 0 ? this.ids.get(line.slice(0, nul)) : undefined;
    if (id === undefined) return;
    const match = line.slice(nul + 1);
    // A specifier holds a quote; an auto-imported name is a bare word.
    if (/["'`]/.test(match)) this.add(id, quotedPart(match));
    else this.keyOf(NAME_KEY + match, id);
  }
}

/** The quoted specifier of a match: from its first quote to the end. */
function quotedPart(match: string): string {
  return match.slice(match.search(/["'`]/));
}

/** Word patterns for the names, as few as fit the argument limit (rg's and JavaScript's syntax alike). */
function namePatterns(names: readonly string[]): string[] {
  const patterns: string[] = [];
  let group: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (group.length > 0) patterns.push(`\\b(?:${group.join("|")})\\b`);
    group = [];
    size = 0;
  };
  for (const name of names) {
    const escaped = name.replace(/\$/g, "\\$");
    if (size + escaped.length + 1 > NAMES_PATTERN_BYTES) flush();
    group.push(escaped);
    size += escaped.length + 1;
  }
  flush();
  return patterns;
}
