/**
 * Which generation of the npm SDK a declared range or a locked version
 * selects. Scanners report with it and fixers reuse it to decide what to
 * rewrite, so the answer carries a human-readable reason.
 */
import semver from "semver";
import { JS_SDK } from "./migration.js";

export type NpmVerdict = "v1" | "v2" | "review";

export interface NpmJudgement {
  verdict: NpmVerdict;
  /** Why, as a phrase that follows the spec: `"^0.0.19" selects the V1 SDK (…)`. */
  reason: string;
}

/** Prerelease-aware comparisons: 2.0.0-beta.69 is a V2 version, not "below 2.0.0". */
const WITH_PRERELEASE: semver.RangeOptions = { includePrerelease: true };

/** The whole range npm resolves through the `latest` dist-tag. */
const LATEST_SPECS = new Set(["", "latest", "*", "x", "X"]);

/** A spec npm resolves through the `latest` dist-tag (`latest`, `*`, an empty range), which is V1 today but may move. */
export function resolvesThroughLatest(spec: string): boolean {
  return LATEST_SPECS.has(spec.trim());
}

const NON_REGISTRY_PROTOCOL =
  /^(?:git\+|git:|github:|gitlab:|bitbucket:|gist:|file:|link:|portal:|workspace:|exec:|https?:|ssh:)/i;

/**
 * A spec as written in a manifest (`^0.0.19`, `latest`, `npm:comfydeploy@0.0.x`,
 * `github:org/repo`). Ranges that allow any version below 2.0.0 are V1: npm
 * picks the `latest` tag when it satisfies the range, and that tag is V1.
 */
export function judgeNpmSpec(spec: string): NpmJudgement {
  const trimmed = spec.trim();
  const alias = unwrapSdkSpec(trimmed);
  if (alias === undefined) return { verdict: "review", reason: "is an alias of another package" };
  if (alias !== trimmed) return judgeNpmSpec(alias);

  if (LATEST_SPECS.has(trimmed)) {
    return {
      verdict: "review",
      reason: `resolves through the registry's latest tag, which still points at the V1 SDK (${JS_SDK.latestTagIsV1})`,
    };
  }
  if (trimmed.startsWith("catalog:")) return { verdict: "review", reason: "is taken from a catalog" };
  if (NON_REGISTRY_PROTOCOL.test(trimmed) || isGitHubShorthand(trimmed)) {
    return { verdict: "review", reason: "is not a registry version, so its SDK generation cannot be told" };
  }
  const range = semver.validRange(trimmed, WITH_PRERELEASE);
  if (range === null) {
    return {
      verdict: "review",
      reason: "is a dist-tag or a range that cannot be read, so its SDK generation cannot be told",
    };
  }
  const lowest = semver.minVersion(trimmed, WITH_PRERELEASE);
  if (lowest && semver.lt(lowest, JS_SDK.firstV2Version)) {
    const whole = semver.maxSatisfying([JS_SDK.v2Pin], trimmed, WITH_PRERELEASE) !== null;
    return {
      verdict: "v1",
      reason: whole
        ? `also allows versions below 2.0.0 and resolves to the V1 SDK (${JS_SDK.latestTagIsV1}) today`
        : "selects the V1 SDK (every version below 2.0.0 is V1)",
    };
  }
  return { verdict: "v2", reason: "selects the V2 SDK" };
}

/** An exact version from a lockfile. */
export function judgeNpmVersion(version: string): NpmJudgement {
  const valid = semver.valid(version.trim());
  if (valid === null)
    return { verdict: "review", reason: "is not a registry version, so its SDK generation cannot be told" };
  return semver.lt(valid, JS_SDK.firstV2Version)
    ? { verdict: "v1", reason: "is the V1 SDK (every version below 2.0.0 is V1)" }
    : { verdict: "v2", reason: "is the V2 SDK" };
}

/**
 * The SDK spec inside a dependency entry, or undefined when the entry is not
 * the SDK: `"comfydeploy": "^0.0.19"`, `"cd": "npm:comfydeploy@^0.0.19"`,
 * yarn's `patch:comfydeploy@npm%3A0.0.19#...`. `"comfydeploy": "npm:other@1"`
 * is another package under the SDK's name.
 */
export function sdkSpecOf(name: string, spec: string): string | undefined {
  const inner = unwrapSdkSpec(spec.trim());
  if (inner === undefined) return undefined;
  if (inner !== spec.trim()) return inner;
  return name === JS_SDK.packageName ? inner : undefined;
}

/**
 * Every way of naming the SDK (its key, an alias, a patch, a tarball URL)
 * spells the package name: files without it need no parsing.
 */
export function mentionsSdk(text: string): boolean {
  return text.includes(JS_SDK.packageName);
}

/**
 * Strips `npm:comfydeploy@` and `patch:` wrappers. Returns the spec itself when
 * it is not an alias, and undefined when it aliases a different package.
 */
function unwrapSdkSpec(spec: string): string | undefined {
  if (spec.startsWith("patch:")) {
    const body = spec.slice("patch:".length).split("#")[0] ?? "";
    const { name, range } = splitDescriptor(safeDecode(body));
    if (name !== JS_SDK.packageName) return undefined;
    return unwrapSdkSpec(range);
  }
  if (!spec.startsWith("npm:")) return spec;
  const { name, range } = splitDescriptor(spec.slice("npm:".length));
  if (name === "") return range; // yarn berry's `npm:^0.0.19`: a plain range
  if (name !== JS_SDK.packageName) return undefined;
  return range === "" ? "latest" : range;
}

/** `comfydeploy@^0.0.19` → name and range; `@scope/pkg@1` keeps its scope; a bare range has no name. */
export function splitDescriptor(descriptor: string): { name: string; range: string } {
  if (semver.validRange(descriptor, WITH_PRERELEASE) !== null && !/^[a-z@]/i.test(descriptor))
    return { name: "", range: descriptor };
  const at = descriptor.indexOf("@", descriptor.startsWith("@") ? 1 : 0);
  if (at <= 0) return { name: descriptor, range: "" };
  return { name: descriptor.slice(0, at), range: descriptor.slice(at + 1) };
}

/** A slash-separated chain of package names, scopes kept whole: `a/@s/p/**\/b` → [`a`, `@s/p`, `**`, `b`]. */
export function splitPackagePath(path: string): string[] {
  const segments: string[] = [];
  const parts = path.split("/");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    segments.push(part.startsWith("@") && i + 1 < parts.length ? `${part}/${parts[++i]}` : part);
  }
  return segments;
}

function isGitHubShorthand(spec: string): boolean {
  return /^[\w.-]+\/[\w.-]+(#.*)?$/.test(spec) && !spec.startsWith("@");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
