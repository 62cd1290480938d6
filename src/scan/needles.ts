/**
 * The cheap first phase: literal byte needles that every V1 use contains.
 * Fragments other than the host matter: a template literal such as
 * `${BASE}/run?run_id=${id}` never spells out the host.
 */
import type { HostSet } from "../core/urls.js";

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
