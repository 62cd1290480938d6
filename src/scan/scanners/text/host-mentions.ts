/**
 * Legacy host mentions found only around the places a legacy host name
 * occurs. `findLegacyHostMentions` tries its optional scheme at every
 * offset, which is quadratic on one long word (a minified line, a hex
 * blob); a window around each occurrence keeps the generic scan linear.
 */
import { ENDPOINTS } from "../../../knowledge/migration.js";
import {
  currentHostsAsLegacy,
  findLegacyHostMentions,
  type HostMention,
  type HostSet,
  isVendorHost,
  parseUrlText,
  v1EndpointOf,
} from "../../../core/urls.js";

/** Characters before a host that a scheme may take (`https://`, `git+https://`). */
const SCHEME_REACH = 64;
/** Characters after a host that its path may take. */
const PATH_REACH = 4096;

export function legacyHostMentionsIn(text: string, hosts: HostSet): HostMention[] {
  const lower = text.toLowerCase();
  const found = new Map<number, HostMention>();
  for (const host of hosts.legacy) {
    for (let at = lower.indexOf(host); at >= 0; at = lower.indexOf(host, at + host.length)) {
      // A mention never spans lines, so the window stops at line ends.
      let from = at;
      while (from > 0 && at - from < SCHEME_REACH && text[from - 1] !== "\n") from--;
      const to = urlEnd(text, at + host.length);
      for (const mention of findLegacyHostMentions(text.slice(from, to), hosts)) {
        const start = mention.start + from;
        const end = mention.end + from;
        if (start <= at && at < end && !found.has(start)) found.set(start, { ...mention, start, end });
      }
    }
  }
  return [...found.values()].sort((a, b) => a.start - b.start);
}

/** Characters that end a URL in free text (as in `legacyHostPattern`). */
const URL_STOP = /[\s"'`<>)\]}|\\,;]/g;

function urlEnd(text: string, from: number): number {
  URL_STOP.lastIndex = from;
  const stop = URL_STOP.exec(text.slice(0, from + PATH_REACH));
  return stop ? stop.index : Math.min(text.length, from + PATH_REACH);
}

/**
 * URLs naming a V1 endpoint on the V2 host (`POST https://api.comfydeploy.com/api/run`,
 * `GET …/api/run?run_id=`): V1 uses too. The host alone and the V2 paths are not.
 */
export function v1PathsOnCurrentHost(
  text: string,
  hosts: HostSet,
): Array<{ start: number; end: number; hasRunId: boolean }> {
  const out: Array<{ start: number; end: number; hasRunId: boolean }> = [];
  for (const mention of legacyHostMentionsIn(text, currentHostsAsLegacy(hosts))) {
    if (mention.kind !== "api") continue;
    const info = parseUrlText(mention.url, hosts);
    if (isVendorHost(info) && v1EndpointOf(info, undefined) !== undefined) {
      out.push({ start: mention.start, end: mention.end, hasRunId: info.queryKeys.has(ENDPOINTS.getRun.v1.query) });
    }
  }
  return out;
}
