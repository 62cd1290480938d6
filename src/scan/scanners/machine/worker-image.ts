/**
 * `worker-image`: the partner platform's prebuilt worker image
 * bennykok/comfydeploy-runpod-worker. Only tags from v2.2.10 on pin the node
 * at v2.1.0 (the worker's own v2.1.0 tag is unrelated and old). Reported, as
 * warnings for review: older tags, floating tags (latest, dev), no tag, tags
 * that are no release, and digests. A digest (`@sha256:...`) cannot be
 * matched to a release offline, so it is a review warning, not skipped.
 * Upstream worker images without the node are not this image and never match.
 *
 * Tagged mentions count in any text file; an untagged name only where it
 * selects an image (FROM, `image:`, `container:`, docker pull/run), not in prose or links.
 * A `repository:` key (Helm values, Terraform, JSON) takes the `tag` of its
 * own map, as Kustomize's `images:` entry (`name`/`newName`) takes its
 * `newTag`, and the finding goes on the tag, the value to change.
 */
import type { Finding } from "../../../core/finding.js";
import { NODE_COMPONENT, WORKER_IMAGE, WORKER_IMAGE_STATUS } from "../../../knowledge/migration.js";
import { isJsFile } from "../../../platform/file-types.js";
import { FindingSink } from "../../scanner-helpers.js";
import type { FileScanner } from "../../scanner.js";
import type { WorkerTagVerdict } from "../../../core/facts.js";

export type { WorkerTagVerdict };

export const workerImageScanner: FileScanner = {
  id: "worker-image",
  matches: (file) => !isJsFile(file),
  scan: ({ file, text }) => scanWorkerImages(file, text),
};

