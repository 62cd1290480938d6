/**
 * URL classification shared by every scanner: is this the V1 API, and which
 * V1 endpoint does it name? Text may contain HOLE characters standing for
 * parts whose value is not known statically (an env var, a parameter).
 */
import { ENDPOINTS, HOSTS } from "../knowledge/migration.js";

export const HOLE = "\u0000";

export interface HostSet {
  /** Hosts that serve the V1 API (the vendor's plus any configured ones), lower case. */
  legacy: readonly string[];
  /** Hosts that serve V2, lower case. */
  current: readonly string[];
  /** Hosts the user told us to ignore, lower case. */
  ignored: readonly string[];
}

export const DEFAULT_HOSTS: HostSet = {
  legacy: [HOSTS.v1.host],
  current: [HOSTS.v2.host, HOSTS.v2Staging.host],
  ignored: [],
};

export type V1Endpoint = "create-run" | "get-run" | "run-ambiguous";

export interface UrlInfo {
  /** legacy: a V1 host; current: a V2 host; other: some other absolute host; relative: a path; unknown: the host is not known. */
  hostKind: "legacy" | "current" | "other" | "ignored" | "relative" | "unknown";
  host?: string;
  /** Path below the `/api` segment, when the URL is under it. */
  apiPath?: string | undefined;
  /**
   * True when the URL is a bare host (the V1 SDK appends /api itself), or a
   * match pattern covering every path on it (`https://host/*` in a browser
   * extension's `host_permissions`).
   */
  bareHost: boolean;
  queryKeys: Set<string>;
}

const URL_PATTERN = /^(?:([a-z][a-z0-9+.-]*):)?\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i;

export function parseUrlText(text: string, hosts: HostSet): UrlInfo {
  const queryKeys = new Set<string>();
  let candidate = text.trim();
  // Scheme-less form of a known host ("www.comfydeploy.com/api").
  if (!candidate.startsWith("/") && !/^[a-z][a-z0-9+.-]*:/i.test(candidate)) {
    const lower = candidate.toLowerCase();
    if ([...hosts.legacy, ...hosts.current].some((h) => lower.startsWith(h))) candidate = `//${candidate}`;
  }
  const match = URL_PATTERN.exec(candidate);
  if (!match) {
    const [path = "", query] = splitQuery(candidate);
    collectQueryKeys(query, queryKeys);
    const hostKind = candidate.startsWith(HOLE) || candidate === "" ? "unknown" : "relative";
    return { hostKind, apiPath: apiPathOf(path), bareHost: false, queryKeys };
  }
  const host = match[2]!.toLowerCase();
  const path = match[3] ?? "";
  collectQueryKeys(match[4], queryKeys);
  let hostKind: UrlInfo["hostKind"];
  if (host.includes(HOLE) || host === "") hostKind = "unknown";
  else if (hosts.ignored.includes(host)) hostKind = "ignored";
  else if (hosts.legacy.includes(host)) hostKind = "legacy";
  else if (hosts.current.includes(host)) hostKind = "current";
  else hostKind = "other";
  return {
    hostKind,
    host,
    apiPath: apiPathOf(path),
    bareHost: path === "" || path === "/" || path === "/*",
    queryKeys,
  };
}

function splitQuery(text: string): [string, string | undefined] {
  const q = text.indexOf("?");
  return q < 0 ? [text, undefined] : [text.slice(0, q), text.slice(q)];
}

