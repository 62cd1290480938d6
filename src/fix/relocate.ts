/**
 * Moves findings onto the text a transform part actually receives. The scan
 * located them in the file as read (CRLF kept); the runner hands parts LF
 * text, and an earlier part may have edited it since (a rewritten URL, a
 * marker line). A span keeps the characters that survived: its start moves to
 * the first of them, its end to just after the last. A finding none of whose
 * characters survived has been dealt with by the earlier part and is dropped.
 */
import { diffChars, diffLines } from "diff";
import type { Finding } from "../core/finding.js";
import { LineIndex, type Span } from "../core/location.js";

/** A run of characters present in both texts: [oldStart, oldStart + length) is [newStart, newStart + length). */
export interface Kept {
  oldStart: number;
  newStart: number;
  length: number;
}

/** Offsets of the LF text for offsets of the same text with CRLF line endings. */
export function crlfToLf(text: string): (offset: number) => number {
  const returns: number[] = [];
  for (let i = text.indexOf("\r\n"); i >= 0; i = text.indexOf("\r\n", i + 2)) returns.push(i);
  if (returns.length === 0) return (offset) => offset;
  return (offset) => offset - countBelow(returns, offset);
}

/**
 * The findings of `scanned` moved onto `current`. `scanned` is the text the
 * spans point into; `toScanned` first converts a span's offsets into it (for
 * the CRLF to LF step).
 */
export function relocateFindings(
  findings: readonly Finding[],
  scanned: string,
  current: string,
  toScanned: (offset: number) => number = (offset) => offset,
): Finding[] {
  const map = scanned === current ? undefined : spanMap(scanned, current);
  const lines = new LineIndex(current);
  return findings.flatMap((finding) => {
    if (!finding.span) return [];
    const span = { start: toScanned(finding.span.start), end: toScanned(finding.span.end) };
    const moved = map ? map(span) : span;
    if (!moved) return [];
    return [
      {
        ...finding,
        ...lines.location(moved.start, moved.end),
        span: moved,
        ...movedFacts(finding, (s) => (map ? map(s) : s), toScanned),
      },
    ];
  });
}

/**
 * Spans inside the facts move with the finding's: an endpoint finding's `/run`
 * literal and URL, each dropped when an earlier part rewrote it; a JS SDK
 * finding's bindings, each dropped when none of its characters survived.
 */
function movedFacts(
  finding: Finding,
  map: (span: Span) => Span | undefined,
  toScanned: (offset: number) => number,
): Partial<Finding> {
  const facts = finding.facts;
  const move = (span: Span): Span | undefined => map({ start: toScanned(span.start), end: toScanned(span.end) });
  if (facts?.kind === "js-sdk") {
    const imports = facts.imports.flatMap((binding) => {
      const span = move(binding.span);
      return span ? [{ ...binding, span }] : [];
    });
    return { facts: { ...facts, imports } };
  }
  if (facts?.kind !== "endpoint" || (!facts.runLiteral && !facts.url)) return {};
  const literal = facts.runLiteral && move(facts.runLiteral);
  const url = facts.url && move(facts.url);
  const { runLiteral: _literal, url: _url, ...rest } = facts;
  return { facts: { ...rest, ...(literal ? { runLiteral: literal } : {}), ...(url ? { url } : {}) } };
}

/** Maps spans of `before` onto `after` through the characters the two share. */
export function spanMap(before: string, after: string): (span: Span) => Span | undefined {
  const kept = keptRuns(before, after);
  const starts = kept.map((k) => k.oldStart);
  return ({ start, end }) => {
    if (start === end) {
      const at = insertionPoint(kept, starts, start);
      return { start: at, end: at };
    }
    const first = firstKeptAtOrAfter(kept, starts, start);
    const last = lastKeptBefore(kept, starts, end);
    if (first === undefined || last === undefined || first.old >= end || last.old < start) return undefined;
    return { start: first.new, end: last.new + 1 };
  };
}

/** Lines first (fast on big files), then characters inside the lines that changed. */
export function keptRuns(before: string, after: string): Kept[] {
  const kept: Kept[] = [];
  let oldAt = 0;
  let newAt = 0;
  const changes = diffLines(before, after);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (!change.added && !change.removed) {
      kept.push({ oldStart: oldAt, newStart: newAt, length: change.value.length });
      oldAt += change.value.length;
      newAt += change.value.length;
      continue;
    }
    // A changed hunk: the removed and added lines that stand together.
    let removed = "";
    let added = "";
    for (; i < changes.length && (changes[i]!.added || changes[i]!.removed); i++) {
      if (changes[i]!.removed) removed += changes[i]!.value;
      else added += changes[i]!.value;
    }
    i--;
    if (removed !== "" && added !== "") {
      let o = oldAt;
      let n = newAt;
      for (const part of diffChars(removed, added)) {
        if (!part.added && !part.removed) kept.push({ oldStart: o, newStart: n, length: part.value.length });
        if (!part.added) o += part.value.length;
        if (!part.removed) n += part.value.length;
      }
    }
    oldAt += removed.length;
    newAt += added.length;
  }
  return kept.filter((k) => k.length > 0);
}

function firstKeptAtOrAfter(
  kept: readonly Kept[],
  starts: readonly number[],
  offset: number,
): { old: number; new: number } | undefined {
  const i = countBelow(starts, offset + 1) - 1;
  const run = kept[i];
  if (run && offset < run.oldStart + run.length) return { old: offset, new: run.newStart + offset - run.oldStart };
  const next = kept[i + 1];
  return next ? { old: next.oldStart, new: next.newStart } : undefined;
}

function lastKeptBefore(
  kept: readonly Kept[],
  starts: readonly number[],
  end: number,
): { old: number; new: number } | undefined {
  const i = countBelow(starts, end) - 1;
  const run = kept[i];
  if (!run) return undefined;
  const last = Math.min(end - 1, run.oldStart + run.length - 1);
  return { old: last, new: run.newStart + last - run.oldStart };
}

/** Where an empty span (a point between characters) lands: after the last kept character before it. */
function insertionPoint(kept: readonly Kept[], starts: readonly number[], offset: number): number {
  const i = countBelow(starts, offset) - 1;
  const run = kept[i];
  if (!run) return 0;
  return run.newStart + Math.min(offset - run.oldStart, run.length);
}

/** How many sorted numbers are below a value. */
export function countBelow(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
