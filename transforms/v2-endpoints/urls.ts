/**
 * The V1 -> V2 endpoint rewrites on URL text, shared by the JS/TS codemod and
 * the text fixers: swapping the vendor's V1 host for the V2 host, finding the
 * V1 `/run` path, and moving a `run_id` query value into the path. Pure string
 * functions: callers decide where the text comes from and where edits go.
 */
import { ENDPOINTS, HOSTS, V1_ONLY_CREATE_FIELDS } from "../../src/knowledge/migration.js";
import { findLegacyHostMentions, type HostSet, parseUrlText } from "../../src/core/urls.js";
import { findRunIdParam, findRunSegment } from "../../src/core/run-path.js";

/** What `{base}/run` gains for the V2 create endpoint (`/run` -> `/run/deployment/queue`). */
export const QUEUE_SUFFIX: string = ENDPOINTS.createRun.v2.path.slice(ENDPOINTS.createRun.v1.path.length);

/** A replacement of text[start, end) by `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * True when every host configured as legacy is the vendor's. A base URL the
 * scan calls legacy but that this transform cannot see (another module, a
 * client instance) is then provably the vendor's.
 */
export function onlyVendorLegacyHosts(hosts: HostSet): boolean {
  return hosts.legacy.every((host) => host === HOSTS.v1.host);
}

/** The host a URL mention names, lower case. */
export function hostOfMention(url: string, hosts: HostSet): string | undefined {
  return parseUrlText(url, hosts).host;
}

export interface HostRewrites {
  /** Replacements of the vendor's V1 host by the V2 host. */
  edits: TextEdit[];
  /** Legacy hosts that are not the vendor's: never rewritten to the vendor's V2 host. */
  otherHosts: string[];
}

/**
 * The legacy hosts in a string value that are API bases: URLs under `/api`,
 * and a bare host when it is the whole value (the V1 SDK appended `/api` to
 * it). Web pages on the vendor's site (`/docs`, `/api-keys`) are left alone.
 */
export function hostRewrites(value: string, hosts: HostSet): HostRewrites {
  const out: HostRewrites = { edits: [], otherHosts: [] };
  for (const mention of findLegacyHostMentions(value, hosts)) {
    const isBase = mention.kind === "api" || (mention.kind === "bare" && value.trim() === mention.url);
    if (!isBase) continue;
    const edit = hostEditIn(mention.url, hosts);
    if (edit === undefined) continue;
    if ("other" in edit) out.otherHosts.push(edit.other);
    else out.edits.push({ start: mention.start + edit.start, end: mention.start + edit.end, text: edit.text });
  }
  return out;
}

/** The edit turning the V1 host of one URL mention into the V2 host (offsets within the mention). */
export function hostEditIn(url: string, hosts: HostSet): TextEdit | { other: string } | undefined {
  const host = hostOfMention(url, hosts);
  if (host === undefined || !hosts.legacy.includes(host)) return undefined;
  if (host !== HOSTS.v1.host) return { other: host };
  const start = url.toLowerCase().indexOf(host);
  return start < 0 ? undefined : { start, end: start + host.length, text: HOSTS.v2.host };
}

/** Applies non-overlapping edits to a text (any order). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/**
 * `{base}/run?run_id=<v>&x=1#f` -> `{base}/run/<v>?x=1#f` on whole URL text
 * (placeholders such as `{id}` or `$RUN_ID` are plain text here). Undefined
 * when there is no run_id value in the text, or when moving the other
 * parameters behind the value would reorder positional placeholders.
 */
export function moveRunIdIntoPath(url: string): string | undefined {
  const path = findRunSegment(url);
  if (!path || path.queryStart === undefined) return undefined;
  const query = findRunIdParam(url, path.queryStart);
  if (!query || query.valueEnd === query.valueStart) return undefined;
  if (query.before !== "" && POSITIONAL_PLACEHOLDER.test(query.before)) return undefined;
  const value = url.slice(query.valueStart, query.valueEnd);
  const rest = query.before !== "" ? `?${query.before}${query.after}` : query.after.replace(/^&/, "?");
  const pathEnd = path.trailingSlash ? path.end + 1 : path.end;
  return `${url.slice(0, pathEnd)}${path.trailingSlash ? "" : "/"}${value}${rest}${url.slice(query.valueEnd + query.after.length)}`;
}

/** Placeholders filled by position (`%s`, `{}`, `?`): moving them would swap the arguments they take. */
const POSITIONAL_PLACEHOLDER = /%[-#0 +]*\d*(?:\.\d+)?[sdvqif]|\{\d*\}|=\?(?:&|$)/;

/** The V1-only create fields among some body keys, in catalog order. */
export function v1OnlyFields(keys: Iterable<string>): string[] {
  const present = new Set(keys);
  return V1_ONLY_CREATE_FIELDS.filter((field) => present.has(field));
}