function apiPathOf(path: string): string | undefined {
  const match = /^\/api(\/[^?#]*)?$/.exec(path);
  if (!match) return undefined;
  return match[1] ?? "";
}

function collectQueryKeys(query: string | undefined, into: Set<string>): void {
  if (!query) return;
  for (const m of query.matchAll(/(?:^\?|&|\?)([^=&?#\u0000]+)=/g)) into.add(decodeURIComponentSafe(m[1]!));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Which V1 endpoint a path below /api names. `/run` exactly is V1; `/run/<x>`
 * is a V2 shape. A hole right after `/run` could be either a query or more path.
 */
export function v1EndpointOf(info: UrlInfo, method: string | undefined): V1Endpoint | undefined {
  const path = info.apiPath;
  if (path === undefined) return undefined;
  const runPath = ENDPOINTS.createRun.v1.path;
  const exact = path === runPath || path === `${runPath}/`;
  const ambiguous = path.startsWith(`${runPath}${HOLE}`);
  if (!exact && !ambiguous) return undefined;
  if (info.queryKeys.has(ENDPOINTS.getRun.v1.query)) return "get-run";
  if (method === "POST") return "create-run";
  if (method === "GET") return "get-run";
  return "run-ambiguous";
}

/**
 * Whether a V1 endpoint on this URL's host is the vendor's V1 API. The
 * endpoint table is about paths, not hosts: `POST /api/run` and
 * `GET /api/run?run_id=` on the V2 host are still V1 calls (an app on the V1
 * SDK with `apiBase` set to the V2 host sends exactly these). On the V2 host
 * only the exact path counts: `/run/` and `/run` + a hole are prefixes of the
 * V2 paths (`/run/{run_id}`).
 */
export function isVendorHost(info: UrlInfo): boolean {
  return info.hostKind === "legacy" || (info.hostKind === "current" && info.apiPath === ENDPOINTS.createRun.v1.path);
}

export type V1Signature = "create-run" | "get-run";

/**
 * The V1 endpoint a URL names by its path, query and body alone, on a base
 * the scanner cannot resolve (a parameter, an env read, a package's export):
 * `{base}/run` (or `{base}/api/run`) with a `run_id` query is V1's status
 * call; a POST there whose body carries `deployment_id` creates a run.
 * Paths with more segments (RunPod's `{base}/{id}/run`, a node's
 * `/comfyui-deploy/run`) are not the signature.
 */
export function v1SignatureOnUnknownBase(
  text: string,
  method: string | undefined,
  bodyKeys: ReadonlySet<string>,
): V1Signature | undefined {
  if (!text.startsWith(HOLE)) return undefined;
  const [rawPath = "", query] = splitQuery(text.replace(/^\u0000+/, ""));
  const path = rawPath.replace(/\/+$/, "");
  if (path !== ENDPOINTS.createRun.v1.path && path !== `/api${ENDPOINTS.createRun.v1.path}`) return undefined;
  const queryKeys = new Set<string>();
  collectQueryKeys(query, queryKeys);
  if (queryKeys.has(ENDPOINTS.getRun.v1.query)) return method === undefined || method === "GET" ? "get-run" : undefined;
  if (method === "POST" && bodyKeys.has("deployment_id")) return "create-run";
  return undefined;
}

/**
 * The V1 get-run shape (`/api/run?run_id=`) on a host that is neither the
 * vendor's nor the app's own: possibly a white-label deployment, so it is
 * reported for review and never rewritten.
 */
export function isOtherHostV1Shape(info: UrlInfo): boolean {
  return (
    info.hostKind === "other" &&
    info.queryKeys.has(ENDPOINTS.getRun.v1.query) &&
    v1EndpointOf(info, "GET") === "get-run"
  );
}

export interface HostMention {
  start: number;
  end: number;
  url: string;
  /** api: a URL under /api; bare: just the host; page: a web page on the host (not the API). */
  kind: "api" | "bare" | "page";
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const hostPatterns = new WeakMap<HostSet, RegExp>();

/**
 * A regex matching any mention of a legacy host, with its path, in free text.
 * Compiled once per host set: it is asked for once per scanned file. Global,
 * so use it with `matchAll` (which copies it), not `exec` loops.
 */
export function legacyHostPattern(hosts: HostSet): RegExp {
  let pattern = hostPatterns.get(hosts);
  if (!pattern) {
    pattern = compileLegacyHostPattern(hosts);
    hostPatterns.set(hosts, pattern);
  }
  return pattern;
}

function compileLegacyHostPattern(hosts: HostSet): RegExp {
  const alternatives = hosts.legacy.map(escapeRegExp).join("|");
  return new RegExp(
    // The scheme is bounded: an unbounded one is retried at every offset of a long word (quadratic time).
    `(?:[a-z][a-z0-9+.-]{0,30}:)?(?:\\/\\/)?(?<![\\w.-])(?:${alternatives})(?![\\w-]|\\.[\\w])[^\\s"'\`<>)\\]}|\\\\,;]*`,
    "gi",
  );
}

const currentAsLegacy = new WeakMap<HostSet, HostSet>();

/** The host set with the V2 hosts in the legacy slot, to find their mentions with the legacy host search (compiled once per set). */
export function currentHostsAsLegacy(hosts: HostSet): HostSet {
  let found = currentAsLegacy.get(hosts);
  if (!found) {
    found = { ...hosts, legacy: hosts.current };
    currentAsLegacy.set(hosts, found);
  }
  return found;
}

/** Every mention of a legacy host in a text, classified. */
export function findLegacyHostMentions(text: string, hosts: HostSet): HostMention[] {
  const mentions: HostMention[] = [];
  for (const m of text.matchAll(legacyHostPattern(hosts))) {
    const url = m[0].replace(/[.:]+$/, "");
    const info = parseUrlText(url, hosts);
    const kind = info.apiPath !== undefined ? "api" : info.bareHost ? "bare" : "page";
    mentions.push({ start: m.index!, end: m.index! + url.length, url, kind });
  }
  return mentions;
}
