/**
 * The scan: list files, keep those a cheap byte prefilter flags, then parse
 * and analyse only those. TypeScript is loaded only when a JS/TS file needs
 * it, and big trees fan the parsing out to worker threads.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { posix, sep } from "node:path";
import { isConfigFile, type RuleSettings } from "../core/config.js";
import { applyRuleSettings } from "../core/rule-settings.js";
import { compareFindings, type Finding, type SkippedFile } from "../core/finding.js";
import { gitIndexBytes, listFiles } from "../files/list-files.js";
import { nearestPackageDir, thirdPartyPackageOf } from "../files/package-dirs.js";
import { fileKind, isJsFile } from "../core/file-kinds.js";
import { JsPool, type JsWork, preloadAnalyzer } from "./js-pool.js";
import { looksGenerated } from "./js/generated-code.js";
import { jsTextRules } from "./js/text-rules.js";
import { JsSignals, looksBinary, prefilterNeedles } from "./needles.js";
import { findRipgrep, forEachLimit, MAX_FILE_BYTES, prefilterPass, RIPGREP_MIN_FILES, ripgrepMatches } from "./prefilter-pass.js";
import { assignFingerprints } from "../core/fingerprint.js";
import { applySuppressions, isDirective, parseSuppressions, SUPPRESSION_KEYWORD, unusedIgnoreFinding } from "../core/suppression.js";
import { findReviewMarkers } from "./review-markers.js";
import { MARKER_TAG } from "../core/marker.js";
import type { FileScanner, RepoFacts } from "./scanner.js";
import { failureReason, FindingSink } from "./scanner-helpers.js";
import { scanLegacyUrls } from "./scanners/text/legacy-urls.js";
import { FILE_SCANNERS, GENERIC_URL_SCANNER } from "./scanners/index.js";
import { currentHostsAsLegacy, findLegacyHostMentions, type HostSet } from "../core/urls.js";
import { V1_CLIENT_METHODS, V1_CLIENT_PROPERTIES } from "../knowledge/migration.js";
import { importSpecifiers, mayReexport } from "../lang/js/module-syntax.js";
import { loadGrammarsFor } from "../lang/tree/grammars.js";

const READ_CONCURRENCY = 64;

export interface ScanOptions {
  /** Absolute path of the directory to scan. */
  root: string;
  hosts: HostSet;
  include?: readonly string[];
  exclude?: readonly string[];
  onProgress?: (progress: ScanProgress) => void;
  /** Force (true) or forbid (false) worker threads; by default decided by tree size. */
  workers?: boolean;
  /** Also list files that .gitignore excludes (and node_modules outside git). */
  allFiles?: boolean;
  /** Only report on these files (e.g. changed since a ref); the rest still serve imports. */
  onlyFiles?: ReadonlySet<string>;
  /** "Today", for suppression expiry. */
  now?: Date;
  /** false: never use ripgrep for the prefilter, even when it is installed. */
  ripgrep?: boolean;
  /** Report ignore comments that cover no finding as `unused-ignore` findings. */
  reportUnusedIgnores?: boolean;
  /** Per-rule settings from the config file: off, severity, paths. */
  rules?: RuleSettings;
}

export interface ScanProgress {
  phase: "listing" | "prefilter" | "parsing" | "done";
  listed: number;
  candidates: number;
  parsed: number;
}

export interface ScanResult {
  root: string;
  findings: Finding[];
  skipped: SkippedFile[];
  stats: {
    listed: number;
    /** Files a needle matched. */
    candidates: number;
    /** JS/TS files the parser and the full analysis took. */
    analysed: number;
    /** Minified or bundled JS/TS files given the text-level rules only. */
    textOnly: number;
    listing: "git" | "filesystem";
  };
}

/**
 * JS/TS candidates parse on worker threads only when there are more than
 * this many (another thread joins per this many): after the precise byte
 * test few files need the parser, and a worker costs a second TypeScript.
 */
const WORKER_THRESHOLD = 400;
/** A git index this big lists thousands of files (about 100 bytes an entry). */
const BIG_INDEX_BYTES = 256 * 1024;

