/**
 * Minified and bundled JS: files no one edits by hand, often megabytes of
 * third-party code, whose sources (if in the tree at all) are scanned in their
 * own right. Parsing them costs more than the rest of a scan, so they get the
 * text-level rules only: the legacy host, `/run?run_id=` and SDK specifiers.
 */

/** A file this big is a bundle, whatever its lines look like. */
const BUNDLE_BYTES = 1024 * 1024;
/** Below this size a file parses in a moment, minified or not. */
const MIN_BYTES = 4 * 1024;
/** Hand-written code averages well under 80 bytes a line; minified code runs to thousands. */
const MINIFIED_LINE_BYTES = 300;
/** How far into a file a bundler's wrapper is looked for. */
const HEAD_BYTES = 4 * 1024;
/** Wrappers that UMD and webpack builds put at the top of their output. */
const BUNDLE_MARKERS = ["define.amd", "__webpack_require__", "webpackBootstrap"].map((m) => Buffer.from(m));

export function looksGenerated(content: Buffer): boolean {
  if (content.length >= BUNDLE_BYTES) return true;
  if (content.length < MIN_BYTES) return false;
  const head = content.subarray(0, HEAD_BYTES);
  if (BUNDLE_MARKERS.some((marker) => head.indexOf(marker) !== -1)) return true;
  let lines = 1;
  for (let at = content.indexOf(10); at !== -1; at = content.indexOf(10, at + 1)) lines++;
  return content.length / lines > MINIFIED_LINE_BYTES;
}
