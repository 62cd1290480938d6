/**
 * Node pins in plain install lists (`nodes.txt`, `install.list`, a
 * requirements line installing the node from git): one entry per line, the
 * node named by URL or by the `owner/repo@ref` shorthand. Only entries that
 * carry a commit, tag or version count: a bare mention in a text file is no pin.
 */
import { decideGitRef } from "../../../knowledge/node-ref.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { nodeSourceOf } from "./node-source-url.js";

export function listPins(text: string): NodePinSite[] {
  const sites: NodePinSite[] = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    if (!/^\s*#/.test(line)) {
      for (const word of line.matchAll(/[^\s"',;]+/g)) {
        const source = nodeSourceOf(word[0]);
        if (!source?.ref) continue;
        const decision = decideGitRef(source.ref.text);
        if (decision.refKind === "none") continue;
        const start = offset + word.index + source.ref.index;
        sites.push({ decision, format: "install-list", start, end: start + source.ref.text.length });
      }
    }
    offset += line.length + 1;
  }
  return sites;
}