export async function scan(options: ScanOptions): Promise<ScanResult> {
  const { root, hosts } = options;
  const progress: ScanProgress = { phase: "listing", listed: 0, candidates: 0, parsed: 0 };
  const report = (): void => options.onProgress?.({ ...progress });
  report();

  // A tree that big will almost surely need the parser: load it (about 0.2 s) while git lists the files.
  if (options.workers !== true && gitIndexBytes(root) > BIG_INDEX_BYTES) preloadAnalyzer();
  const listing = await listFiles(root, {
    include: options.include ?? [],
    exclude: options.exclude ?? [],
    ...(options.allFiles ? { respectIgnore: false } : {}),
  });
  // The tool's own config names V1 hosts on purpose.
  const allFiles = listing.files.filter((file) => !isConfigFile(file));
  progress.listed = allFiles.length;
  progress.phase = "prefilter";
  report();

  let pool: JsPool | undefined;
  const poolFor = async (jsCandidates: number): Promise<JsPool> =>
    (pool ??= await JsPool.create({ root, files: allFiles, hosts, threads: options.workers ?? jsCandidates > WORKER_THRESHOLD }));
  try {
    const result = await scanWithPool(options, allFiles, listing.source, poolFor, progress, report);
    // Files below a directory the user cannot read were never listed: the directory stands for them.
    for (const dir of listing.unreadableDirs) result.skipped.push({ file: `${dir}/`, reason: "directory could not be read (permission denied)" });
    return result;
  } finally {
    await pool?.close();
  }
}

