/**
 * The fix pipeline: scan, then run the selected transforms on the files with
 * findings only (never the whole tree), keep each file's line endings and
 * BOM, re-parse every output, and hand back the planned changes. Writing is
 * a separate, atomic step.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { posix } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { RuntimeFailure } from "../core/errors.js";
import { nearestPackageDir } from "../files/package-dirs.js";
import type { Finding } from "../core/finding.js";
import { LineIndex } from "../core/location.js";
import { isJsFile } from "../core/file-kinds.js";
import { scan, type ScanOptions, type ScanResult } from "../scan/engine.js";
import { isActivelySuppressed } from "../core/suppression.js";
import type { FixEvent, NodeRefTarget, SiteNote, Transform, TransformId } from "../../transforms/types.js";
import { crlfToLf, relocateFindings, spanMap } from "./relocate.js";
import { SupportModules } from "./support-modules.js";
import { parseError } from "./validate.js";

export interface FixOptions extends Pick<ScanOptions, "root" | "hosts" | "include" | "exclude" | "onProgress" | "allFiles" | "rules"> {
  transforms: readonly TransformId[];
  nodeRef: NodeRefTarget;
  /** Remove SDK dependencies no code of their package imports. */
  removeUnused?: boolean;
}

export interface PlannedChange {
  file: string;
  before: string;
  after: string;
  events: FixEvent[];
}

export interface FixPlan {
  changes: PlannedChange[];
  /** Files with findings that were looked at but could not be fixed, with the reason. */
  skipped: Array<{ file: string; reason: string }>;
  /** Findings a transform left as they are on purpose, and why (e.g. a package kept on V1 while its code is). */
  notes: Array<{ file: string } & SiteNote>;
  /** Files with findings the selected transforms apply to. */
  candidates: number;
  /** Files with findings that no selected transform handles. */
  untouched: number;
  scan: ScanResult;
}

interface TextShape {
  bom: boolean;
  crlf: boolean;
}

export async function planFixes(options: FixOptions): Promise<FixPlan> {
  const result = await scan(options);
  const active = result.findings.filter((f) => !isActivelySuppressed(f) && f.ruleId !== "review-marker");
  const byFile = new Map<string, Finding[]>();
  for (const f of active) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);

  // The codemods (jscodeshift, Babel) load only when there is something to fix.
  const transforms: readonly Transform[] = byFile.size > 0 ? await (await import("../../transforms/index.js")).loadTransforms() : [];
  const selected = transforms.filter((t) => options.transforms.includes(t.id));
  const files = [...byFile.keys()].sort((a, b) => Number(isJsFile(b)) - Number(isJsFile(a)) || (a < b ? -1 : 1));
  const plan: FixPlan = { changes: [], skipped: [], notes: [], candidates: 0, untouched: 0, scan: result };
  const run: FileRun = {
    options,
    selected,
    v1Left: new Map(),
    supportModules: new SupportModules(options.root, byFile),
  };
  for (const file of files) {
    const findings = byFile.get(file)!;
    const sdkFindings = isJsFile(file) && findings.some((f) => f.ruleId.startsWith("v1-sdk"));
    const outcome = await fixFile(run, file, findings);
    if (outcome.kind === "untouched") plan.untouched++;
    else plan.candidates++;
    // JS/TS code left on the V1 SDK keeps its package on V1 too (sdk-dependency reads this; it runs after the code).
    const leftOnV1 =
      sdkFindings &&
      (outcome.kind === "untouched" || outcome.kind === "skipped" || !selected.some((t) => t.id === "v2-sdk") || outcome.events.some((e) => e.leavesV1));
    if (leftOnV1) {
      const pkg = packageDirOf(options.root, file);
      run.v1Left.set(pkg, [...(run.v1Left.get(pkg) ?? []), file]);
    }
    for (const note of outcome.notes) plan.notes.push({ file, ...note });
    if (outcome.kind === "skipped") plan.skipped.push({ file, reason: outcome.reason });
    if (outcome.kind === "changed") plan.changes.push(outcome.change);
  }
  // Modules a transform adds to a package, written once every file has asked for them.
  for (const module of await run.supportModules.planned()) {
    plan.changes.push({ file: module.file, before: "", after: module.text, events: module.events });
  }
  return plan;
}