const IMAGE = WORKER_IMAGE.image;
const VARIABLE = String.raw`\$\{[^}\s]*\}|\$[A-Za-z_]\w*`;
/** The image, optionally through a Docker Hub registry name, then `:tag` and/or `@digest`. Not inside a URL path. */
const MENTION = new RegExp(
  String.raw`(?<![\w./-])(?:(?:docker\.io|index\.docker\.io|registry-1\.docker\.io)/)?` +
    IMAGE.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&") +
    String.raw`(?![\w./-])(?::(${VARIABLE}|[\w][\w.-]{0,127}))?(?:@(sha256:[0-9a-f]{64}|${VARIABLE}))?`,
  "gi",
);
/** Text before an untagged name that makes it an image selection. */
const SELECTS_IMAGE =
  /(^\s*FROM\s+(--platform=\S+\s+)?|\bimage\s*:\s*["']?|"image"\s*:\s*"|\bcontainer\s*:\s*["']?|\b(docker|podman)\s+(pull|run|create)\b.*\s)$/i;

/**
 * A key naming the image's repository, its tag kept apart: Helm's `image.repository`, a Terraform or TOML
 * `repository =`, Kustomize's `newName` (an `images:` entry retargeted to this image).
 */
const REPOSITORY_KEY = /(?:^|[\s{,])["']?(?:repository|repo|image_?name|imageName|newName)["']?\s*[:=]\s*["']?$/i;
/** Kustomize's `images:` entry names the image with `name:`; it counts only with a `newTag` beside it (what it sets). */
const NAME_KEY = /(?:^|[\s{,])["']?name["']?\s*:\s*["']?$/;
const TAG_KEY = /^([\s-]*)["']?(?:tag|image_?tag|imageTag|newTag)["']?\s*[:=][ \t]*["']?([^"'\s,}#]*)/i;

/**
 * The `tag` beside a repository key, in the same map: on the same line
 * (`{ repository: …, tag: … }`) or on a line of the same indentation in the
 * block around it. Undefined when the map has no tag (the image floats);
 * an empty value when the tag is written empty (Helm then uses the chart's appVersion).
 */
function siblingTag(text: string, lineStart: number, after: number): { value: string; start: number } | undefined {
  const lineEnd = text.indexOf("\n", after) < 0 ? text.length : text.indexOf("\n", after);
  const rest = text.slice(after, lineEnd);
  const inline = /[,{]\s*["']?(?:tag|newTag)["']?\s*[:=]\s*["']?([^"'\s,}#]*)/i.exec(rest);
  if (inline) return { value: inline[1]!, start: after + inline.index + inline[0].length - inline[1]!.length };
  const lines = text.split("\n");
  const here = text.slice(0, lineStart).split("\n").length - 1;
  const own = keyIndent(lines[here]!);
  const offsetOf = (index: number): number => lines.slice(0, index).reduce((sum, l) => sum + l.length + 1, 0);
  const tagOn = (i: number): { value: string; start: number } | undefined => {
    const key = TAG_KEY.exec(lines[i]!);
    return key ? { value: key[2]!, start: offsetOf(i) + key[0].length - key[2]!.length } : undefined;
  };
  // Forward to the end of the map (a shallower line or the next list item), then back to its start.
  for (let i = here + 1; i < lines.length; i++) {
    if (isBlank(lines[i]!) || keyIndent(lines[i]!) > own) continue;
    if (keyIndent(lines[i]!) < own || startsItem(lines[i]!)) break;
    const tag = tagOn(i);
    if (tag) return tag;
  }
  if (startsItem(lines[here]!)) return undefined;
  for (let i = here - 1; i >= 0; i--) {
    if (isBlank(lines[i]!) || keyIndent(lines[i]!) > own) continue;
    if (keyIndent(lines[i]!) < own) break;
    const tag = tagOn(i);
    if (tag || startsItem(lines[i]!)) return tag;
  }
  return undefined;
}

/** Where a line's key starts; a YAML list item's `- ` counts as indentation. */
function keyIndent(line: string): number {
  return /^[\s-]*/.exec(line)![0].length;
}

function startsItem(line: string): boolean {
  return /^\s*- /.test(line);
}

function isBlank(line: string): boolean {
  return /^\s*(#.*)?$/.test(line);
}

export function scanWorkerImages(file: string, text: string): Finding[] {
  if (!text.toLowerCase().includes(IMAGE)) return [];
  const sink = new FindingSink(file, text);
  for (const match of text.matchAll(MENTION)) {
    let start = match.index;
    let end = start + match[0].length;
    const writtenTag = match[1];
    const digest = match[2];
    let tag = writtenTag ? resolveTag(writtenTag, text) : undefined;
    if (tag === undefined && digest === undefined) {
      const lineStart = text.lastIndexOf("\n", start - 1) + 1;
      const before = text.slice(lineStart, start);
      const named = !REPOSITORY_KEY.test(before) && NAME_KEY.test(before);
      const sibling = REPOSITORY_KEY.test(before) || named ? siblingTag(text, lineStart, end) : undefined;
      if (named && sibling === undefined) continue;
      // Helm and Terraform split the image: `repository:` with its `tag:` beside it, where the tag is what to change.
      if (sibling?.value) {
        tag = resolveTag(sibling.value, text);
        start = sibling.start;
        end = sibling.start + sibling.value.length;
      } else if (sibling) continue;
      else if (!SELECTS_IMAGE.test(before) && !REPOSITORY_KEY.test(before)) continue;
    }
    const verdict = decideWorkerTag(tag, digest);
    if (verdict === "ok") continue;
    const facts = {
      kind: "worker-image",
      image: IMAGE,
      tag: tag ?? "",
      verdict,
      ...(digest ? { digest } : {}),
    } as const;
    sink.atOffset(start, end, {
      ruleId: "worker-image",
      message: workerImageMessage(verdict, tag ?? "", digest),
      facts,
    });
  }
  return sink.findings;
}

/** Compares release tags as versions after dropping the `v`; a tag wins over a digest. */
export function decideWorkerTag(tag: string | undefined, digest?: string): WorkerTagVerdict {
  if (tag === undefined || tag === "") return digest ? "digest" : "untagged";
  if ((WORKER_IMAGE.floatingTags as readonly string[]).includes(tag.toLowerCase())) return "floating";
  const version = versionCore(tag);
  const ready = versionCore(WORKER_IMAGE.firstReadyTag)!;
  if (!version) return "unknown";
  return compareCores(version, ready) >= 0 ? "ok" : "outdated";
}

function workerImageMessage(verdict: WorkerTagVerdict, tag: string, digest: string | undefined): string {
  const ready = `${IMAGE}:${WORKER_IMAGE.firstReadyTag}`;
  const node = `${NODE_COMPONENT.repository} v${NODE_COMPONENT.minimumVersion}`;
  const rebuild = `or rebuild your own image with ${node} (${NODE_COMPONENT.minimumCommit}) or newer`;
  const maintenance = WORKER_IMAGE_STATUS.activelyMaintained ? "" : " The prebuilt image is not actively maintained.";
  switch (verdict) {
    case "outdated": {
      const unrelated = versionCore(tag)?.join(".") === NODE_COMPONENT.minimumVersion ? ` ${WORKER_IMAGE.note}` : "";
      return `${IMAGE}:${tag} predates ${WORKER_IMAGE.firstReadyTag}, the first worker release with ${node}.${unrelated} Use ${ready} or newer, ${rebuild}.${maintenance}`;
    }
    case "floating":
      return `${IMAGE}:${tag} moves with every push, so the node version is not fixed: pin ${ready} or newer, ${rebuild}.${maintenance}`;
    case "untagged":
      return `${IMAGE} without a tag means :latest, which moves: pin ${ready} or newer, ${rebuild}.${maintenance}`;
    case "digest":
      return `${IMAGE}@${(digest ?? "").slice(0, 19)}… is pinned by digest, which cannot be matched to a release here: check it was built from ${WORKER_IMAGE.firstReadyTag} or later, or pin ${ready}.${maintenance}`;
    case "unknown":
      if (tag.startsWith("$")) {
        return `${IMAGE}:${tag} takes its tag from a variable this file does not set: make sure it is ${WORKER_IMAGE.firstReadyTag} or newer.${maintenance}`;
      }
      return `${IMAGE}:${tag} is not a release tag: make sure the image contains ${node} or newer, e.g. pin ${ready}.${maintenance}`;
    case "ok":
      return `${IMAGE}:${tag} contains ${node} or newer.`;
  }
}

/** `${TAG:-v2.2.10}` takes its default; `$TAG` takes a value the same file sets (ARG, ENV, `TAG=`, `TAG:`). */
function resolveTag(tag: string, text: string): string {
  const variable = /^\$\{?([A-Za-z_]\w*)(?::?-([^}]*))?\}?$/.exec(tag);
  if (!variable) return tag;
  const [, name, fallback] = variable;
  const assigned = new RegExp(
    String.raw`^\s*(?:ARG\s+|ENV\s+|export\s+|-\s+)?${name}\s*[=:]\s*["']?([\w][\w.-]*)`,
    "m",
  ).exec(text)?.[1];
  return assigned ?? fallback ?? tag;
}

function versionCore(tag: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+.].*)?$/i.exec(tag);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compareCores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