async function scanWithPool(
  options: ScanOptions,
  allFiles: string[],
  listingSource: "git" | "filesystem",
  poolFor: (jsCandidates: number) => Promise<JsPool>,
  progress: ScanProgress,
  report: () => void,
): Promise<ScanResult> {
  const { root, hosts } = options;
  const skipped: SkippedFile[] = [];
  const findings: Finding[] = [];
  const jsCandidates: JsWork[] = [];
  const textCandidates: Array<{ file: string; bytes: Buffer; scanners: FileScanner[] }> = [];
  const filesToScan = options.onlyFiles ? allFiles.filter((f) => options.onlyFiles!.has(f)) : allFiles;
  const ripgrep = options.ripgrep !== false ? findRipgrep() : undefined;
  const hits = await prefilterPass({
    root,
    files: filesToScan,
    needles: prefilterNeedles(hosts),
    wantsBinary: (file) => !isJsFile(file) && scannersFor(file).some((s) => s.readsBinary),
    ...(ripgrep ? { ripgrep } : {}),
    skipped,
    onCandidate: () => {
      progress.candidates++;
      report();
    },
  });
  const ignoreFiles = new Set<string>();
  const jsSignals = new JsSignals(hosts);
  /** JS/TS candidates the parser did not need: counted once, though the importer follow-up may still take them. */
  const countedJs = new Set<string>();
  const withLegacyHost = hits.filter(({ content }) => hosts.legacy.some((host) => content.indexOf(host) !== -1));
  // The V1 paths are V1 on any ComfyDeploy host: a V2 API base held in the repository is evidence too.
  const withCurrentHost = hits.filter(({ content }) => hosts.current.some((host) => content.indexOf(host) !== -1));
  const legacyBase = firstApiBase(withLegacyHost, hosts) ?? firstApiBase(withCurrentHost, currentHostsAsLegacy(hosts));
  const legacyBaseHeld = legacyBase !== undefined;
  // Requests built on a base held elsewhere, or on a vendor host, are what the grammars are loaded for.
  const needsGrammars = legacyBaseHeld || withCurrentHost.length > 0;
  // A candidate that imports a module holding the V1 host (`${BASE}/run`, `fetch(RUN_URL, …)` with BASE from ./config) needs the parser too.
  const importsHostModule = hostModuleImports(withLegacyHost.filter(({ file }) => isJsFile(file)).map((h) => h.file));
  let textOnly = 0;
  const textOnlySdkImporters: string[] = [];
  for (const { file, content } of hits) {
    if (content.includes(SUPPRESSION_KEYWORD)) ignoreFiles.add(file);
    if (content.includes(MARKER_TAG)) findings.push(...findReviewMarkers(file, decode(content)));
    if (isJsFile(file)) {
      countedJs.add(file);
      const text = decode(content);
      if (!jsSignals.matches(content) && !importsHostModule(file, text)) continue;
      if (looksGenerated(file, content)) {
        const result = jsTextRules(file, text, hosts);
        findings.push(...result.findings);
        if (result.importsSdk) textOnlySdkImporters.push(file);
        textOnly++;
      } else jsCandidates.push({ file, text });
    } else textCandidates.push({ file, bytes: content, scanners: scannersFor(file) });
  }
  // Third-party files that only looked like candidates are done with: let their bytes go.
  hits.length = 0;

  progress.phase = "parsing";
  report();
  const fileSet = new Set(allFiles);
  const pool = await poolFor(jsCandidates.length);
  if (jsCandidates.length > WORKER_THRESHOLD) pool.grow(Math.ceil(jsCandidates.length / WORKER_THRESHOLD));
  const analysed = new Set<string>();
  const sdkImporters: string[] = [...textOnlySdkImporters];
  const clientModules: string[] = [];
  const run = async (work: JsWork[]): Promise<void> => {
    const texts = new Map(work.map((w) => [w.file, w.text]));
    for (const w of work) analysed.add(w.file);
    const results = await pool.analyze(work, () => {
      progress.parsed++;
      report();
    });
    for (const result of results) {
      findings.push(...result.findings);
      if (result.exportsClient) clientModules.push(result.file);
      if (result.importsSdk) sdkImporters.push(result.file);
      if (result.error) findings.push(...textFallback(result.file, texts.get(result.file) ?? "", result.error, hosts));
    }
  };
  await run(jsCandidates.splice(0));
  // Files that use a client module's exports without naming anything V1 themselves.
  while (clientModules.length > 0) {
    const modules = clientModules.splice(0);
    const importers = await findImporters(root, filesToScan, fileSet, analysed, modules, ripgrep);
    if (importers.length === 0) break;
    progress.candidates += importers.filter((w) => !countedJs.has(w.file)).length;
    await run(importers);
  }
  const read = cachedReader(root, fileSet);
  const candidates = textCandidates.map((c) => c.file);
  if (needsGrammars) await loadGrammarsFor(candidates);
  const repo: RepoFacts = {
    files: allFiles,
    root,
    sdkImportingPackages: packagesOf(sdkImporters, fileSet),
    read,
    legacyBaseHeld,
    ...(legacyBase ? { legacyBase } : {}),
    candidates,
  };
  for (const candidate of textCandidates) {
    findings.push(...scanTextFile(candidate, hosts, repo));
    progress.parsed++;
  }
  if (options.rules) findings.splice(0, findings.length, ...applyRuleSettings(findings, options.rules));
  const unused = applyInSourceSuppressions(findings, ignoreFiles, read, options.now ?? new Date());
  if (options.reportUnusedIgnores) findings.push(...(options.rules ? applyRuleSettings(unused, options.rules) : unused));
  withoutMarkerLines(findings, read);

  progress.phase = "done";
  report();
  findings.sort(compareFindings);
  assignFingerprints(findings);
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return {
    root,
    findings,
    skipped,
    stats: { listed: allFiles.length, candidates: progress.candidates, analysed: analysed.size, textOnly, listing: listingSource },
  };
}

function scannersFor(file: string): FileScanner[] {
  const specific = FILE_SCANNERS.filter((s) => s !== GENERIC_URL_SCANNER && s.matches(file));
  const generic = specific.some((s) => s.coversLegacyUrls) || !GENERIC_URL_SCANNER.matches(file) ? [] : [GENERIC_URL_SCANNER];
  return [...generic, ...specific];
}

/**
 * Each scanner fails for its file only: a parser that gives up (a 5,000-deep
 * object, a grammar it does not know) leaves an unreadable-file warning, and
 * the text-level rules still report what the file plainly contains.
 */
