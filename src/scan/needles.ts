/**
 * The cheap first phase: literal byte needles that every V1 use contains.
 * Fragments other than the host matter: a template literal such as
 * `${BASE}/run?run_id=${id}` never spells out the host.
 */
import type { HostSet } from "../core/urls.js";
import { JS_SDK, V1_CLIENT_METHODS, V1_SDK_EXPORTS } from "../knowledge/migration.js";

const BASE_NEEDLES = [
  "comfydeploy", // host, package name, image name
  "ComfyDeploy", // SDK class names
  // The node component; repository URLs are matched in any case, so the usual spellings are needles.
  "comfyui-deploy",
  "ComfyUI-Deploy",
  "ComfyUI-deploy",
  "Comfyui-deploy",
  "COMFYUI-DEPLOY",
  "run_id",
  "deployment_id",
  "/run",
  "getRun",
  "parseWebhookDataSafe",
];

export function prefilterNeedles(hosts: HostSet): string[] {
  const needles = new Set(BASE_NEEDLES);
  for (const host of hosts.legacy) if (!host.includes("comfydeploy")) needles.add(host);
  return [...needles];
}

export class Prefilter {
  private readonly needles: Buffer[];

  constructor(needles: readonly string[]) {
    this.needles = needles.map((n) => Buffer.from(n, "utf8"));
  }

  matches(content: Buffer): boolean {
    for (const needle of this.needles) if (content.indexOf(needle) !== -1) return true;
    return false;
  }
}

/** Git's own heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).indexOf(0) !== -1;
}

/**
 * The second, precise test a JS/TS candidate passes before the parser sees it.
 * Third-party code is full of `/run`, `run_id` and `deployment_id` for its own
 * reasons; a V1 use names the vendor (host, package, SDK names) or pairs the
 * `/run` path with V1's query or body key. Files that only import a client
 * module are found later by the importer follow-up, not here.
 */
export class JsSignals {
  private readonly strong: Buffer[];
  private readonly runPath = Buffer.from("/run");
  private readonly runKeys = [Buffer.from("run_id"), Buffer.from("deployment_id")];

  constructor(hosts: HostSet) {
    // The package and class prefix, the V1 client's methods but `run` (too common a word) and the V1 SDK's exports.
    const methods = V1_CLIENT_METHODS.map((m) => m.v1).filter((name) => name !== "run");
    const names = [JS_SDK.packageName, "ComfyDeploy", ...methods, ...V1_SDK_EXPORTS.map((e) => e.v1)];
    this.strong = [...new Set([...names, ...hosts.legacy])].map((n) => Buffer.from(n, "utf8"));
  }

  matches(content: Buffer): boolean {
    if (this.strong.some((needle) => content.indexOf(needle) !== -1)) return true;
    return content.indexOf(this.runPath) !== -1 && this.runKeys.some((key) => content.indexOf(key) !== -1);
  }
}
