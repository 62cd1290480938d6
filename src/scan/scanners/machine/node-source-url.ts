/**
 * Recognising the node's repository in URLs: clone URLs (https, ssh, git@,
 * with or without `.git`, any case), archive downloads (github.com archive,
 * codeload, API tarballs), git URLs carrying a ref (`.git#<ref>` for
 * Docker ADD, `.git@<ref>` for pip) and the `owner/repo@ref` shorthand, and
 * where in the text the ref sits.
 */
import { NODE_COMPONENT } from "../../../knowledge/migration.js";

export type NodeSource =
  /** A repository URL; `ref` when the URL carries one (`#ref`, `@ref`). */
  | { kind: "repository"; ref?: UrlRef }
  /** A download of one ref's tree. */
  | { kind: "archive"; ref: UrlRef };

export interface UrlRef {
  text: string;
  /** Offset of the ref inside the URL text. */
  index: number;
}

const [OWNER, NAME] = NODE_COMPONENT.repository.split("/") as [string, string];
const REPO = `${escapeRegExp(OWNER)}\\/${escapeRegExp(NAME)}`;

/** `github.com/Owner/name` after any scheme or `git@`; the rest of the URL is captured. */
const REPOSITORY_URL = new RegExp(
  `^(?:git\\+)?(?:(?:https?|git|ssh)://)?(?:[^@/\\s]+@)?(?:www\\.)?github\\.com[/:]${REPO}(?:\\.git)?(?=$|[/#@?])(.*)$`,
  "i",
);
const ARCHIVE_PATH = /^\/archive\/((?:refs\/(?:tags|heads)\/)?[^?#]+?)\.(?:tar\.gz|tgz|zip)(?:[?#].*)?$/i;
const CODELOAD_URL = new RegExp(
  `^(?:https?://)?codeload\\.github\\.com/${REPO}/(?:legacy\\.)?(?:tar\\.gz|zip)/([^?#\\s]+)`,
  "i",
);
const API_TARBALL_URL = new RegExp(
  `^(?:https?://)?api\\.github\\.com/repos/${REPO}/(?:tarball|zipball)/([^?#\\s]+)`,
  "i",
);

/** `owner/repo@ref`, the shorthand of comfy-cli and install lists (`bennykok/comfyui-deploy@7e640a0`). */
const SHORTHAND = new RegExp(`^${REPO}(?:\\.git)?@([^\\s@/:#?]+)$`, "i");

/** What a URL-looking text says about the node, or undefined when it is not the node's repository. */
export function nodeSourceOf(url: string): NodeSource | undefined {
  const text = url.trim();
  const offset = url.indexOf(text);
  const at = (ref: string, from: number): UrlRef => ({ text: ref, index: offset + from });
  const shorthand = SHORTHAND.exec(text);
  if (shorthand?.[1]) return { kind: "repository", ref: at(shorthand[1], text.length - shorthand[1].length) };
  for (const pattern of [CODELOAD_URL, API_TARBALL_URL]) {
    const match = pattern.exec(text);
    if (match?.[1]) return { kind: "archive", ref: at(match[1], match[0].length - match[1].length) };
  }
  const match = REPOSITORY_URL.exec(text);
  if (!match) return undefined;
  const rest = match[1] ?? "";
  const restStart = text.length - rest.length;
  const archive = ARCHIVE_PATH.exec(rest);
  if (archive?.[1]) return { kind: "archive", ref: at(archive[1], restStart + rest.indexOf(archive[1])) };
  if (rest === "" || rest === "/") return { kind: "repository" };
  // Docker ADD `<repo>.git#<ref>[:<subdir>]` and pip `git+<repo>.git@<ref>[#egg=...]`.
  const carried = /^(?:\/)?[#@]([^#:?\s]+)/.exec(rest);
  if (carried?.[1]) return { kind: "repository", ref: at(carried[1], restStart + rest.indexOf(carried[1])) };
  return undefined;
}

/** True for the repository itself (as a clone URL or snapshot key), not a page or download within it. */
export function isNodeRepositoryUrl(url: string): boolean {
  const source = nodeSourceOf(url);
  return source?.kind === "repository" && source.ref === undefined;
}

/** Cheap gate: files that never name the node are not parsed. */
export function mentionsNode(text: string): boolean {
  return /comfyui-deploy/i.test(text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
}