function scanTextFile(candidate: { file: string; bytes: Buffer; scanners: FileScanner[] }, hosts: HostSet, repo: RepoFacts): Finding[] {
  const { file, bytes, scanners } = candidate;
  const binary = looksBinary(bytes);
  const text = binary ? bytes.toString("latin1") : decode(bytes);
  const out: Finding[] = [];
  let textRulesRan = scanners.includes(GENERIC_URL_SCANNER);
  for (const scanner of scanners) {
    if (binary && !scanner.readsBinary) continue;
    try {
      out.push(...scanner.scan({ file, text, bytes, kind: fileKind(file), hosts, repo }));
    } catch (error) {
      const fallback = textRulesRan || binary ? [] : textFallback(file, text, `${scanner.id}: ${failureReason(error)}`, hosts);
      if (fallback.length === 0) out.push(unreadableFinding(file, text, `${scanner.id}: ${failureReason(error)}`));
      out.push(...fallback);
      textRulesRan = true;
    }
  }
  return out;
}

/** A file its parser could not take: the warning, and the legacy host and endpoints found in its text. */
function textFallback(file: string, text: string, reason: string, hosts: HostSet): Finding[] {
  let found: Finding[] = [];
  try {
    found = scanLegacyUrls(file, text, "text", hosts);
  } catch (error) {
    reason += `; the text-level rules failed too (${failureReason(error)})`;
  }
  return [unreadableFinding(file, text, `${reason}; only the text-level rules (host, /run?run_id=) ran`), ...found];
}

function unreadableFinding(file: string, text: string, reason: string): Finding {
  return new FindingSink(file, text).unreadable(reason);
}

/** Applies ignore comments to the findings of their files; returns the comments that covered nothing, as findings. */
function applyInSourceSuppressions(findings: Finding[], ignoreFiles: ReadonlySet<string>, read: (file: string) => string | undefined, now: Date): Finding[] {
  const today = now.toISOString().slice(0, 10);
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const unused: Finding[] = [];
  for (const file of new Set([...byFile.keys(), ...ignoreFiles])) {
    const text = read(file);
    if (!text?.includes(SUPPRESSION_KEYWORD)) continue;
    const prose = fileKind(file) === "docs";
    for (const s of applySuppressions(byFile.get(file) ?? [], parseSuppressions(text), today)) {
      if (isDirective(s, prose)) unused.push(unusedIgnoreFinding(file, s));
    }
  }
  return unused;
}

/**
 * A review marker's advice names V1 paths and hosts ("POST {base}/run
 * becomes ..."): the marker is reported as review-marker, and no other rule
 * reports its line.
 */
function withoutMarkerLines(findings: Finding[], read: (file: string) => string | undefined): void {
  const markerLines = new Map<string, Set<number>>();
  const linesOf = (file: string): Set<number> => {
    let lines = markerLines.get(file);
    if (!lines) {
      const text = read(file) ?? "";
      lines = new Set(text.includes(MARKER_TAG) ? text.split("\n").flatMap((line, i) => (line.includes(MARKER_TAG) ? [i + 1] : [])) : []);
      markerLines.set(file, lines);
    }
    return lines;
  };
  const kept = findings.filter((f) => f.ruleId === "review-marker" || !linesOf(f.file).has(f.line));
  findings.splice(0, findings.length, ...kept);
}

function cachedReader(root: string, fileSet: ReadonlySet<string>): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (!fileSet.has(file)) return undefined;
    if (!cache.has(file)) {
      let text: string | undefined;
      try {
        const bytes = readFileSync(posix.join(root, file));
        text = bytes.length > MAX_FILE_BYTES || looksBinary(bytes) ? undefined : decode(bytes);
      } catch {
        text = undefined;
      }
      cache.set(file, text);
    }
    return cache.get(file);
  };
}

/** The package directories (holding a package.json) that contain the given files. */
function packagesOf(files: readonly string[], fileSet: ReadonlySet<string>): Set<string> {
  const packages = new Set<string>();
  for (const file of files) {
    const dir = nearestPackageDir(file, (path) => fileSet.has(path));
    if (dir !== undefined) packages.add(dir);
  }
  return packages;
}

