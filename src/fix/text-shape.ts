/**
 * A file's bytes as the transforms see them, and back. Transforms get LF text
 * without a BOM; what they return is spliced into the file as it was: every
 * character they kept is copied from the original (its own line ending
 * included), and only what they wrote gets the file's dominant line ending.
 * So a file with mixed endings, a BOM or stray carriage returns changes
 * nowhere but in the rewritten ranges. A file that is not valid UTF-8 has no
 * faithful text form at all, and is refused before any of this.
 */
import { countBelow, keptRuns } from "./relocate.js";

export interface TextShape {
  bom: boolean;
  crlf: boolean;
  /** The file without its BOM, exactly as read. */
  body: string;
  /** The text the transforms were given (`body` with CRLF turned into LF when `crlf`). */
  text: string;
}

/** Transforms see LF text without a BOM; restore() puts the file's own shape back. */
export function normalize(raw: string): { text: string; shape: TextShape } {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const body = bom ? raw.slice(1) : raw;
  const crlfCount = (body.match(/\r\n/g) ?? []).length;
  const lfCount = (body.match(/\n/g) ?? []).length;
  const crlf = crlfCount > 0 && crlfCount >= lfCount - crlfCount;
  const text = crlf ? body.replace(/\r\n/g, "\n") : body;
  return { text, shape: { bom, crlf, body, text } };
}

/** The file's bytes for `current`, a transform's output for `shape.text`. */
export function restore(current: string, shape: TextShape): string {
  const body = shape.crlf ? splice(shape, current) : current;
  return shape.bom ? `\ufeff${body}` : body;
}

/** Kept characters from the original body (with their CRLF), written ones with CRLF endings. */
function splice(shape: TextShape, current: string): string {
  if (current === shape.text) return shape.body;
  const toBody = lfToBody(shape.body);
  const written = (part: string): string => part.replace(/\n/g, "\r\n");
  let out = "";
  let at = 0;
  for (const run of keptRuns(shape.text, current)) {
    if (run.newStart > at) out += written(current.slice(at, run.newStart));
    out += shape.body.slice(toBody(run.oldStart), toBody(run.oldStart + run.length));
    at = run.newStart + run.length;
  }
  return out + written(current.slice(at));
}

/**
 * Offsets of the LF text mapped onto the CRLF body. An offset at a newline
 * maps onto its carriage return, so a kept run never splits a CRLF.
 */
function lfToBody(body: string): (offset: number) => number {
  const newlines: number[] = []; // LF-text offsets of the newlines that had a carriage return
  for (let i = body.indexOf("\r\n"); i >= 0; i = body.indexOf("\r\n", i + 2)) newlines.push(i - newlines.length);
  return (offset) => offset + countBelow(newlines, offset);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The file's text, or the 1-based line of its first byte that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { badLine: number } {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { badLine: firstBadLine(bytes) };
  }
}

function firstBadLine(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strictUtf8.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line++;
    start = i + 1;
  }
  return line - 1;
}
