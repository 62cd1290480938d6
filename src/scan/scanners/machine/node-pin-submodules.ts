/**
 * The node as a git submodule: `.gitmodules` names its path and URL, and the
 * pin is the gitlink (mode 160000) in the index, read with
 * `git ls-files -s`. When no gitlink can be read (not a git work tree, the
 * submodule never added, git missing) the pin exists but cannot be seen:
 * the verdict is `unknown`, not `unpinned`, and the message says how to check it.
 */
import { runGitSync } from "../../../platform/git.js";
import { posix } from "node:path";
import { decideCommit } from "../../../knowledge/node-ref.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { isNodeRepositoryUrl } from "./node-source-url.js";

interface Submodule {
  path?: { value: string; start: number; end: number };
  url?: { value: string; start: number; end: number };
  /** Offset of the `[submodule "..."]` header. */
  start: number;
  end: number;
}

/** Reads the gitlink SHA of `path` in the repository at `repoDir`; undefined when there is none. */
export type GitlinkReader = (repoDir: string, path: string) => string | undefined;

export function submodulePins(
  text: string,
  file: string,
  root: string,
  readGitlink: GitlinkReader = gitlinkFromIndex,
): NodePinSite[] {
  const sites: NodePinSite[] = [];
  // `.gitmodules` sits at the top of its repository; paths in it are relative to that.
  const repoDir = posix.join(root.split("\\").join("/"), posix.dirname(file));
  for (const submodule of readGitmodules(text)) {
    if (!submodule.url || !isNodeRepositoryUrl(submodule.url.value)) continue;
    const where = submodule.path ?? submodule.url;
    const sha = submodule.path ? readGitlink(repoDir, submodule.path.value) : undefined;
    if (sha) sites.push({ decision: decideCommit(sha), format: "gitmodules", start: where.start, end: where.end });
    else {
      sites.push({
        decision: { ref: "", refKind: "none", verdict: "unknown" },
        format: "gitmodules",
        start: where.start,
        end: where.end,
        note: "no-gitlink",
      });
    }
  }
  return sites;
}

/** Sections of a git config file in the `.gitmodules` dialect, with value offsets. */
export function readGitmodules(text: string): Submodule[] {
  const out: Submodule[] = [];
  let current: Submodule | undefined;
  let offset = 0;
  for (const rawLine of text.split("\n")) {
    const line = rawLine.replace(/\r$/, "");
    const header = /^\s*\[\s*submodule\s+"([^"]*)"\s*\]/.exec(line);
    if (header) {
      current = { start: offset, end: offset + line.length };
      out.push(current);
    } else if (/^\s*\[/.test(line)) current = undefined;
    else if (current) {
      const setting = /^(\s*)(path|url)(\s*=\s*)("?)([^"#;\n]*?)\4\s*(?:[#;].*)?$/i.exec(line);
      if (setting) {
        const [, indent, key, equals, quote, value] = setting as unknown as [
          string,
          string,
          string,
          string,
          string,
          string,
        ];
        const start = offset + indent.length + key.length + equals.length + quote.length;
        current[key.toLowerCase() as "path" | "url"] = { value: value.trim(), start, end: start + value.trim().length };
      }
    }
    offset += rawLine.length + 1;
  }
  return out;
}

function gitlinkFromIndex(repoDir: string, path: string): string | undefined {
  const result = runGitSync(repoDir, ["ls-files", "-s", "--", path]);
  return result.code === 0 ? /^160000 ([0-9a-f]{40}) \d+\t/m.exec(result.stdout)?.[1] : undefined;
}