/** The first file (by path, not docs) whose content holds the API base on one of `hosts.legacy`, not only a link to the vendor's site, and the line. */
function firstApiBase(withLegacyHost: ReadonlyArray<{ file: string; content: Buffer }>, hosts: HostSet): { file: string; line: number } | undefined {
  const files = withLegacyHost.filter(({ file }) => fileKind(file) !== "docs").sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const { file, content } of files) {
    const text = decode(content);
    const mention = findLegacyHostMentions(text, hosts).find((m) => m.kind === "api");
    if (mention) return { file, line: text.slice(0, mention.start).split("\n").length };
  }
  return undefined;
}

function decode(content: Buffer): string {
  const text = content.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const JS_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;

/**
 * Whether a file imports one of the given modules: relative specifiers are
 * resolved against the file (with the usual extensions and index files);
 * aliased ones (`@/lib/config`, `~/config`) match by their path tail.
 */
function hostModuleImports(modules: readonly string[]): (file: string, text: string) => boolean {
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
function importNeedles(modules: readonly string[]): Buffer[] {
  const names = new Set(
    modules.map((m) => {
      const base = posix.basename(m).replace(/\.[^.]+$/, "");
      return base === "index" ? posix.basename(posix.dirname(m)) : base;
    }),
  );
  return [...names].flatMap((n) => [`/${n}"`, `/${n}'`, `/${n}.`, `/${n}\``].map((needle) => Buffer.from(needle)));
}

/**
 * What an importer of a client module must do for its import to matter: call
 * a V1 client method or read a client property, take `typeof` of a binding,
 * or pass the module on (a barrel). Third-party files that happen to import a
 * module of the same name do none of these and are not parsed.
 */
const USES_A_CLIENT = [
  new RegExp(`\\.(?:${V1_CLIENT_METHODS.map((m) => m.v1).join("|")})\\s*\\(|\\.(?:${V1_CLIENT_PROPERTIES.join("|")})\\b`),
  /\btypeof\s+[A-Za-z_$]/,
];
const usesAClient = (text: string): boolean => USES_A_CLIENT.some((pattern) => pattern.test(text)) || mayReexport(text);

/**
 * JS/TS files not yet analysed whose text names one of the client modules
 * (by file or folder name), so that the import can be checked by the parser.
 */
async function findImporters(
  root: string,
  allFiles: readonly string[],
  fileSet: ReadonlySet<string>,
  analysed: ReadonlySet<string>,
  modules: readonly string[],
  ripgrep: string | undefined,
): Promise<JsWork[]> {
  const needles = importNeedles(modules);
  const importers: JsWork[] = [];
  // For a module in third-party code, its importers are looked for in its own package and in the repository's own code:
  // other libraries import a library by name, which resolves to their own dependencies, not to this copy.
  const packageOfDir = new Map<string, string | undefined>();
  const thirdPartyPackage = (file: string): string | undefined => {
    const dir = posix.dirname(file);
    if (!packageOfDir.has(dir)) packageOfDir.set(dir, thirdPartyPackageOf(file, (path) => fileSet.has(path)));
    return packageOfDir.get(dir);
  };
  const modulePackages = new Set(modules.map(thirdPartyPackage));
  const inScope = (file: string): boolean => {
    const pkg = thirdPartyPackage(file);
    return pkg === undefined || modulePackages.has(pkg);
  };
  // Declaration files hold no calls: an importer that matters is code.
  let candidates = allFiles.filter((f) => isJsFile(f) && !/\.d\.[cm]?ts$/.test(f) && !analysed.has(f) && fileSet.has(f) && inScope(f));
  if (ripgrep && candidates.length >= RIPGREP_MIN_FILES) {
    const matched = await ripgrepMatches(ripgrep, root, candidates, needles.map((n) => ({ literal: n.toString() })));
    candidates = candidates.filter((f) => matched.has(f));
  }
  await forEachLimit(candidates, READ_CONCURRENCY, async (file) => {
    const content = await readFile(posix.join(root, file)).catch(() => undefined);
    if (!content || content.length > MAX_FILE_BYTES || looksBinary(content)) return;
    // A bundle's imports are inlined copies of files the follow-up reaches in their own right.
    if (!needles.some((n) => content.indexOf(n) !== -1) || looksGenerated(file, content)) return;
    const text = decode(content);
    if (usesAClient(text)) importers.push({ file, text, clientModules: modules });
  });
  return importers;
}
