/**
 * Minified and bundled JS: files no one edits by hand, often megabytes of
 * third-party code, whose sources (if in the tree at all) are scanned in their
 * own right. Parsing them costs more than the rest of a scan, so they get the
 * text-level rules only: the legacy host, `/run?run_id=` and SDK specifiers.
 *
 * Hand-written files often hold one long line too (an inline data URL, a
 * workflow's JSON): a long line counts only when it reads as code.
 */

/** A file this big is a bundle, whatever its lines look like. */
const BUNDLE_BYTES = 1024 * 1024;
/** Below this size a file parses in a moment, minified or not. */
const MIN_BYTES = 4 * 1024;
/** Hand-written code keeps its lines far shorter than this. */
const LONG_LINE_BYTES = 1000;
/** In minified code about one byte in ten is `;` or `(`; in base64, JSON or prose almost none are. */
const CODE_PUNCTUATION_SHARE = 0.02;
const MINIFIED_NAME = /\.min\.[cm]?js$/;

export function looksGenerated(file: string, content: Buffer): boolean {
  if (content.length >= BUNDLE_BYTES || MINIFIED_NAME.test(file)) return true;
  if (content.length < MIN_BYTES) return false;
  let minifiedBytes = 0;
  for (let start = 0; start < content.length; ) {
    const newline = content.indexOf(10, start);
    const end = newline === -1 ? content.length : newline;
    if (end - start > LONG_LINE_BYTES && readsAsCode(content, start, end)) minifiedBytes += end - start;
    start = end + 1;
  }
  // Most of the file is long lines of code: minified.
  return minifiedBytes > content.length / 2;
}

function readsAsCode(content: Buffer, start: number, end: number): boolean {
  let punctuation = 0;
  for (let i = start; i < end; i++) {
    const byte = content[i];
    if (byte === 0x3b || byte === 0x28) punctuation++;
  }
  return punctuation >= (end - start) * CODE_PUNCTUATION_SHARE;
}