interface FileRun {
  options: FixOptions;
  selected: readonly Transform[];
  /** Package directories whose code is left on the V1 SDK, with those files. */
  v1Left: Map<string, string[]>;
  supportModules: SupportModules;
}

type FileOutcome =
  | { kind: "untouched"; events: []; notes: [] }
  | { kind: "skipped"; reason: string; events: FixEvent[]; notes: SiteNote[] }
  | { kind: "unchanged"; events: FixEvent[]; notes: SiteNote[] }
  | { kind: "changed"; change: PlannedChange; events: FixEvent[]; notes: SiteNote[] };

/** Every selected part that applies to a file, in order, each on what the one before it made; then validation. */
async function fixFile(run: FileRun, file: string, findings: readonly Finding[]): Promise<FileOutcome> {
  const { options } = run;
  const parts = run.selected.flatMap((t) => t.parts.filter((part) => part.appliesTo(file)));
  if (parts.length === 0) return { kind: "untouched", events: [], notes: [] };
  let raw: string;
  try {
    raw = await readFile(posix.join(options.root, file), "utf8");
  } catch (error) {
    return { kind: "skipped", reason: `could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})`, events: [], notes: [] };
  }
  const { text, shape } = normalize(raw);
  // Spans point into the file as scanned (CRLF kept); parts see LF text, possibly edited by the parts before them.
  const toLf = shape.crlf ? crlfToLf(stripBom(raw)) : undefined;
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
    return { kind: "skipped", reason: `transform failed: ${firstLine(error)}`, events, notes: notesOn(text, notes) };
  }
  // A file keeps ending (or not ending) with a newline, whatever the parts printed.
  if (current !== text && text.endsWith("\n") !== current.endsWith("\n")) current = text.endsWith("\n") ? `${current}\n` : current.replace(/\n+$/, "");
  if (current === text) return { kind: "unchanged", events, notes: notesOn(text, notes) };
  // A file that did not parse before is not held to parsing after: fix's edits are local to the sites it found.
  const problem = parseError(file, current);
  if (problem && !parseError(file, text)) return { kind: "skipped", reason: `left untouched: the rewritten file would not parse (${problem})`, events, notes: notesOn(text, notes) };
  return { kind: "changed", change: { file, before: raw, after: restore(current, shape), events }, events, notes: notesOn(current, notes) };
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

export async function writeFixes(root: string, changes: readonly PlannedChange[]): Promise<void> {
  for (const change of changes) {
    try {
      await writeFileAtomic(posix.join(root, change.file), change.after, { encoding: "utf8" });
    } catch (error) {
      throw new RuntimeFailure(`cannot write ${change.file}: ${(error as NodeJS.ErrnoException).code ?? firstLine(error)}`);
    }
  }
}

/** Transforms see LF text without a BOM; the file's own shape is put back afterwards. */
export function normalize(raw: string): { text: string; shape: TextShape } {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const body = stripBom(raw);
  const crlfCount = (body.match(/\r\n/g) ?? []).length;
  const lfCount = (body.match(/\n/g) ?? []).length;
  const crlf = crlfCount > 0 && crlfCount >= lfCount - crlfCount;
  return { text: crlf ? body.replace(/\r\n/g, "\n") : body, shape: { bom, crlf } };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function restore(text: string, shape: TextShape): string {
  const body = shape.crlf ? text.replace(/\r?\n/g, "\r\n") : text;
  return shape.bom ? `\ufeff${body}` : body;
}

/** The directory of the package.json closest above a file ("." for the root). */
function packageDirOf(root: string, file: string): string {
  return nearestPackageDir(file, (path) => existsSync(posix.join(root, path))) ?? ".";
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

