/**
 * The scan: list files, keep those a cheap byte prefilter flags, then parse
 * and analyse only those. TypeScript is loaded only when a JS/TS file needs
 * it, and big trees fan the parsing out to worker threads.
 */
import { isConfigFile, type RuleSettings } from "../platform/config.js";
import { applyRuleSettings } from "../platform/rule-settings.js";
import { compareFindings, type Finding, type SkippedFile } from "../core/finding.js";
import { gitIndexBytes, listFiles } from "../files/list-files.js";
import { nearestPackageDir } from "../files/package-dirs.js";
import { fileKind, isJsFile } from "../platform/file-types.js";
import { JsPool, type JsWork, preloadAnalyzer } from "./js-pool.js";
import { looksGenerated } from "./js/generated-code.js";
import { jsTextRules } from "./js/text-rules.js";
import { JsSignals, needlePattern, prefilterNeedles } from "./needles.js";
import { findRipgrep, prefilterPass, RIPGREP_MIN_FILES } from "./prefilter-pass.js";
import { RipgrepFeed } from "./ripgrep-feed.js";
import { assignFingerprints } from "../core/fingerprint.js";
import { SUPPRESSION_KEYWORD } from "../core/suppression.js";
import { findReviewMarkers } from "./review-markers.js";
import { MARKER_TAG } from "../core/marker.js";
import type { RepoFacts } from "./scanner.js";
import { FILE_SCANNERS } from "./scanners/index.js";
import { currentHostsAsLegacy, findLegacyHostMentions, type HostSet } from "../core/urls.js";
import { cachedReader, contentDigest, decode } from "./file-reading.js";
import { ImportIndex } from "./import-index.js";
import { findImporters, hostModuleImports, importerCandidates, thirdPartyPackages } from "./importer-follow-up.js";
import { PackageImporters } from "./package-importers.js";
import { pythonImporterFindings } from "./scanners/python/importers.js";
import { applyInSourceSuppressions, withoutMarkerLines } from "./suppression-pass.js";
import { scannersFor, scanTextFile, type TextCandidate, textFallback } from "./text-pass.js";
import { scriptsSourcingCandidates } from "./sourced-follow-up.js";
import { loadGrammarsFor } from "../lang/tree/grammars.js";
import { treeLanguageOf } from "../lang/tree/languages.js";
import type { HeldBase } from "./held-base.js";

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
  /** SHA-256 of each file's bytes as the scan read them: fix refuses to rewrite a file that changed since. */
  digests?: Map<string, string>;
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
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
/** A git index this big lists thousands of files (about 100 bytes an entry). */
const BIG_INDEX_BYTES = 256 * 1024;

export async function scan(options: ScanOptions): Promise<ScanResult> {
  const { root, hosts } = options;
  const progress: ScanProgress = { phase: "listing", listed: 0, candidates: 0, parsed: 0 };
  const report = (): void => options.onProgress?.({ ...progress });
  report();

  const bigTree = options.workers !== true && gitIndexBytes(root) > BIG_INDEX_BYTES;
  const ripgrep = options.ripgrep !== false ? findRipgrep() : undefined;
  // rg starts on the first paths while git lists the rest: the same files the prefilter would be handed below.
  const feed = ripgrep ? new RipgrepFeed(ripgrep, root, prefilterNeedles(hosts).map(needlePattern)) : undefined;
  const toPrefilter = (file: string): boolean =>
    !isConfigFile(file) && (!options.onlyFiles || options.onlyFiles.has(file));
  const listed = listFiles(
    root,
    {
      include: options.include ?? [],
      exclude: options.exclude ?? [],
      ...(options.allFiles ? { respectIgnore: false } : {}),
    },
    feed && ((paths) => feed.add(paths.filter(toPrefilter))),
  );
  // A tree that big will almost surely need the parser: load it (about 0.2 s) while git lists the files. Git is started
  // first, since part of the load holds this thread.
  if (bigTree) preloadAnalyzer();
  const listing = await listed;
  // The tool's own config names V1 hosts on purpose.
  const allFiles = listing.files.filter((file) => !isConfigFile(file));
  progress.listed = allFiles.length;
  progress.phase = "prefilter";
  report();

  let pool: JsPool | undefined;
  const poolFor = async (jsCandidates: number, legacyBase: HeldBase | undefined): Promise<JsPool> =>
    (pool ??= await JsPool.create({
      root,
      files: allFiles,
      hosts,
      ...(legacyBase ? { legacyBase } : {}),
      threads: options.workers ?? jsCandidates > WORKER_THRESHOLD,
    }));
  try {
    const result = await scanWithPool(options, allFiles, listing.source, { ripgrep, feed }, poolFor, progress, report);
    // Files below a directory the user cannot read were never listed: the directory stands for them.
    for (const dir of listing.unreadableDirs)
      result.skipped.push({ file: `${dir}/`, reason: "directory could not be read (permission denied)" });
    return result;
  } finally {
    await pool?.close();
  }
}

