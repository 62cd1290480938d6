/**
 * bun.lockb, bun's older binary lockfile. There is no parser for it here, so
 * the SDK is recognised by its bytes: the registry tarball name
 * (`/comfydeploy/-/comfydeploy-0.0.19.tgz`) or the package name followed
 * closely by a version. A name without a readable version is left for review.
 */
import { posix } from "node:path";
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { type LockContext, reportLockedSdk, siblingManifestDeclarations } from "./lockfile.js";

export const bunLockbScanner: FileScanner = {
  id: "npm-bun-lockb",
  matches: (file) => posix.basename(file) === "bun.lockb",
  readsBinary: true,
  scan: scanBunLockb,
};

const NAME = JS_SDK.packageName;
const VERSION = String.raw`\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?`;

/** Registry tarball of the unscoped package (`@scope/comfydeploy` has `/@scope/` before it). */
const TARBALL = new RegExp(String.raw`(?<!/@[^/\s]+)/${NAME}/-/${NAME}-(${VERSION})\.tgz`, "g");
/** The name as a whole word, then a few separator bytes (NULs, `@`, lengths) and a version. */
const NAME_THEN_VERSION = new RegExp(String.raw`(?<![\w@/.-])${NAME}(?![\w-])[^0-9A-Za-z]{1,16}?(${VERSION})`, "g");
/** The bare name; names like `comfydeploy-utils` or `@acme/comfydeploy` are other packages. */
const NAME_ONLY = new RegExp(`(?<![@/.-])${NAME}(?![-_.])`);

const UNREADABLE_VERSION =
  "has a version that could not be read from the binary file, so its SDK generation cannot be told";

const TEXT_LOCKFILE_ADVICE =
  "bun.lockb is binary and cannot be reviewed: prefer `bun install --save-text-lockfile`, " +
  "which writes the text bun.lock (newer bun's default), then delete bun.lockb";

export function scanBunLockb(input: FileScanInput): Finding[] {
  // Offsets are byte offsets: latin1 maps each byte to one character.
  const text = input.bytes.toString("latin1");
  const sink = new FindingSink(input.file, text);
  const context: LockContext = {
    sink,
    manager: "bun",
    declarations: siblingManifestDeclarations(input.file, input.repo),
    requirers: [],
  };
  // The first place each version shows up.
  const seen = new Map<string, { start: number; end: number }>();
  for (const pattern of [TARBALL, NAME_THEN_VERSION]) {
    for (const match of text.matchAll(pattern)) {
      const version = match[1]!;
      if (!seen.has(version)) seen.set(version, { start: match.index, end: match.index + match[0].length });
    }
  }
  for (const [version, span] of [...seen].sort((a, b) => a[1].start - b[1].start)) {
    reportLockedSdk(context, {
      span,
      version,
      field: "binary",
      key: `${NAME}@${version}`,
      excerpt: `${NAME}@${version} (binary lockfile)`,
      note: TEXT_LOCKFILE_ADVICE,
    });
  }
  if (seen.size === 0) {
    const named = NAME_ONLY.exec(text);
    if (named) {
      reportLockedSdk(context, {
        span: { start: named.index, end: named.index + NAME.length },
        version: "",
        judgement: { verdict: "review", reason: UNREADABLE_VERSION },
        field: "binary",
        key: NAME,
        excerpt: `${NAME} (binary lockfile, version not found)`,
        note: TEXT_LOCKFILE_ADVICE,
      });
    }
  }
  return sink.findings;
}
