/**
 * The cheap first phase: literal byte needles that every V1 use contains.
 * Fragments other than the host matter: a template literal such as
 * `${BASE}/run?run_id=${id}` never spells out the host.
 */
import type { HostSet } from "../core/urls.js";
import { JS_SDK, V1_CLIENT_METHODS, V1_SDK_EXPORTS } from "../knowledge/migration.js";

/**
 * A byte string the prefilter looks for. `endsSegment`: only where the next
 * byte cannot continue a path segment (a letter, digit, `_` or `-`). Third-party
 * code is full of `/runtime`, `/run_command` and `/run-script`; the V1 endpoint
 * is `/run` followed by anything else: a quote, `?`, `/`, `$`, a space, the
 * line's end.
 */
export interface Needle {
  literal: string;
  endsSegment?: boolean;
}

const BASE_NEEDLES: readonly Needle[] = [
  { literal: "comfydeploy" }, // host, package name, image name
  { literal: "ComfyDeploy" }, // SDK class names
  // The node component; repository URLs are matched in any case, so the usual spellings are needles.
  ...["comfyui-deploy", "ComfyUI-Deploy", "ComfyUI-deploy", "Comfyui-deploy", "COMFYUI-DEPLOY"].map((literal) => ({
    literal,
  })),
  { literal: "run_id" },
  { literal: "deployment_id" },
  { literal: "/run", endsSegment: true },
  // The relative path as a call's or annotation's first argument, on a base set elsewhere: Retrofit's `@POST("run")`, Ktor's `post("run")`.
  { literal: '("run"' },
  { literal: "('run'" },
  { literal: "getRun" },
  { literal: "parseWebhookDataSafe" },
];

export function prefilterNeedles(hosts: HostSet): Needle[] {
  const needles = [...BASE_NEEDLES];
  for (const host of hosts.legacy) if (!host.includes("comfydeploy")) needles.push({ literal: host });
  return needles;
}

/** Bytes that continue a path segment, as a regex class: ASCII letters, digits, `_` and `-`. */
const SEGMENT_CONTINUES = "A-Za-z0-9_-";

/**
 * The needle as an extended regular expression that ripgrep (with
 * --no-unicode, so that any byte ends a word) and `grep -E` read alike.
 */
export function needlePattern(needle: Needle): string {
  const literal = needle.literal.replace(/[.^$*+?()[\]{}|\\]/g, "\\$&");
  return needle.endsSegment ? `${literal}([^${SEGMENT_CONTINUES}]|$)` : literal;
}

export class Prefilter {
  private readonly needles: Array<{ bytes: Buffer; endsSegment: boolean }>;

  constructor(needles: readonly Needle[]) {
    this.needles = needles.map((n) => ({ bytes: Buffer.from(n.literal, "utf8"), endsSegment: n.endsSegment === true }));
  }

  matches(content: Buffer): boolean {
    for (const { bytes, endsSegment } of this.needles) {
      if (endsSegment ? containsWord(content, bytes, { after: continuesSegment }) : content.indexOf(bytes) !== -1)
        return true;
    }
    return false;
  }
}

/** Git's own heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).indexOf(0) !== -1;
}

/** The V1 client's method names that say "V1" on their own: all but `run`, too common a word. */
export const DISTINCTIVE_METHOD_NAMES: readonly string[] = V1_CLIENT_METHODS.map((m) => m.v1).filter(
  (name) => name !== "run",
);

/**
 * The second, precise test a JS/TS candidate passes before the parser sees it.
 * Third-party code is full of `/run`, `run_id` and `deployment_id` for its own
 * reasons; a V1 use names the vendor (host, package, SDK names) or pairs the
 * `/run` path with V1's query or body key. Files that only import a client
 * module are found later by the importer follow-up, not here.
 */
export class JsSignals {
  /** Found anywhere: the package and class prefix, the legacy hosts. */
  private readonly strong: Buffer[];
  /** Found as whole words only: `getRun` must not match AWS SDK's `getRuntimeConfig`. */
  private readonly words: Buffer[];
  private readonly runPath = Buffer.from("/run");
  private readonly runKeys = [Buffer.from("run_id"), Buffer.from("deployment_id")];

  constructor(hosts: HostSet) {
    this.strong = [...new Set([JS_SDK.packageName, "ComfyDeploy", ...hosts.legacy])].map((n) => Buffer.from(n, "utf8"));
    this.words = [...new Set([...DISTINCTIVE_METHOD_NAMES, ...V1_SDK_EXPORTS.map((e) => e.v1)])].map((n) =>
      Buffer.from(n, "utf8"),
    );
  }

  /**
   * Whether a JS/TS file needs the parser. A declaration file (`.d.ts`) holds
   * no calls, so a V1 method name alone (AWS SDK's `getRun(params)`
   * declarations) does not make it one.
   */
  matches(content: Buffer, declarationFile = false): boolean {
    if (this.strong.some((needle) => content.indexOf(needle) !== -1)) return true;
    if (
      !declarationFile &&
      this.words.some((word) => containsWord(content, word, { before: continuesName, after: continuesName }))
    )
      return true;
    return this.mentionsV1Path(content);
  }

  /** `/run` as a path next to V1's query or body key: the V1 shape on a base the bytes do not name. */
  mentionsV1Path(content: Buffer): boolean {
    return (
      containsWord(content, this.runPath, { after: continuesSegment }) &&
      this.runKeys.some((key) => containsWord(content, key, { before: continuesName, after: continuesName }))
    );
  }
}

type ByteTest = (byte: number | undefined) => boolean;

/** Whether `word` occurs where neither the byte before nor the one after continues it (a missing test allows any byte). */
function containsWord(content: Buffer, word: Buffer, continues: { before?: ByteTest; after?: ByteTest }): boolean {
  for (let at = content.indexOf(word); at !== -1; at = content.indexOf(word, at + 1)) {
    if (continues.before?.(content[at - 1])) continue;
    if (continues.after?.(content[at + word.length])) continue;
    return true;
  }
  return false;
}

const isAlnumOr = (extra: string): ByteTest => {
  const extras = new Set([...extra].map((c) => c.charCodeAt(0)));
  return (byte) =>
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      extras.has(byte));
};
/** Bytes that continue a JS name. */
const continuesName = isAlnumOr("_$");
/** Bytes that continue a path segment: the same class as the pattern handed to rg. */
const segmentByte = new RegExp(`^[${SEGMENT_CONTINUES}]$`);
const continuesSegment: ByteTest = (byte) => byte !== undefined && segmentByte.test(String.fromCharCode(byte));