async function scanWithPool(
  options: ScanOptions,
  allFiles: string[],
  listingSource: "git" | "filesystem",
  { ripgrep, feed }: { ripgrep: string | undefined; feed: RipgrepFeed | undefined },
  poolFor: (jsCandidates: number, legacyBase: HeldBase | undefined) => Promise<JsPool>,
  progress: ScanProgress,
  report: () => void,
): Promise<ScanResult> {
  const { root, hosts } = options;
  const skipped: SkippedFile[] = [];
  const findings: Finding[] = [];
  const jsCandidates: JsWork[] = [];
  const textCandidates: TextCandidate[] = [];
  const filesToScan = options.onlyFiles ? allFiles.filter((f) => options.onlyFiles!.has(f)) : allFiles;
  const hits = await prefilterPass({
    root,
    files: filesToScan,
    needles: prefilterNeedles(hosts),
    wantsBinary: (file) => !isJsFile(file) && scannersFor(file).some((s) => s.readsBinary),
    ...(ripgrep ? { ripgrep } : {}),
    ...(feed ? { feed } : {}),
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
  // So are URLs built from parts on a V1 host constant (`Uri.https(kHost, '/api/run')`, `url.URL{Host: apiHost, …}`).
  const needsGrammars =
    legacyBaseHeld ||
    withCurrentHost.length > 0 ||
    withLegacyHost.some(({ file }) => treeLanguageOf(file) !== undefined);
  // A candidate that imports a module holding the V1 host (`${BASE}/run`, `fetch(RUN_URL, …)` with BASE from ./config) needs the parser too.
  const importsHostModule = hostModuleImports(withLegacyHost.filter(({ file }) => isJsFile(file)).map((h) => h.file));
  /** JS/TS sources a file scanner also reads: kept apart from `candidates`, the non-JS peers names are resolved across. */
  const jsSourceCandidates: TextCandidate[] = [];
  let textOnly = 0;
  const textOnlySdkImporters: string[] = [];
  const digests = new Map<string, string>();
  for (const { file, content } of hits) {
    digests.set(file, contentDigest(content));
    if (content.includes(SUPPRESSION_KEYWORD)) ignoreFiles.add(file);
    if (content.includes(MARKER_TAG)) findings.push(...findReviewMarkers(file, decode(content)));
    if (isJsFile(file)) {
      countedJs.add(file);
      const text = decode(content);
      const sourceScanners = FILE_SCANNERS.filter((s) => s.readsJsSource?.(file, text));
      if (sourceScanners.length > 0) jsSourceCandidates.push({ file, bytes: content, scanners: sourceScanners });
      if (!jsSignals.matches(content, DECLARATION_FILE.test(file)) && !importsHostModule(file, text)) continue;
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
  const pool = await poolFor(jsCandidates.length, legacyBase);
  if (jsCandidates.length > WORKER_THRESHOLD) pool.grow(Math.ceil(jsCandidates.length / WORKER_THRESHOLD));
  const analysed = new Set<string>();
  /** Barrels the follow-up settled without the parser: in `analysed`, so no round takes them again. */
  let barrelCount = 0;
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
  // Files that use a client module's exports without naming anything V1 themselves: one index of imports serves every round.
  // With rg, the repository's own code is indexed while the first candidates are parsed (rg beside the parser), since any
  // of them may export a client; a third-party package is indexed only once a round looks for importers in it.
  const importerFiles = importerCandidates(filesToScan, fileSet);
  const thirdPartyPackage = thirdPartyPackages(fileSet);
  const index = new ImportIndex(root, ripgrep, importerFiles);
  const ownCode = importerFiles.filter((f) => thirdPartyPackage(f) === undefined);
  let ownCodeIndexed: Promise<void> | undefined =
    jsCandidates.length > 0 && ripgrep && filesToScan.length >= RIPGREP_MIN_FILES ? index.cover(ownCode) : undefined;
  ownCodeIndexed?.catch(() => undefined); // a failure surfaces where the index is asked
  const packages = new PackageImporters(root, ripgrep, importerFiles, thirdPartyPackage);
  packages.prepare(
    jsCandidates.map((w) => w.file),
    analysed,
  );
  await run(jsCandidates.splice(0));
  const provenClients: string[] = [];
  while (clientModules.length > 0) {
    const modules = clientModules.splice(0);
    provenClients.push(...modules);
    const search = { index, importerFiles, thirdPartyPackage, packages, ownCode };
    const { importers, barrels } = await findImporters(root, fileSet, analysed, modules, search, digests, [
      ...provenClients,
    ]);
    const found = [...importers.map((w) => w.file), ...barrels];
    if (found.length === 0) break;
    for (const barrel of barrels) analysed.add(barrel);
    barrelCount += barrels.length;
    clientModules.push(...barrels);
    progress.candidates += found.filter((f) => !countedJs.has(f)).length;
    packages.prepare(found, analysed);
    await run(importers);
  }
  await ownCodeIndexed?.catch(() => undefined); // no rg left running when the scan returns
  ownCodeIndexed = undefined;
  // The JS/TS findings are made: the parsed files go before the text pass loads its grammars.
  await pool.close();
  const read = cachedReader(root, fileSet);
  const sourcing = scriptsSourcingCandidates(textCandidates, filesToScan, allFiles, read);
  progress.candidates += sourcing.length;
  textCandidates.push(...sourcing);
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
  for (const candidate of jsSourceCandidates) findings.push(...scanTextFile(candidate, hosts, repo));
  // Python files that only import a module sending V1 (`from worker.comfy import submit`) hold no needle.
  const pythonImporters = await pythonImporterFindings(
    root,
    filesToScan,
    new Set(candidates),
    findings,
    (file, bytes) => {
      digests.set(file, contentDigest(bytes));
      return scanTextFile({ file, bytes, scanners: scannersFor(file) }, hosts, repo);
    },
  );
  findings.push(...pythonImporters);
  if (options.rules) findings.splice(0, findings.length, ...applyRuleSettings(findings, options.rules));
  const unused = applyInSourceSuppressions(findings, ignoreFiles, read, options.now ?? new Date());
  if (options.reportUnusedIgnores)
    findings.push(...(options.rules ? applyRuleSettings(unused, options.rules) : unused));
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
    stats: {
      listed: allFiles.length,
      candidates: progress.candidates,
      analysed: analysed.size - barrelCount,
      textOnly,
      listing: listingSource,
    },
    digests,
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
function firstApiBase(
  withLegacyHost: ReadonlyArray<{ file: string; content: Buffer }>,
  hosts: HostSet,
): { file: string; line: number } | undefined {
  const files = withLegacyHost
    .filter(({ file }) => fileKind(file) !== "docs")
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const { file, content } of files) {
    const text = decode(content);
    const mention = findLegacyHostMentions(text, hosts).find((m) => m.kind === "api");
    if (mention) return { file, line: text.slice(0, mention.start).split("\n").length };
  }
  return undefined;
}
