/**
 * Whether a pin of the ComfyUI node (a commit, a tag or a registry version)
 * is at or after the minimum release, decided offline from the migration
 * data. Pure functions: the scanner, the online resolver and the fixer share them.
 */
import semver from "semver";
import { NODE_COMPONENT } from "./migration.js";

/** What kind of pin the text names. A branch, HEAD or nothing is "none". */
export type NodeRefKind = "sha" | "tag" | "version" | "none";

/** `ok` pins are never reported. */
export type NodeRefVerdict = "ok" | "outdated" | "unknown" | "unpinned";

/** Why a pin could not be judged, so that messages can say what settles it. */
export type NodeRefDoubt =
  /** A commit in no table: a later commit, a side branch or a fork. Online comparison settles it. */
  | "unknown-commit"
  /** A short SHA matching several known commits. */
  | "ambiguous"
  /** Fewer than 7 hex digits. */
  | "too-short"
  /** A registry version that is not semver. */
  | "not-a-version";

export interface NodeRefDecision {
  /** The pin as written (whitespace trimmed). Empty when nothing pins the node. */
  ref: string;
  refKind: NodeRefKind;
  verdict: NodeRefVerdict;
  /** The release tag the pin was matched to, when known. */
  release?: string;
  doubt?: NodeRefDoubt;
}

const MINIMUM_TAG = `v${NODE_COMPONENT.minimumVersion}`;

/** What a fixer writes instead of an outdated pin of each kind. */
export const NODE_REF_TARGET = {
  sha: NODE_COMPONENT.minimumCommit,
  tag: MINIMUM_TAG,
  version: NODE_COMPONENT.minimumVersion,
} as const;

/** A commit SHA or an abbreviation git would accept as one. */
const FULL_OR_SHORT_SHA = /^[0-9a-f]{7,40}$/i;
const TOO_SHORT_SHA = /^(?=[0-9a-f]*\d)[0-9a-f]{4,6}$/i;
const VERSION_TAG = /^v?\d+\.\d+\.\d+$/;

/** Refs that name no fixed commit. */
const FLOATING_REFS = new Set(["head", "fetch_head", "orig_head"]);

/**
 * A git ref as given to `git checkout`, `git reset`, `clone --branch`, an
 * archive URL or a snapshot `hash`. Unknown names count as branches.
 */
export function decideGitRef(ref: string | undefined): NodeRefDecision {
  const written = (ref ?? "").trim();
  if (written === "" || FLOATING_REFS.has(written.toLowerCase()))
    return { ref: written, refKind: "none", verdict: "unpinned" };
  if (/^(refs\/heads\/|origin\/|refs\/remotes\/)/i.test(written))
    return { ref: written, refKind: "none", verdict: "unpinned" };
  const name = written.replace(/^(refs\/tags\/|tags\/)/i, "");
  if (FULL_OR_SHORT_SHA.test(name)) return { ...decideCommit(name), ref: written };
  if (TOO_SHORT_SHA.test(name)) return { ref: written, refKind: "sha", verdict: "unknown", doubt: "too-short" };
  const tag = decideTag(name);
  if (tag) return { ...tag, ref: written };
  return { ref: written, refKind: "none", verdict: "unpinned" };
}

/** The commits the offline decision knows: release tags and commits known to predate the minimum. */
export interface KnownCommits {
  tags: ReadonlyArray<{ tag: string; commit: string }>;
  knownOutdatedCommits: readonly string[];
}

/** A full or abbreviated commit SHA (7+ hex digits), by prefix match against the known commits. */
export function decideCommit(sha: string, known: KnownCommits = NODE_COMPONENT): NodeRefDecision {
  const ref = sha.trim();
  const prefix = ref.toLowerCase();
  if (!FULL_OR_SHORT_SHA.test(prefix)) return { ref, refKind: "sha", verdict: "unknown", doubt: "too-short" };
  const taggedMatches = known.tags.filter((t) => t.commit.toLowerCase().startsWith(prefix));
  const outdatedMatches = known.knownOutdatedCommits.filter((c) => c.toLowerCase().startsWith(prefix));
  const commits = new Set([...taggedMatches.map((t) => t.commit), ...outdatedMatches]);
  if (commits.size > 1) return { ref, refKind: "sha", verdict: "unknown", doubt: "ambiguous" };
  const tagged = taggedMatches[0];
  if (tagged)
    return { ref, refKind: "sha", verdict: tagIsOutdated(tagged.tag) ? "outdated" : "ok", release: tagged.tag };
  if (outdatedMatches.length > 0) return { ref, refKind: "sha", verdict: "outdated" };
  return { ref, refKind: "sha", verdict: "unknown", doubt: "unknown-commit" };
}

/**
 * A tag name. Tags in the release table are decided from it; other version
 * names (`v2.4.0`) by their version, since the repository tags its releases
 * with their version numbers. Anything else is not a tag: undefined.
 */
export function decideTag(tag: string): NodeRefDecision | undefined {
  const ref = tag.trim();
  const known = NODE_COMPONENT.tags.find((t) => t.tag.toLowerCase() === ref.toLowerCase());
  if (known) return { ref, refKind: "tag", verdict: tagIsOutdated(known.tag) ? "outdated" : "ok", release: known.tag };
  if (!VERSION_TAG.test(ref)) return undefined;
  return { ref, refKind: "tag", verdict: tagIsOutdated(ref) ? "outdated" : "ok" };
}

/**
 * A Comfy Registry version (`cnr_custom_nodes`, `comfy node install
 * comfyui-deploy@<version>`). `latest` and `nightly` follow the newest code: unpinned.
 */
export function decideRegistryVersion(version: string | undefined): NodeRefDecision {
  const ref = (version ?? "").trim();
  if (ref === "" || /^(latest|nightly)$/i.test(ref)) return { ref, refKind: "none", verdict: "unpinned" };
  const clean = semver.valid(semver.clean(ref) ?? "");
  if (!clean) return { ref, refKind: "version", verdict: "unknown", doubt: "not-a-version" };
  const outdated =
    (NODE_COMPONENT.outdatedRegistryVersions as readonly string[]).includes(clean) ||
    semver.lt(clean, NODE_COMPONENT.minimumVersion);
  return { ref, refKind: "version", verdict: outdated ? "outdated" : "ok" };
}

/**
 * The answer of the GitHub compare API for `<minimum commit>...<sha>`:
 * ahead of or identical to the minimum commit means it contains v2.1.0.
 */
export function verdictFromComparison(status: string): "ok" | "outdated" | "unknown" {
  if (status === "ahead" || status === "identical") return "ok";
  if (status === "behind" || status === "diverged") return "outdated";
  return "unknown";
}

/** `v2.0.0` and `2.0.0` before the minimum release. */
function tagIsOutdated(tag: string): boolean {
  const version = semver.valid(semver.clean(tag) ?? "");
  return version !== null && semver.lt(version, NODE_COMPONENT.minimumVersion);
}
