/**
 * The fix pipeline: scan, then run the selected transforms on the files with
 * findings only (never the whole tree), keep each file's bytes outside the
 * rewritten ranges (line endings, BOM), re-parse every output, and hand back
 * the changes. With `write`, each file is written (atomically) as soon as it
 * is done, so the work of a long run is not held back to its end.
 */
import { existsSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { nearestPackageDir } from "../files/package-dirs.js";
import type { Finding } from "../core/finding.js";
import { LineIndex } from "../core/location.js";
import { isJsFile } from "../platform/file-types.js";
import { scan, type ScanOptions, type ScanResult } from "../scan/engine.js";
import { contentDigest } from "../scan/file-reading.js";
import { isActivelySuppressed } from "../core/suppression.js";
import { UnparsableFile } from "../../transforms/lib/ast-limits.js";
import { isStackOverflow } from "../core/errors.js";
import type { FixEvent, NodeRefTarget, SiteNote, Transform, TransformId } from "../../transforms/types.js";
import { crlfToLf, relocateFindings, spanMap } from "./relocate.js";
import { SupportModules } from "./support-modules.js";
import { decodeUtf8, normalize, restore } from "./text-shape.js";
import { parseError } from "./validate.js";
import { asUtf8, decodeUtf16, encodeUtf16, utf16Of } from "../core/text-encoding.js";
import { acquireFixLock, errorCode, type FixLock, writeFile, WriteRefused } from "./write.js";

export { normalize, restore } from "./text-shape.js";
export { writeFixes } from "./write.js";

export interface FixOptions
  extends Pick<ScanOptions, "root" | "hosts" | "include" | "exclude" | "onProgress" | "allFiles" | "rules"> {
  transforms: readonly TransformId[];
  nodeRef: NodeRefTarget;
  /** Remove SDK dependencies no code of their package imports. */
  removeUnused?: boolean;
  /**
   * Write each changed file as soon as it is done (atomically), holding the
   * tree's fix lock (taken here unless `lock` is given); taking over a killed
   * run's lock removes the temp files it left.
   */
  write?: boolean;
  lock?: FixLock;
  /** Rewrite read-only files too (default: leave them, with the reason). */
  writeReadOnly?: boolean;
  /** After each file written. */
  onWritten?: (file: string) => void;
  /** After each file with findings is fixed (its write may still be under way): how many are done, of how many. */
  onFileDone?: (done: number, total: number) => void;
}

export interface PlannedChange {
  file: string;
  before: string;
  after: string;
  events: FixEvent[];
  /** How the file is stored, when not UTF-8 (a UTF-16 file). */
  encode?: (text: string) => Buffer;
}

export interface FixPlan {
  changes: PlannedChange[];
  /** Files with findings that were looked at but could not be fixed, with the reason (unreadable-file: fix cannot read or parse it). */
  skipped: Array<{ file: string; reason: string; ruleId?: "unreadable-file" }>;
  /** Temp files an interrupted run had left, removed before writing. */
  removedTemps: string[];
  /** Findings a transform left as they are on purpose, and why (e.g. a package kept on V1 while its code is). */
  notes: Array<{ file: string } & SiteNote>;
  /** Files with findings the selected transforms apply to. */
  candidates: number;
  /** Files with findings that no selected transform handles. */
  untouched: number;
  scan: ScanResult;
}

export async function planFixes(options: FixOptions): Promise<FixPlan> {
  if (!options.write || options.lock) return planWithLock(options, options.lock);
  const lock = await acquireFixLock(options.root);
  try {
    return await planWithLock(options, lock);
  } finally {
    lock.release();
  }
}

async function planWithLock(options: FixOptions, lock: FixLock | undefined): Promise<FixPlan> {
  // fix loads TypeScript on this thread for its codemods anyway: a scan worker would load a second copy.
  const result = await scan({ workers: false, ...options });
  const active = result.findings.filter((f) => !isActivelySuppressed(f) && f.ruleId !== "review-marker");
  const byFile = new Map<string, Finding[]>();
  for (const f of active) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const removedTemps = (lock?.removedTemps ?? []).map((temp) => posix.relative(options.root, temp)).sort();

  // The codemods (jscodeshift, Babel) load only when there is something to fix.
  const transforms: readonly Transform[] =
    byFile.size > 0 ? await (await import("../../transforms/index.js")).loadTransforms() : [];
  const selected = transforms.filter((t) => options.transforms.includes(t.id));
  const files = [...byFile.keys()].sort((a, b) => Number(isJsFile(b)) - Number(isJsFile(a)) || (a < b ? -1 : 1));
  const plan: FixPlan = {
    changes: [],
    skipped: [],
    removedTemps,
    notes: [],
    candidates: 0,
    untouched: 0,
    scan: result,
  };
  // Files already written (or being written), as they were: support modules take their style from the original.
  const originals = new Map<string, string>();
  const run: FileRun = {
    options,
    selected,
    v1Left: new Map(),
    supportModules: new SupportModules(options.root, byFile, (file) => originals.get(file)),
    digests: result.digests ?? new Map(),
  };
  /** Writes a change (when writing); the reason it was not written, if it was not. */
  const write = async (change: PlannedChange): Promise<string | undefined> => {
    if (!options.write) return undefined;
    try {
      await writeFile(options.root, change, {
        ...(lock ? { lock } : {}),
        ...(options.writeReadOnly ? { writeReadOnly: true } : {}),
      });
      options.onWritten?.(change.file);
      return undefined;
    } catch (error) {
      return error instanceof WriteRefused ? error.message : `could not be written (${errorCode(error)})`;
    }
  };
  // Files whose write is under way, in order: the next file is fixed meanwhile, and each is accounted for in order.
  const pending: Array<{
    file: string;
    findings: readonly Finding[];
    outcome: FileOutcome;
    writing: Promise<string | undefined>;
  }> = [];
  let done = 0;
  const settle = async (keep: number): Promise<void> => {
    while (pending.length > keep) {
      const { file, findings, outcome, writing } = pending.shift()!;
      const refused = await writing;
      if (refused !== undefined) {
        plan.skipped.push({ file, reason: refused });
        originals.delete(file);
      }
      account(run, plan, file, findings, outcome, refused === undefined);
    }
  };
  for (const file of files) {
    // Other files' parts read what the JS/TS files left on V1 (sdk-dependency), so those are all accounted for first.
    const inOrder = !isJsFile(file);
    if (inOrder) await settle(0);
    const findings = byFile.get(file)!;
    const outcome = await fixFile(run, file, findings);
    if (outcome.kind === "changed") {
      run.supportModules.noteOutput(file, outcome.change.after);
      if (options.write && isJsFile(file)) originals.set(file, outcome.change.before);
    }
    pending.push({
      file,
      findings,
      outcome,
      writing: outcome.kind === "changed" ? write(outcome.change) : Promise.resolve(undefined),
    });
    options.onFileDone?.(++done, files.length);
    await settle(inOrder ? 0 : WRITES_IN_FLIGHT);
  }
  await settle(0);
  // Modules a transform adds to a package, written once every file has asked for them.
  const modules = await run.supportModules.planned();
  for (const module of modules) {
    const change = { file: module.file, before: "", after: module.text, events: module.events };
    const refused = await write(change);
    if (refused === undefined) plan.changes.push(change);
    else plan.skipped.push({ file: change.file, reason: refused });
  }
  return plan;
}

/** Writes under way while the next files are fixed: their I/O (fsync included) overlaps the parsing. */
const WRITES_IN_FLIGHT = 8;

/** What one file's outcome adds to the plan, once its write is done. */
function account(
  run: FileRun,
  plan: FixPlan,
  file: string,
  findings: readonly Finding[],
  outcome: FileOutcome,
  written: boolean,
): void {
  const { options, selected } = run;
  const sdkFindings = isJsFile(file) && findings.some((f) => f.ruleId.startsWith("v1-sdk"));
  if (outcome.kind === "untouched") plan.untouched++;
  else plan.candidates++;
  // JS/TS code left on the V1 SDK keeps its package on V1 too (sdk-dependency reads this; it runs after the code).
  const leftOnV1 =
    sdkFindings &&
    (!written ||
      outcome.kind === "untouched" ||
      outcome.kind === "skipped" ||
      !selected.some((t) => t.id === "v2-sdk") ||
      outcome.events.some((e) => e.leavesV1));
  if (leftOnV1) {
    const pkg = packageDirOf(options.root, file);
    run.v1Left.set(pkg, [...(run.v1Left.get(pkg) ?? []), file]);
  }
  for (const note of outcome.notes) plan.notes.push({ file, ...note });
  if (outcome.kind === "skipped")
    plan.skipped.push({
      file,
      reason: outcome.reason,
      ...(outcome.unreadable ? { ruleId: "unreadable-file" as const } : {}),
    });
  if (outcome.kind === "changed" && written) plan.changes.push(outcome.change);
}

interface FileRun {
  options: FixOptions;
  selected: readonly Transform[];
  /** Package directories whose code is left on the V1 SDK, with those files. */
  v1Left: Map<string, string[]>;
  supportModules: SupportModules;
  /** What the scan read, by file: a file that differs now would be rewritten with stale findings. */
  digests: ReadonlyMap<string, string>;
}

type FileOutcome =
  | { kind: "untouched"; events: []; notes: [] }
  | { kind: "skipped"; reason: string; unreadable?: boolean; events: FixEvent[]; notes: SiteNote[] }
  | { kind: "unchanged"; events: FixEvent[]; notes: SiteNote[] }
  | { kind: "changed"; change: PlannedChange; events: FixEvent[]; notes: SiteNote[] };

/** Every selected part that applies to a file, in order, each on what the one before it made; then validation. */
async function fixFile(run: FileRun, file: string, findings: readonly Finding[]): Promise<FileOutcome> {
  const { options } = run;
  const parts = run.selected.flatMap((t) => t.parts.filter((part) => part.appliesTo(file)));
  if (parts.length === 0) return { kind: "untouched", events: [], notes: [] };
  let bytes: Buffer;
  try {
    // Read on this thread: the file is small and cached, and a thread-pool round trip costs more than the read on a busy machine.
    bytes = readFileSync(posix.join(options.root, file));
  } catch (error) {
    return { kind: "skipped", reason: `could not be read (${errorCode(error)})`, events: [], notes: [] };
  }
  const scanned = run.digests.get(file);
  if (scanned !== undefined && scanned !== contentDigest(asUtf8(bytes))) {
    return { kind: "skipped", reason: "changed since the scan; left unchanged: run fix again", events: [], notes: [] };
  }
  // A UTF-16 file is fixed as its text and written back as UTF-16, BOM included.
  const utf16 = utf16Of(bytes);
  const encode = utf16 ? (text: string) => encodeUtf16(text, utf16) : undefined;
  // Text decoded with replacement characters could not be written back as the bytes it came from.
  const decoded = utf16 ? { text: decodeUtf16(bytes, utf16) } : decodeUtf8(bytes);
  if (!("text" in decoded)) {
    const reason = `not valid UTF-8 (line ${decoded.badLine}); fix leaves it unchanged: convert it to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run fix again`;
    return unreadable(reason, findings);
  }
  const raw = decoded.text;
  const { text, shape } = normalize(raw);
  // Spans point into the file as scanned (CRLF kept); parts see LF text, possibly edited by the parts before them.
  const toLf = shape.crlf ? crlfToLf(shape.body) : undefined;
  let current = text;
  const events: FixEvent[] = [];
  // Each part's notes, with the text their lines refer to.
  const notes: Array<{ note: SiteNote; text: string }> = [];
  try {
    for (const part of parts) {
      const fixed = await part.apply(current, {
        file,
        hosts: options.hosts,
        findings: relocateFindings(findings, text, current, toLf),
        nodeRef: options.nodeRef,
        unmigratedSdkUse: run.v1Left,
        removeUnused: options.removeUnused ?? false,
        useSupportModule: (module) => run.supportModules.use(module, file),
      });
      notes.push(...(fixed.notes ?? []).map((note) => ({ note, text: current })));
      current = fixed.text;
      events.push(...fixed.events);
    }
  } catch (error) {
    if (error instanceof UnparsableFile || isStackOverflow(error)) return unreadable(unparsable(error), findings);
    return { kind: "skipped", reason: `transform failed: ${firstLine(error)}`, events, notes: notesOn(text, notes) };
  }
  // A file keeps ending (or not ending) with a newline, whatever the parts printed.
  if (current !== text && text.endsWith("\n") !== current.endsWith("\n"))
    current = text.endsWith("\n") ? `${current}\n` : current.replace(/\n+$/, "");
  if (current === text) return { kind: "unchanged", events, notes: notesOn(text, notes) };
  // A file that did not parse before is not held to parsing after: fix's edits are local to the sites it found.
  let problem: string | undefined;
  try {
    problem = parseError(file, current);
    if (problem && parseError(file, text)) problem = undefined;
  } catch (error) {
    if (isStackOverflow(error)) return unreadable(unparsable(error), findings);
    throw error;
  }
  if (problem)
    return {
      kind: "skipped",
      reason: `left untouched: the rewritten file would not parse (${problem})`,
      events,
      notes: notesOn(text, notes),
    };
  const change: PlannedChange = {
    file,
    before: raw,
    after: restore(current, shape),
    events,
    ...(encode ? { encode } : {}),
  };
  return { kind: "changed", change, events, notes: notesOn(current, notes) };
}

/**
 * A file fix cannot read or parse: left as it is, with an unreadable-file
 * warning instead of a marker, and each of its sites named as left.
 */
function unreadable(reason: string, findings: readonly Finding[]): FileOutcome {
  const lines = [...new Set(findings.map((f) => f.line))].sort((a, b) => a - b);
  const notes = lines.map((line) => ({
    line,
    reason: "left as it is: fix cannot rewrite this file (see its unreadable-file warning)",
  }));
  return { kind: "skipped", reason, unreadable: true, events: [], notes };
}

function unparsable(error: unknown): string {
  const why =
    error instanceof UnparsableFile
      ? error.message
      : "an expression nested too deeply for the parser (e.g. a long operator chain)";
  return `${why}; fix leaves it unchanged`;
}

/** Notes with their lines moved onto the text the file ends with (later parts may have moved lines). */
function notesOn(final: string, notes: ReadonlyArray<{ note: SiteNote; text: string }>): SiteNote[] {
  const lines = new LineIndex(final);
  return notes.map(({ note, text }) => {
    if (text === final) return note;
    const start = new LineIndex(text).lineStart(note.line);
    const moved = spanMap(text, final)({ start, end: start });
    return { ...note, line: moved ? lines.lineOf(moved.start) : note.line };
  });
}

/** The directory of the package.json closest above a file ("." for the root). */
function packageDirOf(root: string, file: string): string {
  return nearestPackageDir(file, (path) => existsSync(posix.join(root, path))) ?? ".";
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
