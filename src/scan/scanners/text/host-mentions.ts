/**
 * Legacy host mentions found only around the places a legacy host name
 * occurs. `findLegacyHostMentions` tries its optional scheme at every
 * offset, which is quadratic on one long word (a minified line, a hex
 * blob); a window around each occurrence keeps the generic scan linear.
 */
import { findLegacyHostMentions, type HostMention, type HostSet } from "../../../core/urls.js";

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
