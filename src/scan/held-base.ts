/**
 * Repository-level evidence for V1 shapes on bases the scanner cannot
 * resolve, in JS/TS and Python alike. Once the repository sets a
 * ComfyDeploy API base (a host constant, a config, env or settings default,
 * an `.env*` value), a request with V1's signature (`POST {base}/run` with a
 * `deployment_id` body, `{base}/run?run_id=`) on a base its file does not
 * show is taken to be on it, and reported with where that base is set.
 *
 * What the code around the request says wins over the repository: a base the
 * caller passes in (a parameter), one from outside the repository (a
 * package's export), a class or module holding another service's host (a
 * local ComfyUI, a GPU host, the app's own origin) keep the request a V1
 * shape on an unknown base; a file, class or base named after another
 * inference service (RunPod, Replicate) is that service's client, as in the
 * syntax-tree languages, and its `/run` is not reported at all.
 */
import { NOT_CLOUD_RUN_API } from "../knowledge/migration.js";
import type { RepoFacts } from "./scanner.js";

export interface HeldBase {
  file: string;
  line: number;
}

/** Where the base of a V1-shaped request comes from, as far as its file shows. */
export type BaseOrigin = "parameter" | "package" | "unresolved";

/** What the request's own file says about it. */
export interface RequestScope {
  /** Repository-relative path of the file. */
  file: string;
  /** The whole file's text: its head (imports, package) may name the service. */
  fileText: string;
  /** The enclosing class's text, or the file's when the request is in none. */
  scopeText: string;
  /** The enclosing class's name, if any. */
  scopeName?: string;
  /** The URL expression as written (`${RUNPOD_BASE}/run`). */
  urlText: string;
  origin: BaseOrigin;
}

/** How much of a file's start is read for the names of its imports and package. */
const HEAD_CHARS = 400;

/**
 * What a V1-shaped request on an unresolved base is: on the base the
 * repository sets (`held`, with where), another service's request
 * (`"other-service"`: not reported), or a V1 shape on an unknown base
 * (`undefined`, also in a repository that sets no ComfyDeploy base).
 */
export function heldBaseFor(
  repo: Pick<RepoFacts, "legacyBase">,
  scope: RequestScope,
): HeldBase | "other-service" | undefined {
  if (!repo.legacyBase) return undefined;
  // A base the caller passes (or an outside package exports) says nothing of this file's service: as before, unknown.
  if (scope.origin !== "unresolved") return undefined;
  if (namesAnotherService(scope)) return "other-service";
  if (holdsAnotherHost(scope.scopeText) || readsOwnOrigin(scope.scopeText)) return undefined;
  return repo.legacyBase;
}

/** The file's path or head, the class's name or the URL expression names another inference service. */
function namesAnotherService(scope: RequestScope): boolean {
  return namesOtherInferenceService(
    `${scope.file} ${scope.fileText.slice(0, HEAD_CHARS)} ${scope.scopeName ?? ""} ${scope.urlText}`,
  );
}

/** Names (paths, heads, class names) mention another inference service: short names as whole words, long ones anywhere. */
export function namesOtherInferenceService(names: string): boolean {
  const words = new Set(names.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase()));
  const joined = names.toLowerCase();
  return NOT_CLOUD_RUN_API.otherServices.some((service) =>
    service.length >= 6 ? joined.includes(service) : words.has(service),
  );
}

/** Hosts that say nothing about which service a request goes to (documentation examples). */
const NEUTRAL_HOST = /(?:^|\.)comfydeploy\.com$|(?:^|\.)example\.(?:com|org|net)$/;

/**
 * A quoted URL literal on a host other than ComfyDeploy's: another service,
 * a local ComfyUI (`http://127.0.0.1:8188`), the app's own origin.
 */
function holdsAnotherHost(text: string): boolean {
  for (const match of text.matchAll(/["'`]https?:\/\/([a-z0-9.-]+)/gi)) {
    if (!NEUTRAL_HOST.test(match[1]!.toLowerCase())) return true;
  }
  return false;
}

/** The code builds URLs on the origin it is served from: its `/run` is the app's own route. */
function readsOwnOrigin(text: string): boolean {
  return /\b(?:window\.location|location\.origin|request\.(?:url_root|host_url|base_url)|build_absolute_uri)\b/.test(
    text,
  );
}
